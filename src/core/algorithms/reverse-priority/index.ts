/** reverse-priority (BLIS): the least urgent SLO class first, a deliberately pathological order. */
import { defineScheduler } from '../descriptor';
import { explainReversePriority } from './explain';
import { FieldPrioritizer } from '../shared/prioritizer';
import { createReversePriority } from './policy';

export type { ReversePriorityDetail } from './policy';

export const reversePriority = defineScheduler({
  name: 'reverse-priority',
  summary: 'least urgent SLO class first, deliberately pathological (BLIS)',
  params: {},
  create: createReversePriority,
  explain: (d) => (d.algo === 'reverse-priority' ? explainReversePriority(d) : null),
  prioritizer: () => new FieldPrioritizer('reverse SLO priority (reverse-priority)', 'priority', -1),
});
