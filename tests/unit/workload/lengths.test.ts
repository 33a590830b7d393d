import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/prng';
import { sampleSeconds, sampleTokens } from '../../../src/core/workload/index';
import type { Length } from '../../../src/scenario/index';

function stats(xs: number[]) {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
  return { mean, sd, min: Math.min(...xs), max: Math.max(...xs) };
}

function draws(length: Length, n = 20_000, seed = 1): number[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => sampleTokens(rng, length));
}

describe('sampleTokens', () => {
  it('rounds constants and clips them to at least one token', () => {
    const rng = new Rng(1);
    expect(sampleTokens(rng, 3.4)).toBe(3);
    expect(sampleTokens(rng, 3.5)).toBe(4);
    expect(sampleTokens(rng, 0.2)).toBe(1);
  });
  it('uniform: whole numbers in [min, max], every value reachable, mean in the middle', () => {
    const xs = draws({ dist: 'uniform', min: 10, max: 14 });
    expect(new Set(xs)).toEqual(new Set([10, 11, 12, 13, 14]));
    expect(stats(xs).mean).toBeCloseTo(12, 1);
  });
  it('normal: clipped to [min, max], mean close to the target', () => {
    const s = stats(draws({ dist: 'normal', mean: 500, std: 100, min: 300, max: 900 }));
    expect(s.min).toBeGreaterThanOrEqual(300);
    expect(s.max).toBeLessThanOrEqual(900);
    expect(Math.abs(s.mean - 500)).toBeLessThan(5);
    expect(Math.abs(s.sd - 100)).toBeLessThan(5);
  });
  it('exponential: mean close to the target, clipped at max', () => {
    const s = stats(draws({ dist: 'exponential', mean: 200, max: 5000 }));
    expect(Math.abs(s.mean - 200) / 200).toBeLessThan(0.03);
    expect(s.max).toBeLessThanOrEqual(5000);
    const clipped = stats(draws({ dist: 'exponential', mean: 200, max: 250 }));
    expect(clipped.max).toBe(250);
  });
  it('lognormal: mean and standard deviation of the value itself', () => {
    const s = stats(draws({ dist: 'lognormal', mean: 142, std: 90, max: 100_000 }));
    expect(Math.abs(s.mean - 142) / 142).toBeLessThan(0.03);
    expect(Math.abs(s.sd - 90) / 90).toBeLessThan(0.1);
  });
  it('lognormal with std 0 is the constant mean', () => {
    expect(new Set(draws({ dist: 'lognormal', mean: 64, std: 0, max: 640 }, 100))).toEqual(new Set([64]));
  });
  it('always gives whole tokens ≥ 1 within the clip (property)', () => {
    const dist = fc.oneof(
      fc
        .record({
          dist: fc.constant('uniform' as const),
          min: fc.double({ min: 1, max: 50, noNaN: true }),
          span: fc.double({ min: 0, max: 50, noNaN: true }),
        })
        .map((d) => ({ dist: d.dist, min: d.min, max: d.min + d.span })),
      fc
        .record({
          dist: fc.constant('normal' as const),
          mean: fc.double({ min: 1, max: 1000, noNaN: true }),
          std: fc.double({ min: 0, max: 2000, noNaN: true }),
        })
        .map((d) => ({ ...d, min: 1, max: d.mean + 4 * d.std })),
      fc
        .record({
          dist: fc.constant('exponential' as const),
          mean: fc.double({ min: 0.01, max: 1000, noNaN: true }),
        })
        .map((d) => ({ ...d, max: 10 * d.mean })),
      fc
        .record({
          dist: fc.constant('lognormal' as const),
          mean: fc.double({ min: 0.01, max: 1000, noNaN: true }),
          std: fc.double({ min: 0, max: 3000, noNaN: true }),
        })
        .map((d) => ({ ...d, max: 10 * d.mean })),
    );
    fc.assert(
      fc.property(dist, fc.nat(), (d, seed) => {
        const rng = new Rng(seed);
        for (let i = 0; i < 20; i++) {
          const x = sampleTokens(rng, d as Length);
          expect(Number.isInteger(x)).toBe(true);
          expect(x).toBeGreaterThanOrEqual(1);
          expect(x).toBeLessThanOrEqual(Math.max(1, Math.round(d.max)));
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('sampleSeconds', () => {
  it('keeps fractions and never goes below 0', () => {
    const rng = new Rng(3);
    expect(sampleSeconds(rng, 2.5)).toBe(2.5);
    const xs = Array.from({ length: 5000 }, () =>
      sampleSeconds(rng, { dist: 'normal', mean: 0.5, std: 1, min: 0, max: 10 }),
    );
    expect(Math.min(...xs)).toBe(0);
    expect(xs.some((x) => !Number.isInteger(x))).toBe(true);
  });
});
