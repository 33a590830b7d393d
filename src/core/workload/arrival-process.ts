/**
 * Arrival processes: when a client starts its next program instance. Each process owns its random
 * stream and yields strictly the next arrival time after the previous one, or null once the next
 * would fall at or after the end of the client's window (min(duration_s, stop_s)).
 */
import type { ArrivalSpec } from '../input';
import type { Rng } from '../prng';

export interface ArrivalProcess {
  /** The first arrival, or null when none falls inside the window. */
  first(): number | null;
  /** The arrival after the one at t (the last value returned), or null. */
  next(t: number): number | null;
}

/**
 * Gaps of a renewal process with mean 1/rate and the given coefficient of variation: exponential
 * when cv = 1 (Poisson arrivals), gamma otherwise. It owns its random stream.
 */
export class GapSampler {
  private readonly mean: number;
  private readonly shape: number;
  private readonly scale: number;

  constructor(
    private readonly rng: Rng,
    rate: number,
    private readonly cv: number,
  ) {
    this.mean = 1 / rate;
    this.shape = 1 / (cv * cv);
    this.scale = this.mean / this.shape;
  }

  next(): number {
    return this.cv === 1 ? this.rng.exponential(this.mean) : this.rng.gamma(this.shape, this.scale);
  }
}

/** A gap sampler for a renewal process with mean 1/rate and the given coefficient of variation. */
export function gapSampler(rng: Rng, rate: number, cv: number): GapSampler {
  return new GapSampler(rng, rate, cv);
}

function within(t: number, end: number): number | null {
  return t < end ? t : null;
}

/** Evenly spaced arrivals: start, start + 1/rate, ... (computed from a counter, so no drift). */
class ConstantProcess implements ArrivalProcess {
  private k = 0;
  constructor(
    private readonly start: number,
    private readonly rate: number,
    private readonly end: number,
  ) {}
  first(): number | null {
    this.k = 0;
    return within(this.start, this.end);
  }
  next(): number | null {
    this.k += 1;
    return within(this.start + this.k / this.rate, this.end);
  }
}

/** Renewal process (Poisson when cv = 1, gamma otherwise): the first arrival one gap after start. */
class RenewalProcess implements ArrivalProcess {
  constructor(
    private readonly start: number,
    private readonly gap: GapSampler,
    private readonly end: number,
  ) {}
  first(): number | null {
    return within(this.start + this.gap.next(), this.end);
  }
  next(t: number): number | null {
    return within(t + this.gap.next(), this.end);
  }
}

/**
 * On-off: a renewal process that runs on "on-time" only. On-time τ maps to wall time
 * start + ⌊τ / on⌋ · period + (τ mod on), where on = period · duty; each period begins on.
 */
class OnOffProcess implements ArrivalProcess {
  private tau = 0;
  private readonly on: number;
  constructor(
    private readonly start: number,
    private readonly period: number,
    duty: number,
    private readonly gap: GapSampler,
    private readonly end: number,
  ) {
    this.on = period * duty;
  }
  private wall(): number {
    const cycles = Math.floor(this.tau / this.on);
    return this.start + cycles * this.period + (this.tau - cycles * this.on);
  }
  first(): number | null {
    this.tau = this.gap.next();
    return within(this.wall(), this.end);
  }
  next(): number | null {
    this.tau += this.gap.next();
    return within(this.wall(), this.end);
  }
}

/** Explicit times, sorted ascending; times at or after the end are dropped. */
class TraceProcess implements ArrivalProcess {
  private readonly times: number[];
  private i = 0;
  constructor(times: readonly number[], end: number) {
    this.times = times.filter((t) => t < end).sort((a, b) => a - b);
  }
  first(): number | null {
    this.i = 0;
    return this.times.length > 0 ? this.times[0] : null;
  }
  next(): number | null {
    this.i += 1;
    return this.i < this.times.length ? this.times[this.i] : null;
  }
}

/** The arrival process of a client, ending at min(durationS, stop_s). */
export function createArrivalProcess(spec: ArrivalSpec, rng: Rng, durationS: number): ArrivalProcess {
  if (spec.process === 'trace') return new TraceProcess(spec.times, durationS);
  const end = Math.min(durationS, spec.stop_s ?? durationS);
  switch (spec.process) {
    case 'constant':
      return new ConstantProcess(spec.start_s, spec.rate, end);
    case 'poisson':
      return new RenewalProcess(spec.start_s, gapSampler(rng, spec.rate, 1), end);
    case 'gamma':
      return new RenewalProcess(spec.start_s, gapSampler(rng, spec.rate, spec.cv), end);
    case 'on-off':
      return new OnOffProcess(
        spec.start_s,
        spec.period_s,
        spec.duty,
        gapSampler(rng, spec.rate, spec.cv),
        end,
      );
  }
}

/** Expected number of arrivals in [0, durationS) (for size limits and estimates). */
export function expectedArrivals(spec: ArrivalSpec, durationS: number): number {
  if (spec.process === 'trace') return spec.times.filter((t) => t < durationS).length;
  const end = Math.min(durationS, spec.stop_s ?? durationS);
  const span = Math.max(0, end - spec.start_s);
  const rate = spec.process === 'on-off' ? spec.rate * spec.duty : spec.rate;
  return span * rate + (spec.process === 'constant' && span > 0 ? 1 : 0);
}
