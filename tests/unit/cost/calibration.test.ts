/**
 * The step-time model against the measured A100-80GB + Llama-3-8B table (shared reference
 * cost-model.md). At the time of writing the fit is:
 *
 * | step              | measured ms | model ms | error |
 * | decode, batch 1   | 10.5        | 10.5     | -0 %  |
 * | decode, batch 8   | 11.3        | 11.1     | -2 %  |
 * | decode, batch 16  | 12.1        | 11.7     | -3 %  |
 * | decode, batch 32  | 14.1        | 13.0     | -8 %  |
 * | decode, batch 64  | 16.8        | 15.7     | -7 %  |
 * | decode, batch 128 | 23.7        | 22.0     | -7 %  |
 * | prefill 256       | 20          | 19.0     | -5 %  |
 * | prefill 512       | 36          | 37.0     | +3 %  |
 * | prefill 1024      | 79          | 73.5     | -7 %  |
 * | prefill 2048      | 152         | 148.5    | -2 %  |
 * | prefill 4096      | 304         | 306.7    | +1 %  |
 */
import { describe, expect, it } from 'vitest';
import { A100_MEASURED, calibrationResults } from '../../../src/core/cost/index';

describe('A100 + Llama-3.1-8B calibration', () => {
  const results = calibrationResults();
  it('covers every measured row', () => {
    expect(results.length).toBe(A100_MEASURED.length);
    expect(results.length).toBe(11);
  });
  for (const r of results) {
    it(`${r.label}: model ${r.modelMs.toFixed(1)} ms vs measured ${r.measuredMs} ms is within ±30 %`, () => {
      expect(Math.abs(r.relError)).toBeLessThanOrEqual(0.3);
    });
  }
  it('is tighter than ±10 % on every row (guards against drift of the fit)', () => {
    for (const r of results) expect(Math.abs(r.relError), r.label).toBeLessThan(0.1);
  });
});
