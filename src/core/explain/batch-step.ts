/**
 * A worker's batch step in sentences: what was batched (decodes and prefill tokens), why (continuous
 * batching), and what it cost (the step's modelled time and the KV cache it left in use).
 */
import type { StepDetail } from '../sim/decision';
import type { ExplanationStep } from './types';
import { num } from './words';

const plural = (n: number, one: string, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;

export function explainBatchStep(where: { t?: number; worker?: number }, d: StepDetail): ExplanationStep[] {
  const who = where.worker !== undefined && where.worker >= 0 ? `Worker ${where.worker}` : 'The worker';
  const when = where.t !== undefined ? ` at t = ${num(where.t)} s` : '';
  const parts: string[] = [];
  if (d.decodes > 0)
    parts.push(`generated one output token for each of ${plural(d.decodes, 'decoding request')}`);
  if (d.prefill_tokens > 0) parts.push(`computed ${plural(d.prefill_tokens, 'prompt token')} of prefill`);
  const what = parts.length > 0 ? parts.join(' and ') : 'had nothing to compute';
  const steps: ExplanationStep[] = [
    { text: `What was batched: ${who} ran one forward step${when} and ${what}.` },
    {
      text:
        `Why together: continuous batching puts every running request into the same step — each one ` +
        `still decoding gets its next token, and prompts not yet prefilled get as many tokens as the ` +
        `step's budget leaves room for. ${plural(d.running, 'request')} ran in this step; ` +
        `${plural(d.waiting, 'request')} were still waiting to be admitted.`,
    },
  ];
  const share = d.kv_total_blocks > 0 ? ` (${num((d.kv_used_blocks / d.kv_total_blocks) * 100)} %)` : '';
  steps.push({
    text:
      `What it cost: the step-time model puts this batch at ${num(d.step_ms)} ms of GPU time; ` +
      `afterwards ${num(d.kv_used_blocks)} of ${num(d.kv_total_blocks)} KV-cache blocks were in use${share}.`,
    final: true,
  });
  return steps;
}
