/** Plain-words account of one LRS admission (Vajra: least remaining slack first). */
import { explainKeyedAdmit } from '../../explain/keyed';
import type { ExplanationStep } from '../../explain/types';
import { num } from '../../explain/words';
import type { LrsDetail } from './policy';

export function explainLrs(d: LrsDetail): ExplanationStep[] {
  const steps = explainKeyedAdmit(d, {
    rule: {
      text: "LRS (Vajra) orders this worker's waiting requests by slack at this moment, least first: slack = (arrival + D − now − R) / D, with D the deadline budget (max(deadline_multiplier × predicted prefill time, min_deadline_s)) and R the predicted prefill time still to do. Ties go by arrival, then request id. Slack falls as time passes, at a rate 1/D, so two requests can swap places between steps.",
      ref: { kind: 'param', name: 'scheduler.deadline_multiplier' },
    },
    key: `its slack was ${num(d.slack)} (budget D = ${num(d.deadline_budget_s)} s, predicted prefill R = ${num(d.remaining_prefill_s)} s)${d.slack < 0 ? ': below 0, so it was already past its deadline' : ''}`,
    others: `a slack of at least ${num(d.slack)} at that moment`,
    seeOthers: 'the worker view lists who waits',
  });
  if (d.rank > 0)
    steps.splice(2, 0, {
      text: `It is number ${d.rank + 1} admitted in this step; the ${d.rank === 1 ? 'one' : num(d.rank)} before it had less slack.`,
    });
  return steps;
}
