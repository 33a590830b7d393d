/**
 * Jain's fairness index of non-negative rates: (Σx)² / (n · Σx²). 1 when all are equal, 1/n when one
 * client gets everything. By convention 1 for an empty list or when every rate is 0.
 */
export function jainIndex(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n === 0) return 1;
  let s = 0;
  let s2 = 0;
  for (let i = 0; i < n; i++) {
    s += xs[i];
    s2 += xs[i] * xs[i];
  }
  return s2 === 0 ? 1 : (s * s) / (n * s2);
}

/**
 * What an index was computed over: `clients` compared (those that have sent a request) and how many
 * of them got service in the index's window (`served`).
 */
export interface JainBasis {
  clients: number;
  served: number;
}

/**
 * Whether the index says anything about fairness: it compares at least two clients and some service
 * was given among them. Otherwise its value is jainIndex's convention (1), which the engine keeps in
 * its figures (the run JSON's `jain_index` never changes) and every view shows as `JAIN_NA` instead.
 * A compared client with no service counts: its zero is what the index measures (one of two clients
 * starved gives 1/2).
 */
export function jainMeaningful(b: JainBasis): boolean {
  return b.clients >= 2 && b.served >= 1;
}

/** How every view (UI panels, Compare, the CLI summary) shows an index that is not meaningful. */
export const JAIN_NA = 'n/a — needs two active clients and some service';

/** The longer reason, for tooltips and help. */
export const JAIN_NA_WHY =
  "Jain's index compares the service rates of the clients that have sent requests, from when the last of them started. " +
  'With fewer than two such clients, or before any of them is served, it is 1 by convention and says nothing about fairness.';

/**
 * The run's headline index as the run JSON carries it (`jain_index`, `jain_interval_s`,
 * `jain_clients`, `jain_clients_served`): what MetricsCollector.jain(t, 'client') returns, which both
 * buildResult (run --json, Export → Run as JSON) and the snapshot read.
 */
export interface RunJain extends JainBasis {
  index: number;
  from: number;
  to: number;
  whole_run: boolean;
}

/** The run's index in the digits the CLI summary prints (3 decimals), or JAIN_NA. */
export function runJainValue(j: RunJain): string {
  return jainMeaningful(j) ? j.index.toFixed(3) : JAIN_NA;
}

/** Where the run's index is measured, e.g. `over 10.4–85.9 s` (`jain_interval_s`). */
export function runJainWindow(j: RunJain): string {
  const span = `${j.from.toFixed(1)}–${j.to.toFixed(1)} s`;
  return j.whole_run ? `over the whole run, ${span}` : `over ${span}`;
}
