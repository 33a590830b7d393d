/**
 * StepCost (the simulator's step-time evaluator with per-pair constants hoisted) must give exactly
 * stepTimeS's number, bit for bit, or runs would change (#14): every GPU and model, random shapes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GPUS, MODELS, StepCost, type StepShape, stepTimeS } from '../../../src/core/cost/index';

const shape = fc
  .record({
    prefillTokens: fc.integer({ min: 0, max: 65_536 }),
    context: fc.integer({ min: 0, max: 131_072 }),
    decodeSeqs: fc.integer({ min: 0, max: 1024 }),
    decodeContextTokens: fc.integer({ min: 0, max: 2 ** 27 }),
  })
  .map(
    (s): StepShape => ({
      prefillTokens: s.prefillTokens,
      // as the replica builds it: Σ c · (context before + c / 2)
      prefillAttnTokens2: s.prefillTokens * (s.context + s.prefillTokens / 2),
      decodeSeqs: s.decodeSeqs,
      decodeContextTokens: s.decodeContextTokens,
    }),
  );

describe('StepCost', () => {
  for (const [gid, gpu] of Object.entries(GPUS))
    for (const [mid, model] of Object.entries(MODELS))
      it(`equals stepTimeS exactly on ${gid} × ${mid}`, () => {
        const cost = new StepCost(gpu, model);
        fc.assert(
          fc.property(shape, (s) => Object.is(cost.timeS(s), stepTimeS(gpu, model, s))),
          { numRuns: 300 },
        );
      });

  it('a different constant would be caught (the comparison is exact)', () => {
    const gpu = GPUS['h100-80gb'];
    const model = MODELS['llama-3.1-8b'];
    const cost = new StepCost({ ...gpu, overheadMs: gpu.overheadMs * (1 + 2 ** -40) }, model);
    const s: StepShape = {
      prefillTokens: 0,
      prefillAttnTokens2: 0,
      decodeSeqs: 3,
      decodeContextTokens: 3000,
    };
    expect(Object.is(cost.timeS(s), stepTimeS(gpu, model, s))).toBe(false);
  });
});
