/**
 * The two views of service a Jain's index can be over (core/metrics/collector.ts): every place that
 * shows an index names its view with these words, so a figure on the page can be matched with the
 * chart it describes and with the CLI's "client view …; system view …".
 */
import { jainIndex } from '../../core/metrics/jain';
import type { SessionSnapshot } from '../../worker/session';

/** The client's view: `jain_index` (run --json), Figures' series. */
export const CLIENT_VIEW = 'client view';
/** The system's view: `jain_index_extend` (run --json), what the Client service chart plots. */
export const SYSTEM_VIEW = 'system view';

/** What client-view service counts (collector.ts `clientService`). */
export const CLIENT_VIEW_WHAT =
  'Client view: w_e per prompt token, cached or not, plus w_q per output token, each counted once per request (the service a client receives; the DLPM paper\u2019s service rate).';
/** What system-view service counts (collector.ts `service`). */
export const SYSTEM_VIEW_WHAT =
  'System view: w_e per computed (uncached) prompt token plus w_q per output token, a recomputation counted again (the cost the schedulers balance, and what the Client service chart plots).';

/** The system-view index over the run's window, read off the Client service chart's samples. */
export interface SystemJain {
  index: number;
  /**
   * True when the window ends at this moment and starts at 0 (`whole_run`): the index is then the
   * clients' service totals' own, exactly run --json's `jain_index_extend`. Otherwise the service at
   * the window's ends is interpolated between the chart's samples: close to it, not exact.
   */
  exact: boolean;
}

/**
 * Jain's index of system-view service over the window of the snapshot's `jain_run` (the run JSON's
 * `jain_interval_s`), over the clients that have sent requests: the service each got in the window,
 * from the series the Client service chart plots (`service:<client>`, cumulative), the totals at the
 * snapshot's time appended. Null for a sandbox, a run without two such clients, or no service in
 * the window (the index would only be its convention of 1).
 */
export function systemJain(snapshot: SessionSnapshot | null): SystemJain | null {
  if (snapshot?.kind !== 'cluster') return null;
  const run = snapshot.jain_run;
  const { t, rows } = snapshot.series;
  const now = snapshot.sim_time_s;
  const deltas: number[] = [];
  for (const [name, c] of Object.entries(snapshot.clients)) {
    if (c.injected <= 0) continue;
    const row = rows[`service:${name}`];
    if (!row) return null;
    const ts = t[t.length - 1] === now ? t : [...t, now];
    const vs = t[t.length - 1] === now ? row : [...row, c.service];
    const at = (x: number) => valueAt(ts, vs, x, now, c.service);
    deltas.push(Math.max(0, at(run.to) - at(run.from)));
  }
  if (deltas.length < 2 || !deltas.some((d) => d > 0)) return null;
  return { index: jainIndex(deltas), exact: run.whole_run && run.from === 0 && run.to === now };
}

/** A cumulative series at `x`: linear between its samples, 0 before the first, `total` from `now`. */
function valueAt(
  ts: readonly number[],
  vs: readonly number[],
  x: number,
  now: number,
  total: number,
): number {
  if (x >= now) return total;
  if (ts.length === 0 || x <= ts[0]) return x <= 0 || ts.length === 0 ? 0 : (vs[0] ?? 0) * (x / ts[0]);
  for (let i = 1; i < ts.length; i++) {
    if (x <= ts[i]) {
      const a = vs[i - 1] ?? 0;
      const b = vs[i] ?? 0;
      const span = ts[i] - ts[i - 1];
      return span > 0 ? a + ((b - a) * (x - ts[i - 1])) / span : b;
    }
  }
  return vs[vs.length - 1] ?? total;
}

/** The index in the page's digits: 3 decimals when exact, `≈` and 2 when read off samples. */
export function fmtSystemJain(s: SystemJain): string {
  return s.exact ? s.index.toFixed(3) : `\u2248 ${s.index.toFixed(2)}`;
}
