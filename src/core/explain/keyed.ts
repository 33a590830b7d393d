/**
 * Plain-words account of one admission under a fixed-key order (BLIS's sjf, priority-fcfs and
 * reverse-priority, Vajra's EDF; shared/keyed-order.ts): the rule, this request's key, where it
 * stood, and the head-of-line stop. Only what the record holds: the policy's key and the arrival,
 * and the facts every admission records (replica.ts: how many others were waiting, the prompt and
 * its cached part). The record does not hold the other waiting requests' keys, and the account
 * says so rather than claim a comparison it cannot show.
 */
import type { ExplanationStep } from './types';
import { count, num } from './words';

/** The admission facts every local policy's record carries beside its own (replica.ts tryAdmit). */
interface AdmitFacts {
  waiting?: number;
  cached_tokens?: number;
  prompt_tokens?: number;
}

function admitFacts(d: object): AdmitFacts {
  const n = (k: string): number | undefined => {
    const v: unknown = Reflect.get(d, k);
    return typeof v === 'number' ? v : undefined;
  };
  return { waiting: n('waiting'), cached_tokens: n('cached_tokens'), prompt_tokens: n('prompt_tokens') };
}

export interface KeyedAccount {
  /** The order's rule, with a link to its parameter where it has one. */
  rule: ExplanationStep;
  /** This request's key in words, e.g. "its prompt is 399 tokens". */
  key: string;
  /** What every other waiting request's key is, by the rule, e.g. "a prompt of at least 399 tokens". */
  others: string;
  /** Where the worker view shows the others' keys. */
  seeOthers: string;
}

export function explainKeyedAdmit(detail: object, a: KeyedAccount): ExplanationStep[] {
  const f = admitFacts(detail);
  const steps: ExplanationStep[] = [a.rule, { text: `This request: ${a.key}.` }];
  if (f.waiting !== undefined)
    steps.push({
      text:
        f.waiting === 0
          ? 'No other request was waiting on this worker when it was taken, so it was first by default.'
          : `It was the head of this worker's list: ${count(f.waiting, 'other request was', 'other requests were')} still waiting when it was taken, and by the rule each has ${a.others}. This decision's record gives only how many there were, not their keys: ${a.seeOthers}.`,
    });
  if (f.prompt_tokens !== undefined && f.cached_tokens !== undefined)
    steps.push({
      text: `${num(f.cached_tokens)} of its ${count(f.prompt_tokens, 'prompt token')} were cached on this worker; the order does not look at the cache.`,
    });
  steps.push({
    text: 'It fits in what the step has left (token budget, running slots, KV memory). Admission takes the head while it fits and stops at the first head that does not, so nothing overtakes the head.',
  });
  steps.push({ text: 'Result: admitted.', final: true });
  return steps;
}
