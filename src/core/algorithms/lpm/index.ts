/** LPM (SGLang): longest cached prefix first. */
import { defineScheduler } from '../descriptor';
import { fcfsFallbackShape } from '../shared/prefix-order';
import { explainLpm } from './explain';
import { createLpm } from './policy';

export type { LpmDetail } from './policy';

export const lpm = defineScheduler({
  name: 'lpm',
  summary: 'longest cached prefix first; stops at the first request that does not fit (SGLang)',
  params: fcfsFallbackShape,
  // No walk of the queue per step: the order is kept live under the radix cache's changes
  // (../shared/live-prefix-order.ts), O((1 + c) log n). Declared (as 0) because the requests whose
  // match moved are re-read from their page fingerprints, which they then keep while they wait: the
  // run estimate charges those bytes for every order that declares this.
  walkedPerStep: () => 0,
  create: (cfg) => createLpm(cfg.params.lpm_fcfs_fallback),
  explain: (d) => (d.algo === 'lpm' ? explainLpm(d) : null),
});
