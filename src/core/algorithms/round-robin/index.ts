/** Round-robin: the i-th request goes to worker i mod N. The routing a scenario gets by default. */
import { defineRouting } from '../descriptor';
import { RoundRobinRouter } from './policy';

export const roundRobin = defineRouting({
  name: 'round-robin',
  summary: 'the i-th request goes to worker i mod N',
  params: {},
  state: (p) => (p instanceof RoundRobinRouter ? p.describe() : undefined),
  create: (cfg) => new RoundRobinRouter(cfg.workers),
});
