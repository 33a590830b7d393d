/**
 * A deliberately tiny engine: Poisson arrivals to one first-come-first-served server. It proves the
 * plumbing (core → worker → UI) and stays as the fallback when nothing else is loaded.
 */
import { Rng } from './prng';

export interface ToyDecision {
  seq: number;
  t: number;
  kind: 'arrive' | 'complete';
  request: number;
  summary: string;
}

export interface ToySnapshot {
  kind: 'toy';
  sim_time_s: number;
  decisions: number;
  queued: number;
  completed: number;
}

export class ToyEngine {
  private rng: Rng;
  private now = 0;
  private seq = 0;
  private nextArrival: number;
  private busyUntil: number | null = null;
  private queue: number[] = [];
  private nextId = 0;
  private completed = 0;

  constructor(
    private readonly seed: number,
    private readonly rate = 2,
    private readonly serviceMean = 0.4,
  ) {
    this.rng = new Rng(seed);
    this.nextArrival = this.rng.exponential(1 / rate);
  }

  reset(): void {
    Object.assign(this, new ToyEngine(this.seed, this.rate, this.serviceMean));
  }

  get time(): number {
    return this.now;
  }

  /** Advance through exactly one decision (an arrival or a completion). */
  step(): ToyDecision {
    const completes = this.busyUntil !== null && this.busyUntil <= this.nextArrival;
    const seq = this.seq++;
    if (completes) {
      this.now = this.busyUntil as number;
      const id = this.queue.shift() as number;
      this.completed++;
      this.busyUntil = this.queue.length > 0 ? this.now + this.rng.exponential(this.serviceMean) : null;
      return { seq, t: this.now, kind: 'complete', request: id, summary: `request ${id} completes` };
    }
    this.now = this.nextArrival;
    const id = this.nextId++;
    this.queue.push(id);
    if (this.busyUntil === null) this.busyUntil = this.now + this.rng.exponential(this.serviceMean);
    this.nextArrival = this.now + this.rng.exponential(1 / this.rate);
    return { seq, t: this.now, kind: 'arrive', request: id, summary: `request ${id} arrives` };
  }

  runUntil(t: number): void {
    while (Math.min(this.nextArrival, this.busyUntil ?? Number.POSITIVE_INFINITY) <= t) this.step();
    this.now = Math.max(this.now, t);
  }

  snapshot(): ToySnapshot {
    return {
      kind: 'toy',
      sim_time_s: this.now,
      decisions: this.seq,
      queued: this.queue.length,
      completed: this.completed,
    };
  }
}
