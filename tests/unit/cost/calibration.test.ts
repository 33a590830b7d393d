/**
 * The step-time model against Vidur's A100-80GB + Llama-3-8B profile composed as Vidur composes a
 * step, KV-cache write included (shared reference cost-model.md): prefill 256–8,192 tokens and
 * decode at batch 1–256 with 1k, 2k and 4k context. Every row within ±10 % (the fit is within ±7.2 %;
 * `npx tsx scripts/cost-table.ts` prints it, the README shows it).
 */
import { describe, expect, it } from 'vitest';
import { A100_MEASURED, calibrationResults } from '../../../src/core/cost/index';

describe('A100 + Llama-3.1-8B calibration', () => {
  const results = calibrationResults();
  it('covers every measured row', () => {
    expect(results.length).toBe(A100_MEASURED.length);
    expect(results.length).toBe(26);
  });
  for (const r of results) {
    it(`${r.label}: model ${r.modelMs.toFixed(1)} ms vs Vidur ${r.measuredMs} ms is within ±10 %`, () => {
      expect(Math.abs(r.relError)).toBeLessThanOrEqual(0.1);
    });
  }
});
