/** Least-loaded: the worker with the fewest queued (+ running) requests. */
import { z } from 'zod';
import { defineRouting } from '../descriptor';
import { LeastLoadedRouter } from './policy';

export type { LeastLoadedDetail } from './policy';

export const leastLoaded = defineRouting({
  name: 'least-loaded',
  summary: 'the worker with the fewest queued (+ running) requests',
  params: {
    count_running: z.boolean({ error: 'count_running must be true or false' }).default(true).meta({
      description: 'least-loaded: count running requests as load, not only queued ones (default true).',
    }),
  },
  state: (p) => (p instanceof LeastLoadedRouter ? p.describe() : undefined),
  create: (cfg) => new LeastLoadedRouter(cfg.params.count_running),
});
