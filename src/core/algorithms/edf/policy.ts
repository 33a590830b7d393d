/**
 * EDF (Vajra): earliest absolute deadline first, deadline = arrival + D with D the deadline budget
 * (see ./deadline.ts). The deadline is fixed when the request joins the queue; ties go to the
 * earlier arrival, then the smaller id. Head-of-line admission like the other fixed-key policies.
 */
import { type DeadlineParams, deadlineBudgetS, predictedPrefillS } from '../shared/deadline';
import { KeyedOrderPolicy } from '../shared/keyed-order';

/** What an admission under EDF records. */
export interface EdfDetail {
  algo: 'edf';
  deadline_s: number;
  arrival_s: number;
}

export const createEdf = (p: DeadlineParams) =>
  new KeyedOrderPolicy({
    name: 'edf',
    key: (r, w) => r.arrivalT + deadlineBudgetS(p, predictedPrefillS(r, w)),
    why: (r) => `earliest deadline (t=${r.policyKey.toFixed(3)} s)`,
    detail: (r): EdfDetail => ({ algo: 'edf', deadline_s: r.policyKey, arrival_s: r.arrivalT }),
  });
