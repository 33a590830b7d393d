import { describe, expect, it } from 'vitest';
import { mapLength } from '../../../src/import/blis-lengths';

describe('BLIS length distributions', () => {
  it('constant and gaussian map exactly (shifted by a shared prefix)', () => {
    expect(mapLength({ type: 'constant', params: { value: 99.6 } })).toEqual({ ok: true, length: 100 });
    expect(mapLength({ type: 'constant', params: {} })).toEqual({ ok: true, length: 1 });
    expect(mapLength({ type: 'constant', params: { value: 10 } }, 5)).toEqual({ ok: true, length: 15 });
    expect(mapLength({ type: 'gaussian', params: { mean: 128, std_dev: 30, min: 0, max: 512 } }, 10)).toEqual(
      {
        ok: true,
        length: { dist: 'normal', mean: 138, std: 30, min: 11, max: 522 },
      },
    );
  });

  it('exponential stays exponential without a prefix', () => {
    expect(mapLength({ type: 'exponential', params: { mean: 128 } })).toEqual({
      ok: true,
      length: { dist: 'exponential', mean: 128 },
    });
  });

  it('a pure lognormal mixture keeps its mean and std', () => {
    // mix_weight 0: lognormal(mu = ln 100, sigma = 0.5): mean 100·e^0.125 = 113.315, std = mean·sqrt(e^0.25 − 1) = 60.39.
    const r = mapLength({
      type: 'pareto_lognormal',
      params: { alpha: 3, xm: 10, mu: Math.log(100), sigma: 0.5, mix_weight: 0 },
    });
    expect(r).toMatchObject({ ok: true, length: { dist: 'lognormal', mean: 113.315, std: 60.39 } });
  });

  it('a Pareto part without a finite mean falls back to the lognormal part', () => {
    const r = mapLength({
      type: 'pareto_lognormal',
      params: { alpha: 0.9, xm: 10, mu: Math.log(100), sigma: 0.5, mix_weight: 0.5 },
    });
    expect(r).toMatchObject({ ok: true, length: { mean: 113.315 } });
    expect(r.ok && r.note).toContain('alpha ≤ 1');
  });

  it('empirical tables: one bin is a constant, several become a clipped normal', () => {
    expect(mapLength({ type: 'empirical', params: { '64': 1 } })).toEqual({ ok: true, length: 64 });
    // mean 0.25·10 + 0.75·30 = 25; variance 0.25·225 + 0.75·25 = 75 → std 8.66
    expect(mapLength({ type: 'empirical', params: { '10': 1, '30': 3 } })).toMatchObject({
      ok: true,
      length: { dist: 'normal', mean: 25, std: 8.66, min: 10, max: 30 },
    });
    expect(mapLength({ type: 'empirical', file: 'x.json' })).toMatchObject({ ok: false });
    expect(mapLength({ type: 'empirical', params: { abc: 1 } })).toMatchObject({ ok: false, param: 'abc' });
  });

  it('rejects missing or inconsistent parameters', () => {
    expect(mapLength({ type: 'gaussian', params: { mean: 1, std_dev: 1, min: 5, max: 2 } })).toMatchObject({
      ok: false,
      param: 'min',
    });
    expect(mapLength({ type: 'exponential', params: {} })).toMatchObject({ ok: false, param: 'mean' });
    expect(mapLength({ type: 'pareto_lognormal', params: { alpha: 2 } })).toMatchObject({
      ok: false,
      param: 'xm',
    });
  });
});
