/**
 * priority-fcfs (BLIS): the most urgent SLO class first (priority ascending: critical 0, standard 1,
 * batch 5, sheddable 6, background 7), then arrival, then request id. The priority is static, set
 * from the request's SLO class when it was created.
 */
import type { LocalPolicyFactory } from '../local-policy';
import { KeyedOrderPolicy } from './keyed-order';

export const createPriorityFcfs: LocalPolicyFactory = () =>
  new KeyedOrderPolicy({
    name: 'priority-fcfs',
    keyName: 'priority',
    key: (r) => r.priority,
    why: (r) => `priority ${r.priority} (${r.spec.sloClass}), then arrival`,
  });
