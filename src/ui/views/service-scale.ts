/**
 * A y scale shared by the Client service and Guarantees charts of several runs (Compare's columns, a
 * tour's steps), so the same height means the same service (or gap) in A and in B. The provider
 * passes the largest cumulative service, service rate and gap axis over all the runs; without one
 * each chart scales to its own data.
 */
import type { SessionSnapshot } from '../../worker/session';
import { gapAxisTop, readGuarantee } from './Guarantees';
import { readClients, readSeries } from './read';
import type { ServiceScale } from './scale-context';
import { rateOf } from './series-math';

export { type ServiceScale, ServiceScaleContext } from './scale-context';

function maxFinite(values: readonly number[], start: number): number {
  let m = start;
  for (const v of values) if (Number.isFinite(v) && v > m) m = v;
  return m;
}

/** The scale that fits every given run's service curves (0s when none has data yet). */
export function sharedServiceScale(snapshots: readonly (SessionSnapshot | null)[]): ServiceScale {
  let cumulative = 0;
  let rate = 0;
  let gap = 0;
  for (const snap of snapshots) {
    const g = readGuarantee(snap);
    if (g) gap = Math.max(gap, gapAxisTop(g).top);
    const series = readSeries(snap, readClients(snap));
    if (!series) continue;
    for (const row of series.service) {
      cumulative = maxFinite(row, cumulative);
      rate = maxFinite(rateOf(series.t, row), rate);
    }
  }
  return { cumulative, rate, gap };
}
