/** fcfs-mpq: Preble's own worker-local scheduler (multi-level priority queues by cache hit ratio). */
import { int } from '../../zod-fields';
import { defineScheduler } from '../descriptor';
import { explainFcfsMpq } from './explain';
import { FcfsMpqPolicy, MPQ_K } from './policy';

export type { FcfsMpqDetail } from './detail';

export const fcfsMpq = defineScheduler({
  name: 'fcfs-mpq',
  summary:
    'ten priority groups by cache hit ratio, one group per step in round robin, oldest first inside it (Preble)',
  params: {
    mpq_k: int('mpq_k', 1, 100_000)
      .default(MPQ_K)
      .meta({
        description: `fcfs-mpq: a step serving priority group g admits at most (g + 1) × mpq_k requests (Preble's k, default ${MPQ_K}).`,
      }),
  },
  state: (p) => (p instanceof FcfsMpqPolicy ? p.describe() : undefined),
  create: (cfg) => new FcfsMpqPolicy(cfg.workerId, cfg.params.mpq_k),
  explain: (d) => (d.algo === 'fcfs-mpq' ? explainFcfsMpq(d) : null),
});
