/** Plain-words account of one EDF admission (Vajra: earliest absolute deadline first). */
import { explainKeyedAdmit } from '../../explain/keyed';
import type { ExplanationStep } from '../../explain/types';
import { num } from '../../explain/words';
import type { EdfDetail } from './policy';

export function explainEdf(d: EdfDetail): ExplanationStep[] {
  return explainKeyedAdmit(d, {
    rule: {
      text: "EDF (Vajra) orders this worker's waiting requests by deadline, earliest first; equal deadlines go by arrival, then request id. A request's deadline is fixed when it joins the queue: its arrival plus max(deadline_multiplier × its predicted prefill time, min_deadline_s).",
      ref: { kind: 'param', name: 'scheduler.deadline_multiplier' },
    },
    key: `it arrived at t = ${num(d.arrival_s)} s with a budget of ${num(d.deadline_s - d.arrival_s)} s, so its deadline is t = ${num(d.deadline_s)} s`,
    others: `a deadline at or after t = ${num(d.deadline_s)} s`,
    seeOthers: 'the worker view lists who waits',
  });
}
