/** priority-fcfs (BLIS): the most urgent SLO class first, then arrival. */
import { defineScheduler } from '../descriptor';
import { explainPriorityFcfs } from './explain';
import { FieldPrioritizer } from '../shared/prioritizer';
import { createPriorityFcfs } from './policy';

export type { PriorityFcfsDetail } from './policy';

export const priorityFcfs = defineScheduler({
  name: 'priority-fcfs',
  summary: 'most urgent SLO class first, then arrival (BLIS)',
  params: {},
  create: createPriorityFcfs,
  explain: (d) => (d.algo === 'priority-fcfs' ? explainPriorityFcfs(d) : null),
  prioritizer: () => new FieldPrioritizer('SLO priority, then arrival (priority-fcfs)', 'priority'),
});
