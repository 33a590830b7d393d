/**
 * Small numeric helpers over the snapshot's time series: rates from cumulative curves, total service
 * rate, and the fairness band around the leading client. Jain's index is not here: the engine computes
 * it (core/metrics) and ships it in the series.
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

/** Total service rate over time (service units/s): what Figures and Compare chart as the service rate. */
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
