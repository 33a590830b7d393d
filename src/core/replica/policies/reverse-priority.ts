/**
 * reverse-priority (BLIS): the least urgent SLO class first (priority descending), then arrival, then
 * request id. Deliberately pathological: it exists to show what priority inversion looks like.
 */
import type { LocalPolicyFactory } from '../local-policy';
import { KeyedOrderPolicy } from './keyed-order';

export const createReversePriority: LocalPolicyFactory = () =>
  new KeyedOrderPolicy({
    name: 'reverse-priority',
    keyName: 'negated_priority',
    key: (r) => -r.priority,
    why: (r) => `least urgent first (priority ${r.priority}, ${r.spec.sloClass})`,
  });
