/**
 * Small numeric helpers over the snapshot's time series: rates from cumulative curves, Jain's index,
 * total service rate, and the fairness band around the leading client.
 */
import type { ChartBand } from './TimeChart';
import type { SeriesModel } from './read';

/** Rate of a cumulative series by differences over `window` samples (NaN until enough data). */
export function rateOf(t: readonly number[], cum: readonly number[], window = 3): number[] {
  const out = new Array<number>(cum.length).fill(Number.NaN);
  for (let i = 1; i < cum.length; i++) {
    const j = Math.max(0, i - window);
    const dt = t[i] - t[j];
    const dv = cum[i] - cum[j];
    if (dt > 0 && Number.isFinite(dv)) out[i] = dv / dt;
  }
  return out;
}

/** The band a fair run stays in: within `bound` of the client with the most service so far. */
export function leaderBand(series: readonly number[][], bound: number): ChartBand | null {
  if (series.length < 2) return null;
  const n = Math.max(...series.map((s) => s.length));
  const lo: number[] = [];
  const hi: number[] = [];
  for (let i = 0; i < n; i++) {
    let top = Number.NEGATIVE_INFINITY;
    for (const s of series) if (Number.isFinite(s[i]) && s[i] > top) top = s[i];
    hi.push(Number.isFinite(top) ? top : Number.NaN);
    lo.push(Number.isFinite(top) ? top - bound : Number.NaN);
  }
  return { lo, hi, label: '' };
}

/** Jain's index (Σx)² / (n·Σx²) of the finite, non-negative values; null when there are none or all are 0. */
export function jainIndex(xs: readonly number[]): number | null {
  let s = 0;
  let s2 = 0;
  let n = 0;
  for (const x of xs) {
    if (!Number.isFinite(x) || x < 0) continue;
    s += x;
    s2 += x * x;
    n++;
  }
  return n > 0 && s2 > 0 ? (s * s) / (n * s2) : null;
}

/**
 * Jain's index over time from the cumulative service curves: at each sample, over the clients that
 * have received service so far, of their service rates across the last `window` samples.
 */
export function jainOverTime(series: SeriesModel, window = 3): number[] {
  const rates = series.service.map((s) => rateOf(series.t, s, window));
  return series.t.map((_, i) => {
    const xs: number[] = [];
    series.service.forEach((s, c) => {
      if (Number.isFinite(s[i]) && s[i] > 0 && Number.isFinite(rates[c][i])) xs.push(rates[c][i]);
    });
    return xs.length >= 2 ? (jainIndex(xs) ?? Number.NaN) : Number.NaN;
  });
}

/** Total service rate over time (service units/s), the throughput fallback when none is recorded. */
export function totalServiceRate(series: SeriesModel, window = 3): number[] {
  const total = series.t.map((_, i) => {
    let s = 0;
    let any = false;
    for (const c of series.service)
      if (Number.isFinite(c[i])) {
        s += c[i];
        any = true;
      }
    return any ? s : Number.NaN;
  });
  return rateOf(series.t, total, window);
}
