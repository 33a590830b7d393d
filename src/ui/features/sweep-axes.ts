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

/** The spread of one series as a percentage of its magnitude (0 for fewer than two values). */
function spreadPct(values: number[]): number {
  const v = finite(values);
  if (v.length < 2) return 0;
  const lo = Math.min(...v);
  const hi = Math.max(...v);
  const magnitude = Math.max(Math.abs(lo), Math.abs(hi));
  return magnitude === 0 ? 0 : (100 * (hi - lo)) / magnitude;
}

/**
 * How far apart the swept points are, within each series (a p50 is not compared with a p99), as the
 * widest series' spread in words ("within 0.4 % of each other").
 */
export function spreadWords(series: number[][]): string {
  const pct = Math.max(0, ...series.map(spreadPct));
  if (pct === 0) return 'identical';
  return `within ${pct < 0.1 ? '0.1' : pct.toFixed(1)} % of each other`;
}

/**
 * The note under a chart whose metrics barely move (each with the values plotted), or null when
 * none is flat. It says how close the points are, measured on these runs, and claims no cause: a
 * spread under 2 % can come from a short run's noise or from a parameter that does not matter here.
 */
export function flatNote(metrics: { name: string; series: number[][] }[]): string | null {
  if (metrics.length === 0) return null;
  const parts = metrics.map(
    (m) => `${m.name[0].toUpperCase()}${m.name.slice(1)}: all points ${spreadWords(m.series)}`,
  );
  const axes = metrics.length === 1 ? 'its axis starts' : 'their axes start';
  return `${parts.join('; ')}. That is under 2 %, so ${axes} at 0.`;
}

/** One plotted point's Jain window: the run JSON's `jain_interval_s`, and the point's tag. */
export interface JainWindow {
  label: string;
  from: number;
  to: number;
}

/** Windows whose lengths differ by more than this share of the longest count as unlike. */
export const WINDOW_SPREAD = 0.1;

const secs = (v: number): string => `${v.toFixed(1)} s`;

/**
 * What to say when the plotted points' Jain's indices cover windows of materially different lengths
 * (each run's index is over its own window: the last client's first request to the first client's
 * last completion), or null when they are alike. A run where one client finishes early gets a short
 * window and an index that leaves out the rest of the run, so it is not comparable with the others.
 */
export function jainWindowNote(windows: JainWindow[]): string | null {
  if (windows.length < 2) return null;
  const len = (w: JainWindow) => w.to - w.from;
  const sorted = [...windows].sort((a, b) => len(a) - len(b));
  const short = sorted[0];
  const long = sorted[sorted.length - 1];
  if (len(long) <= 0 || len(long) - len(short) <= WINDOW_SPREAD * len(long)) return null;
  const at = (w: JainWindow) => `${w.label}: ${w.from.toFixed(1)}–${secs(w.to)}`;
  return (
    `Jain's index covers unlike windows here: ${secs(len(short))} (${at(short)}) to ` +
    `${secs(len(long))} (${at(long)}). A run's window ends at the first client's last completion, ` +
    'so a short one leaves the rest of that run out, in either view; compare with care (tooltips give each window).'
  );
}
