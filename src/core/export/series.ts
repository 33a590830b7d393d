/**
 * Time series of a run as a wide CSV: one row per sample time, one column per series (in the
 * order the series table lists them), e.g. `t_s,service:alice,service:bob,queued:alice,...`.
 */
import { type CsvValue, toCsv } from './csv';

/** The shape of the engine's series snapshot (src/core/metrics/series.ts): times and aligned rows. */
export interface SeriesTable {
  t: readonly number[];
  rows: Readonly<Record<string, readonly number[]>>;
}

export function seriesCsv(series: SeriesTable): string {
  const names = Object.keys(series.rows);
  const columns = ['t_s', ...names];
  const out: Record<string, CsvValue>[] = series.t.map((t, i) => {
    const row: Record<string, CsvValue> = { t_s: t };
    for (const n of names) row[n] = series.rows[n][i];
    return row;
  });
  return toCsv(out, columns);
}
