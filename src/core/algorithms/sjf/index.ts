/** sjf (BLIS): the shortest prompt first; no aging. */
import { defineScheduler } from '../descriptor';
import { explainSjf } from './explain';
import { FieldPrioritizer } from '../shared/prioritizer';
import { createSjf } from './policy';

export type { SjfDetail } from './policy';

export const sjf = defineScheduler({
  name: 'sjf',
  summary: 'shortest prompt first, no aging (BLIS)',
  params: {},
  create: createSjf,
  explain: (d) => (d.algo === 'sjf' ? explainSjf(d) : null),
  prioritizer: () => new FieldPrioritizer('prompt length (sjf)', 'promptLen'),
});
