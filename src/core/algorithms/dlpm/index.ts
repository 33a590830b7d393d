/** DLPM, Deficit Longest Prefix Match (seed 002, Algorithm 1): LPM order within per-client deficits. */
import { defineScheduler } from '../descriptor';
import { explainDlpmAdmit } from './explain';
import { dlpmListing } from './listing';
import { dlpmShape } from './params';
import { LiveDlpmPolicy } from './live-policy';
import { DlpmPolicy, dlpmImplementation } from './policy';

export type { DlpmAdmitDetail, DlpmOrderEntry } from './detail';
export type { DlpmParams } from './params';

export const dlpm = defineScheduler({
  name: 'dlpm',
  summary: 'longest cached prefix first within per-client deficits refilled by Q^u (DLPM, Algorithm 1)',
  params: dlpmShape,
  // No walk of the queue per step, records or not: the order is kept live (./live-policy.ts) and the
  // scan passes over the requests of clients without deficit and the sure refusals in bulk. Declared
  // (as 0), as for LPM, because waiting requests keep their page fingerprints: the run estimate
  // charges those bytes for every order that declares this.
  walkedPerStep: () => 0,
  state: (p) => (p instanceof DlpmPolicy ? p.describe() : undefined),
  create: (cfg) => (dlpmImplementation.reference ? new DlpmPolicy(cfg) : new LiveDlpmPolicy(cfg)),
  explain: (d) => (d.algo === 'dlpm' ? explainDlpmAdmit(d) : null),
  listing: dlpmListing,
  bound: { label: 'DLPM', theorem: 'DLPM Theorem 4.1', shape: 'dlpm' },
  sweep: [
    {
      key: 'scheduler.quantum',
      label: 'Q^u — DLPM per-client quantum (scheduler.quantum)',
      unit: 'service units',
      integer: true,
      fallback: 2500,
      min: 1,
      max: 1e9,
    },
  ],
  presets: [
    {
      id: 'fig1',
      // Fig. 1's trade-off needs a cache that cannot hold every client's prefixes at once (the paper
      // ran it on one A10): ToT S2 with the KV cache scaled down to 15k tokens, as its description says.
      title: 'Paper Fig. 1 — DLPM Q^u frontier (one worker, ToT S2, KV cache under pressure)',
      scenario: 'fig1-kv-pressure',
      key: 'scheduler.quantum',
      from: 25,
      to: 200000,
      points: 5,
      scale: 'log',
      baselines: [
        { label: 'LPM', sets: ['scheduler.policy=lpm'] },
        { label: 'VTC', sets: ['scheduler.policy=vtc'] },
      ],
    },
  ],
});
