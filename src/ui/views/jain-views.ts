/**
 * The two views of service a Jain's index can be over (core/metrics/collector.ts): every place that
 * shows an index names its view with these words, so a figure on the page can be matched with the
 * chart it describes and with the CLI's "client view …; system view …".
 */
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

/**
 * The system-view index over the run's window (the snapshot's `jain_run_system`, the run JSON's
 * `jain_index_extend`, over the same window as `jain_run`). Null for a sandbox, a run without two
 * clients that have sent requests, or no service in the window (the index would only be its
 * convention of 1).
 */
export function systemJain(snapshot: SessionSnapshot | null): number | null {
  if (snapshot?.kind !== 'cluster') return null;
  const sys = snapshot.jain_run_system;
  return sys.clients >= 2 && sys.served > 0 ? sys.index : null;
}

/** The index in the page's digits (3 decimals, as run --json's summary line). */
export function fmtSystemJain(index: number): string {
  return index.toFixed(3);
}
