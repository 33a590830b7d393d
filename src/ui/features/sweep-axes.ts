/**
 * How a sweep chart picks the range of an axis. Fitting an axis to the data makes a 1 % wobble fill
 * the whole chart and read as a big effect; when a metric barely moves across the swept points, its
 * axis shows the metric's natural range instead (from 0, or [0, 1] for Jain's index) and the chart
 * says that the differences are small.
 */

/**
 * - `fit`: the data's own extent (the swept parameter).
 * - `jain`: Jain's index: fit to the data, or [0, 1] when it is flat.
 * - `nonneg`: a non-negative metric: fit to the data, or from 0 when it is flat.
 * - `zero`: always from 0 (latencies, where the gap between p50 and p99 is part of the story).
 */
export type AxisRule = 'fit' | 'jain' | 'nonneg' | 'zero';

/** Spreads below this share of a metric's magnitude count as flat. */
export const FLAT_SPREAD = 0.02;

function finite(values: number[]): number[] {
  return values.filter(Number.isFinite);
}

/**
 * Whether a series of at least two values moves by less than {@link FLAT_SPREAD} of its magnitude
 * (the largest absolute value). All zeros are flat.
 */
export function isFlat(values: number[]): boolean {
  const v = finite(values);
  if (v.length < 2) return false;
  const lo = Math.min(...v);
  const hi = Math.max(...v);
  const magnitude = Math.max(Math.abs(lo), Math.abs(hi));
  return magnitude === 0 || hi - lo < FLAT_SPREAD * magnitude;
}

export interface AxisRange {
  domain: [number, number];
  /** Every series on the axis with two or more values is flat (and there is one at least). */
  flat: boolean;
}

/** The extent of `values`, widened by 10 % of the value (or by 1) either side when it is one point. */
function extent(values: number[]): [number, number] {
  if (values.length === 0) return [0, 1];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) {
    const pad = Math.abs(lo) * 0.1 || 1;
    lo -= pad;
    hi += pad;
  }
  return [lo, hi];
}

/**
 * The range of an axis that carries `series` (one array of values per plotted series; a baseline is
 * a series of one value and never decides flatness).
 */
export function axisRange(rule: AxisRule, series: number[][]): AxisRange {
  const all = finite(series.flat());
  const judged = series.filter((s) => finite(s).length >= 2);
  const flat = rule !== 'fit' && judged.length > 0 && judged.every(isFlat);
  if (all.length === 0) return { domain: [0, 1], flat };
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  if (rule === 'jain' && flat && lo >= 0 && hi <= 1) return { domain: [0, 1], flat };
  if ((rule === 'zero' || (rule === 'nonneg' && flat)) && lo >= 0)
    return { domain: [0, hi > 0 ? hi : 1], flat };
  return { domain: extent(all), flat };
}

/** The note under a chart whose metrics (by name) barely move, or null when none is flat. */
export function flatNote(metrics: string[]): string | null {
  if (metrics.length === 0) return null;
  const names =
    metrics.length === 1
      ? metrics[0]
      : `${metrics.slice(0, -1).join(', ')} and ${metrics[metrics.length - 1]}`;
  const axes = metrics.length === 1 ? 'its axis starts' : 'their axes start';
  return `Differences under 2 % in ${names}: within noise for a run this short, so ${axes} at 0.`;
}
