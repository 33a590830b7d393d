/** sjf (BLIS): the shortest prompt first; no aging. */
import { defineScheduler } from '../descriptor';
import { FieldPrioritizer } from '../shared/prioritizer';
import { createSjf } from './policy';

export type { SjfDetail } from './policy';

export const sjf = defineScheduler({
  name: 'sjf',
  summary: 'shortest prompt first, no aging (BLIS)',
  params: {},
  create: createSjf,
  prioritizer: () => new FieldPrioritizer('prompt length (sjf)', 'promptLen'),
});
