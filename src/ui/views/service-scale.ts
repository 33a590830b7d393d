/**
 * A y scale shared by the Client service charts of several runs (Compare's columns), so the same
 * height means the same service in A and in B. The provider passes the largest cumulative service
 * and the largest service rate over all the runs; without one each chart scales to its own data.
 */
import { createContext } from 'react';
import type { SessionSnapshot } from '../../worker/session';
import { readClients, readSeries } from './read';
import { rateOf } from './series-math';

export interface ServiceScale {
  /** Largest cumulative service of any client in any run (service units). */
  cumulative: number;
  /** Largest service rate of any client in any run (service units/s). */
  rate: number;
}

export const ServiceScaleContext = createContext<ServiceScale | null>(null);

function maxFinite(values: readonly number[], start: number): number {
  let m = start;
  for (const v of values) if (Number.isFinite(v) && v > m) m = v;
  return m;
}

/** The scale that fits every given run's service curves (0s when none has data yet). */
export function sharedServiceScale(snapshots: readonly (SessionSnapshot | null)[]): ServiceScale {
  let cumulative = 0;
  let rate = 0;
  for (const snap of snapshots) {
    const series = readSeries(snap, readClients(snap));
    if (!series) continue;
    for (const row of series.service) {
      cumulative = maxFinite(row, cumulative);
      rate = maxFinite(rateOf(series.t, row), rate);
    }
  }
  return { cumulative, rate };
}
