/**
 * reverse-priority (BLIS): the least urgent SLO class first (priority descending), then arrival, then
 * request id. Deliberately pathological: it exists to show what priority inversion looks like.
 */
import { KeyedOrderPolicy } from '../shared/keyed-order';

/** What an admission under reverse-priority records. */
export interface ReversePriorityDetail {
  algo: 'reverse-priority';
  negated_priority: number;
  arrival_s: number;
}

export const createReversePriority = () =>
  new KeyedOrderPolicy({
    name: 'reverse-priority',
    key: (r) => -r.priority,
    why: (r) => `least urgent first (priority ${r.priority}, ${r.spec.sloClass})`,
    detail: (r): ReversePriorityDetail => ({
      algo: 'reverse-priority',
      negated_priority: r.policyKey,
      arrival_s: r.arrivalT,
    }),
  });
