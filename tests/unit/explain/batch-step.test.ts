/** A worker's batch step is told in sentences: what was batched, why together, what it cost (#13). */
import { describe, expect, test } from 'vitest';
import { type ExplainableDecision, explainDecision } from '../../../src/core/explain';

describe('batch step account', () => {
  const step = {
    kind: 'step',
    summary: 'worker 0 step: 40 decodes + 1638 prefill tokens, 41 running, 21.45 ms',
    t: 29.9,
    worker: 0,
    detail: {
      decodes: 40,
      prefill_tokens: 1638,
      running: 41,
      waiting: 174,
      step_ms: 21.45,
      kv_used_blocks: 3630,
      kv_total_blocks: 3750,
    },
  } satisfies ExplainableDecision;
  test('what was batched, why, what it cost; no raw field list', () => {
    const text = explainDecision(step)
      .map((s) => s.text)
      .join('\n');
    expect(text).toContain('Worker 0 ran one forward step at t = 29.9 s');
    expect(text).toMatch(
      /one output token for each of 40 decoding requests and computed 1[, ]?638 prompt tokens/,
    );
    expect(text).toContain('continuous batching');
    expect(text).toMatch(/174 requests were still waiting/);
    expect(text).toMatch(/21\.45 ms of GPU time/);
    expect(text).toMatch(/3[, ]?630 of 3[, ]?750 KV-cache blocks were in use \(96\.8 %\)/);
    expect(text).not.toContain('Details:');
    expect(text).not.toContain('step_ms');
  });
  test('a step with only decodes says so, in the singular when there is one', () => {
    const text = explainDecision({
      ...step,
      detail: { ...step.detail, decodes: 1, prefill_tokens: 0, running: 1 },
    })
      .map((s) => s.text)
      .join('\n');
    expect(text).toContain('for each of 1 decoding request.');
    expect(text).not.toContain('prefill.');
    expect(text).toContain('1 request ran in this step');
  });
});
