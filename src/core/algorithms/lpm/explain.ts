/**
 * Plain-words account of one LPM admission: how SGLang's LPM orders its waiting list (longest cached
 * prefix first, ties in the list's own order), where this request stood, and the head-of-line stop.
 */
import type { ExplanationStep } from '../../explain/types';
import { num } from '../../explain/words';
import type { LpmDetail } from './policy';

export function explainLpm(d: LpmDetail): ExplanationStep[] {
  const steps: ExplanationStep[] = [];
  if (d.fcfs_fallback) {
    steps.push({
      text: "More requests wait on this worker than scheduler.lpm_fcfs_fallback allows, so, as SGLang does above its threshold, the list is not sorted this step: requests are offered in the list's order as it stands (the last sort's order, newer requests behind).",
      ref: { kind: 'param', name: 'scheduler.lpm_fcfs_fallback' },
    });
  } else {
    steps.push({
      text: "LPM sorts this worker's waiting list at every step that admits, longest cached prefix first. SGLang sorts the list in place with a stable sort and keeps it, so requests with equal prefixes keep the order the list already had (not their arrival order), and new requests (and, under SGLang admission, retracted ones) come behind those with their prefix. A request whose first 32 tokens equal those of an earlier request with (almost) nothing cached goes last, so that the earlier one caches the shared part.",
    });
    steps.push({
      text: `This request has ${num(d.prefix_match)} tokens of its prompt in this worker's prefix cache now. Prefixes change between steps (a prefill caches its prompt, memory pressure evicts), so a request can move far up or down the list from one step to the next.`,
    });
  }
  steps.push({
    text:
      d.rank === 0
        ? "It is first in this step's order."
        : `It is number ${d.rank + 1} in this step's order; the ${d.rank === 1 ? 'one' : num(d.rank)} before it ${d.rank === 1 ? 'was' : 'were'} admitted in this step.`,
  });
  steps.push({
    text: 'It fits in what the step has left (token budget, running slots, KV memory with its output reserved). LPM stops at the first request that does not fit, so the ones after it wait for the next step.',
  });
  steps.push({ text: 'Result: admitted.', final: true });
  return steps;
}
