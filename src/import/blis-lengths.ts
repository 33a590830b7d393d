/**
 * BLIS token-length distributions → Fairground lengths (spec/scenario.md §2.1). Gaussian and
 * constant map exactly; exponential maps exactly unless a shared prefix must be added to it;
 * the Pareto–lognormal mixture and empirical tables become the closest supported shape with the
 * same mean and standard deviation. Each approximation comes with a note.
 */
import { exp } from '../core/det-math';
import { SCENARIO_LIMITS } from '../scenario/limits';
import type { BlisDist } from './blis-schema';
import { quote } from '../format/yaml';

const MAX = SCENARIO_LIMITS.maxTokens;

/** A length as written in a scenario file (a distribution's optional bounds may be left out). */
export type LengthOut =
  | number
  | { dist: 'uniform' | 'normal' | 'exponential' | 'lognormal'; [param: string]: number | string };

export type LengthMapping =
  | { ok: true; length: LengthOut; note?: string }
  /** `param`: the missing or bad parameter, for positioning the problem. */
  | { ok: false; message: string; param?: string };

/** Three decimals at most, so generated files stay readable. */
export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function tokens(x: number): number {
  return Math.min(MAX, Math.max(1, round3(x)));
}

function need(d: BlisDist, keys: readonly string[]): string | null {
  for (const k of keys) if (d.params?.[k] === undefined) return k;
  return null;
}

/**
 * Map a BLIS distribution. `shift` tokens (a shared prefix BLIS prepends to every prompt) are added
 * to every value, because a Fairground prompt length includes its shared prefix.
 */
export function mapLength(d: BlisDist, shift = 0): LengthMapping {
  const p = d.params ?? {};
  switch (d.type) {
    case 'constant':
      return { ok: true, length: Math.round(tokens(Math.max(1, Math.round(p.value ?? 0)) + shift)) };
    case 'gaussian': {
      const missing = need(d, ['mean', 'std_dev', 'min', 'max']);
      if (missing)
        return { ok: false, message: `a gaussian distribution needs params.${missing}`, param: missing };
      if (p.min > p.max) return { ok: false, message: 'params.min must be ≤ params.max', param: 'min' };
      if (p.std_dev < 0) return { ok: false, message: 'params.std_dev must be ≥ 0', param: 'std_dev' };
      if (p.min === p.max)
        return { ok: true, length: Math.round(tokens(Math.max(1, Math.round(p.min)) + shift)) };
      const lo = tokens(Math.max(1, p.min) + shift);
      const hi = Math.max(lo, tokens(p.max + shift));
      return {
        ok: true,
        length: { dist: 'normal', mean: tokens(p.mean + shift), std: round3(p.std_dev), min: lo, max: hi },
      };
    }
    case 'exponential': {
      if (p.mean === undefined)
        return { ok: false, message: 'an exponential distribution needs params.mean', param: 'mean' };
      if (!(p.mean > 0)) return { ok: false, message: 'params.mean must be > 0', param: 'mean' };
      if (shift === 0) return { ok: true, length: { dist: 'exponential', mean: tokens(p.mean) } };
      return {
        ok: true,
        length: {
          dist: 'normal',
          mean: tokens(p.mean + shift),
          std: round3(p.mean),
          min: tokens(shift + 1),
          max: tokens(shift + 10 * p.mean),
        },
        note: `an exponential length (mean ${round3(p.mean)}) after a ${shift}-token prefix is approximated by a normal with the same mean and std, clipped to [${tokens(shift + 1)}, ${tokens(shift + 10 * p.mean)}]`,
      };
    }
    case 'pareto_lognormal':
      return paretoLognormal(d, shift);
    case 'empirical':
      return empirical(d, shift);
  }
}

function paretoLognormal(d: BlisDist, shift: number): LengthMapping {
  const missing = need(d, ['alpha', 'xm', 'mu', 'sigma', 'mix_weight']);
  if (missing)
    return { ok: false, message: `a pareto_lognormal distribution needs params.${missing}`, param: missing };
  const p = d.params ?? {};
  const { alpha, xm, mu, sigma } = p;
  if (!(alpha > 0) || !(xm > 0))
    return { ok: false, message: 'params.alpha and params.xm must be > 0', param: 'alpha' };
  const w = Math.min(1, Math.max(0, p.mix_weight));
  const meanL = exp(mu + (sigma * sigma) / 2);
  const sqL = exp(2 * mu + 2 * sigma * sigma);
  let mean: number;
  let std: number;
  let caveat = '';
  if (w > 0 && alpha <= 1) {
    // The Pareto part has no finite mean: keep the lognormal part and say so.
    mean = meanL;
    std = Math.sqrt(Math.max(0, sqL - meanL * meanL));
    caveat = ' (its Pareto part has no finite mean since alpha ≤ 1, so only the lognormal part is kept)';
  } else {
    const meanP = alpha > 1 ? (alpha * xm) / (alpha - 1) : 0;
    mean = w * meanP + (1 - w) * meanL;
    if (w > 0 && alpha <= 2) {
      std = 2 * mean;
      caveat =
        ' (its Pareto part has infinite variance since alpha ≤ 2, so the std is set to twice the mean)';
    } else {
      const sqP = alpha > 2 ? (alpha * xm * xm) / (alpha - 2) : 0;
      std = Math.sqrt(Math.max(0, w * sqP + (1 - w) * sqL - mean * mean));
    }
  }
  const m = tokens(mean + shift);
  const s = round3(Math.min(MAX, std));
  return {
    ok: true,
    length: { dist: 'lognormal', mean: m, std: s, max: tokens(10 * m) },
    note: `pareto_lognormal approximated by a lognormal with the mixture's mean ${m} and std ${s}, clipped at ${tokens(10 * m)}${caveat}`,
  };
}

function empirical(d: BlisDist, shift: number): LengthMapping {
  if (!d.params || Object.keys(d.params).length === 0)
    return {
      ok: false,
      message: d.file
        ? 'file-based empirical distributions are not supported: give the table inline in params'
        : 'an empirical distribution needs params (token count: probability)',
      param: 'params',
    };
  const bins: { v: number; p: number }[] = [];
  for (const [k, p] of Object.entries(d.params)) {
    const v = Number(k);
    if (!Number.isInteger(v))
      return {
        ok: false,
        message: `empirical key '${quote(String(k))}' is not a whole token count`,
        param: k,
      };
    if (p > 0) bins.push({ v, p });
  }
  if (bins.length === 0)
    return {
      ok: false,
      message: 'an empirical distribution needs a bin with probability > 0',
      param: 'params',
    };
  bins.sort((a, b) => a.v - b.v);
  const total = bins.reduce((s, b) => s + b.p, 0);
  const mean = bins.reduce((s, b) => s + (b.v * b.p) / total, 0);
  const variance = bins.reduce((s, b) => s + ((b.v - mean) * (b.v - mean) * b.p) / total, 0);
  const lo = tokens(Math.max(1, bins[0].v) + shift);
  const hi = Math.max(lo, tokens(bins[bins.length - 1].v + shift));
  if (bins.length === 1) return { ok: true, length: lo };
  const m = tokens(mean + shift);
  const s = round3(Math.sqrt(variance));
  return {
    ok: true,
    length: { dist: 'normal', mean: m, std: s, min: lo, max: hi },
    note: `the empirical table (${bins.length} bins) is approximated by a normal with the same mean ${m} and std ${s}, clipped to [${lo}, ${hi}]`,
  };
}
