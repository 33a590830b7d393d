/** fcfs-mpq: Preble's own worker-local scheduler (multi-level priority queues by cache hit ratio). */
import { int } from '../../zod-fields';
import { defineScheduler } from '../descriptor';
import { explainFcfsMpq } from './explain';
import { LiveFcfsMpqPolicy } from './live-policy';
import { FcfsMpqPolicy, fcfsMpqImplementation, MPQ_K } from './policy';

export type { FcfsMpqDetail } from './detail';

export const fcfsMpq = defineScheduler({
  name: 'fcfs-mpq',
  summary:
    'ten priority groups by cache hit ratio, one group per step in round robin, oldest first inside it; no running-request limit, whole-prompt prefill steps while half the KV pool is free (Preble)',
  params: {
    mpq_k: int('mpq_k', 1, 100_000)
      .default(MPQ_K)
      .meta({
        description: `fcfs-mpq: a step serving priority group g admits at most (g + 1) × mpq_k requests (Preble's k, default ${MPQ_K}).`,
      }),
    mpq_max_prefill_tokens: int('mpq_max_prefill_tokens', 0, 100_000_000).default(0).meta({
      description:
        "fcfs-mpq: Preble's max_prefill_num_token. The group scan passes over a request whose uncached prompt plus the prefill tokens already admitted in the step reaches it. 0 (default): Preble's own, the larger of the model's context length and a sixth of the KV pool in tokens.",
    }),
  },
  // No walk of the queue per step: groups are ordered sets and the scan jumps over the requests the
  // worker would refuse untouched, by keys kept live under the radix cache's changes (./live-policy.ts).
  // Declared (as 0), as LPM's, because the requests whose match moved are re-read from their page
  // fingerprints, which they then keep while they wait: the run estimate charges those bytes.
  walkedPerStep: () => 0,
  state: (p) => (p instanceof FcfsMpqPolicy ? p.describe() : undefined),
  create: (cfg) =>
    fcfsMpqImplementation.reference
      ? new FcfsMpqPolicy(cfg.workerId, cfg.params.mpq_k, cfg.params.mpq_max_prefill_tokens || null)
      : new LiveFcfsMpqPolicy(cfg.workerId, cfg.params.mpq_k, cfg.params.mpq_max_prefill_tokens || null),
  explain: (d) => (d.algo === 'fcfs-mpq' ? explainFcfsMpq(d) : null),
});
