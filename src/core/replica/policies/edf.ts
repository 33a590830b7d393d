/**
 * EDF (Vajra): earliest absolute deadline first, deadline = arrival + D with D the deadline budget
 * (see ./deadline.ts). The deadline is fixed when the request joins the queue; ties go to the
 * earlier arrival, then the smaller id. Head-of-line admission like the other fixed-key policies.
 */
import type { LocalPolicyFactory } from '../local-policy';
import { deadlineBudgetS, deadlineParams, predictedPrefillS } from './deadline';
import { KeyedOrderPolicy } from './keyed-order';

export const createEdf: LocalPolicyFactory = (cfg) => {
  const p = deadlineParams(cfg.scheduler);
  return new KeyedOrderPolicy({
    name: 'edf',
    keyName: 'deadline_s',
    key: (r, w) => r.arrivalT + deadlineBudgetS(p, predictedPrefillS(r, w)),
    why: (r) => `earliest deadline (t=${r.policyKey.toFixed(3)} s)`,
  });
};
