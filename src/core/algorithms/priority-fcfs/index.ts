/** priority-fcfs (BLIS): the most urgent SLO class first, then arrival. */
import { defineScheduler } from '../descriptor';
import { FieldPrioritizer } from '../shared/prioritizer';
import { createPriorityFcfs } from './policy';

export type { PriorityFcfsDetail } from './policy';

export const priorityFcfs = defineScheduler({
  name: 'priority-fcfs',
  summary: 'most urgent SLO class first, then arrival (BLIS)',
  params: {},
  create: createPriorityFcfs,
  prioritizer: () => new FieldPrioritizer('SLO priority, then arrival (priority-fcfs)', 'priority'),
});
