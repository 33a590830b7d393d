/**
 * priority-fcfs (BLIS): the most urgent SLO class first (priority ascending: critical 0, standard 1,
 * batch 5, sheddable 6, background 7), then arrival, then request id. The priority is static, set
 * from the request's SLO class when it was created.
 */
import { KeyedOrderPolicy } from '../shared/keyed-order';

/** What an admission under priority-fcfs records. */
export interface PriorityFcfsDetail {
  algo: 'priority-fcfs';
  priority: number;
  arrival_s: number;
}

export const createPriorityFcfs = () =>
  new KeyedOrderPolicy({
    name: 'priority-fcfs',
    key: (r) => r.priority,
    why: (r) => `priority ${r.priority} (${r.spec.sloClass}), then arrival`,
    detail: (r): PriorityFcfsDetail => ({
      algo: 'priority-fcfs',
      priority: r.policyKey,
      arrival_s: r.arrivalT,
    }),
  });
