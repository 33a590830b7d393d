/** Plain-words account of one sjf admission (BLIS: shortest prompt first, no aging). */
import { explainKeyedAdmit } from '../../explain/keyed';
import type { ExplanationStep } from '../../explain/types';
import { count, num } from '../../explain/words';
import type { SjfDetail } from './policy';

export function explainSjf(d: SjfDetail): ExplanationStep[] {
  return explainKeyedAdmit(d, {
    rule: {
      text: "sjf (BLIS) orders this worker's waiting requests by prompt length, shortest first; equal lengths go by arrival, then request id. There is no aging: a long prompt waits for as long as shorter ones keep arriving.",
    },
    key: `its prompt is ${count(d.input_tokens, 'token')} (it arrived at t = ${num(d.arrival_s)} s)`,
    others: `a prompt of at least ${count(d.input_tokens, 'token')} (exactly ${num(d.input_tokens)} only if it arrived no earlier)`,
    seeOthers: 'the worker view lists who waits',
  });
}
