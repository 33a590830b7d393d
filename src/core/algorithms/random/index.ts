/** Random: a uniformly drawn worker from the router's seeded stream. */
import { defineRouting } from '../descriptor';
import { RandomRouter } from './policy';

export const random = defineRouting({
  name: 'random',
  summary: 'a worker drawn uniformly (seeded)',
  params: {},
  create: () => new RandomRouter(),
});
