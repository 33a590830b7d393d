import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/prng';
import { createArrivalProcess, expectedArrivals } from '../../../src/core/workload/index';
import type { ArrivalSpec } from '../../../src/scenario/index';

function times(spec: ArrivalSpec, duration: number, seed = 9): number[] {
  const p = createArrivalProcess(spec, new Rng(seed), duration);
  const out: number[] = [];
  for (let t = p.first(); t !== null; t = p.next(t)) out.push(t);
  return out;
}

function gapsCv(ts: number[]): { mean: number; cv: number } {
  const gaps = ts.slice(1).map((t, i) => t - ts[i]);
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  const sd = Math.sqrt(gaps.reduce((a, b) => a + (b - mean) ** 2, 0) / gaps.length);
  return { mean, cv: sd / mean };
}

describe('arrival processes', () => {
  it('constant: exactly every 1/rate seconds from start_s, stopping before the end', () => {
    expect(times({ process: 'constant', rate: 2, start_s: 1 }, 3)).toEqual([1, 1.5, 2, 2.5]);
  });
  it('poisson: rate and cv ≈ 1', () => {
    const ts = times({ process: 'poisson', rate: 5, start_s: 0 }, 2000);
    expect(Math.abs(ts.length / 2000 - 5) / 5).toBeLessThan(0.03);
    expect(Math.abs(gapsCv(ts).cv - 1)).toBeLessThan(0.05);
  });
  it('gamma: rate and the requested coefficient of variation', () => {
    for (const cv of [0.5, 2]) {
      const ts = times({ process: 'gamma', rate: 4, cv, start_s: 0 }, 5000);
      expect(Math.abs(ts.length / 5000 - 4) / 4).toBeLessThan(0.05);
      expect(Math.abs(gapsCv(ts).cv - cv) / cv).toBeLessThan(0.08);
    }
  });
  it('times are strictly ordered and inside [start_s, stop_s)', () => {
    const ts = times({ process: 'gamma', rate: 10, cv: 3, start_s: 5, stop_s: 50 }, 100);
    expect(ts[0]).toBeGreaterThanOrEqual(5);
    expect(ts[ts.length - 1]).toBeLessThan(50);
    for (let i = 1; i < ts.length; i++) expect(ts[i]).toBeGreaterThanOrEqual(ts[i - 1]);
  });
  it('on-off: silent in off phases, average rate = rate × duty', () => {
    const ts = times({ process: 'on-off', rate: 6, period_s: 10, duty: 0.3, cv: 1, start_s: 0 }, 3000);
    for (const t of ts) expect(t % 10).toBeLessThan(3 + 1e-9);
    expect(Math.abs(ts.length / 3000 - 1.8) / 1.8).toBeLessThan(0.05);
  });
  it('trace: sorted, times at or after the end dropped', () => {
    expect(times({ process: 'trace', times: [3, 1, 2, 1, 9] }, 5)).toEqual([1, 1, 2, 3]);
  });
  it('expectedArrivals matches the processes', () => {
    expect(expectedArrivals({ process: 'poisson', rate: 2, start_s: 10 }, 60)).toBe(100);
    expect(
      expectedArrivals({ process: 'on-off', rate: 2, period_s: 10, duty: 0.5, cv: 1, start_s: 0 }, 60),
    ).toBe(60);
    expect(expectedArrivals({ process: 'trace', times: [1, 2, 70] }, 60)).toBe(2);
  });
  it('same seed → same times; different seed → different times', () => {
    const spec: ArrivalSpec = { process: 'gamma', rate: 3, cv: 1.5, start_s: 0 };
    expect(times(spec, 50, 4)).toEqual(times(spec, 50, 4));
    expect(times(spec, 50, 4)).not.toEqual(times(spec, 50, 5));
  });
});
