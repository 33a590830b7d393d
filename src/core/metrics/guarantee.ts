/**
 * "Guarantees live": the active algorithm's fairness bound next to the measured service gap of every
 * pair of backlogged clients, as the playground's Guarantees view draws it.
 *
 * The monitor owns the pair tracker (./pair-gaps.ts), keeps L_input (the longest prompt admitted so
 * far) and recomputes the bound when it grows (./theorem-bound.ts), and samples every pair's gap into
 * a downsampled series at the same moments as the engine's other series. `snapshot()` returns the
 * `guarantee` object of the SimSnapshot: plain JSON, bounded in size.
 */
import { type GapViolation, PairGaps } from './pair-gaps';
import { DownsampledSeries } from './series';
import {
  BROKEN_WARNING,
  type BoundSetup,
  type BoundValue,
  chooseTheorem,
  type Formula,
  type GuaranteeAlgorithm,
  type TheoremChoice,
  theoremBound,
} from './theorem-bound';

/** Pairs listed in a snapshot (largest gap first); the rest are only counted. */
export const MAX_PAIRS = 32;
/** Pairs whose gap series a snapshot carries (largest gap first). */
export const SERIES_PAIRS = 8;

export interface GuaranteePair {
  a: string;
  b: string;
  /** Largest |W_a − W_b| over every interval in which both were continuously backlogged so far. */
  max_gap: number;
  /** When max_gap was reached (null: never backlogged together). */
  max_gap_at: number | null;
  /** Largest gap over intervals ending now in the open joint backlog; null when not both backlogged. */
  current_gap: number | null;
  /** First time the gap exceeded the bound (null: never). */
  violated_at: number | null;
}

export interface GuaranteeViolationView {
  t: number;
  a: string;
  b: string;
  gap: number;
  bound: number;
}

export interface GuaranteeSnapshot {
  /** The algorithm whose theorem applies; null when none does (gaps are still measured). */
  algorithm: GuaranteeAlgorithm | null;
  /** The statement used ('DLPM Theorem 4.1', ...; 'none'). */
  theorem: string;
  /** Service units; null without a theorem. */
  bound: number | null;
  bound_label: string;
  /**
   * The bound's formula with the numbers filled in (or why there is none), as text and numbers: the
   * view prints the numbers in the page's format (`formulaText`).
   */
  formula: Formula;
  /** Why this theorem (or none) applies to the scenario. */
  reason: string;
  /** The run uses the deliberately broken DLPM (a quantum per request). */
  broken: boolean;
  /** The warning that goes with the broken variant; null otherwise. */
  warning: string | null;
  inputs: {
    L_input: number;
    M: number;
    U: number | null;
    quantum: number;
    worker_quantum: number | null;
    workers: number;
    weights: { input: number; output: number };
  };
  /** Pairs, largest max_gap first (ties: client order), at most MAX_PAIRS. */
  pairs: GuaranteePair[];
  /** Number of client pairs in all. */
  pair_count: number;
  /** The pair with the largest gap so far (null while no pair was backlogged together). */
  worst: GuaranteePair | null;
  /** Bound crossings, first ones first (at most MAX_VIOLATIONS); `violation_count` counts them all. */
  violations: GuaranteeViolationView[];
  violation_count: number;
  /**
   * Over time, for the first SERIES_PAIRS pairs of `pairs`: per sample, the largest current gap since
   * the previous sample (null: not backlogged together then), keyed "a|b"; `bound` the bound in force.
   */
  series: { t: number[]; rows: Record<string, (number | null)[]>; bound: (number | null)[]; dt: number };
}

/** Stand-in setup when the collector is built without one (tests): no theorem. */
const NO_SETUP: BoundSetup = {
  policy: 'unknown',
  routing: 'unknown',
  workers: 1,
  quantum: 0,
  workerQuantum: null,
  weights: { input: 1, output: 2 },
  kvTokens: 0,
  quantumPerRequest: false,
};

export class GuaranteeMonitor {
  readonly gaps: PairGaps;
  readonly setup: BoundSetup;
  readonly choice: TheoremChoice;
  private readonly clients: readonly string[];
  private readonly pairA: Int32Array;
  private readonly pairB: Int32Array;
  private readonly series: DownsampledSeries;
  private readonly buf: Float64Array;
  private lInput = 0;
  private value: BoundValue;

  constructor(
    clients: readonly string[],
    service: Float64Array,
    setup: BoundSetup | null,
    seriesOpts: { capacity: number; initialDt: number } = { capacity: 512, initialDt: 0.05 },
  ) {
    this.clients = clients;
    this.gaps = new PairGaps(service);
    this.setup = setup ?? NO_SETUP;
    this.choice = setup
      ? chooseTheorem(setup)
      : { ...chooseTheorem(NO_SETUP), reason: 'no scenario: gaps are measured, not bounded' };
    const n = clients.length;
    const pairs = (n * (n - 1)) / 2;
    this.pairA = new Int32Array(pairs);
    this.pairB = new Int32Array(pairs);
    const names: string[] = [];
    let k = 0;
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++) {
        this.pairA[k] = a;
        this.pairB[k] = b;
        names.push(`${clients[a]}|${clients[b]}`);
        k++;
      }
    names.push('bound');
    this.series = new DownsampledSeries(names, seriesOpts.capacity, seriesOpts.initialDt, true);
    this.buf = new Float64Array(pairs + 1);
    this.value = theoremBound(this.setup, this.choice, 0);
    this.gaps.bound = this.value.bound ?? Number.POSITIVE_INFINITY;
  }

  get bound(): number | null {
    return this.value.bound;
  }

  /** The bound's formula with the current numbers (or why there is no bound), as text and numbers. */
  get formula(): Formula {
    return this.value.formula;
  }

  /** A request with `promptTokens` input tokens was admitted (L_input may grow, and the bound with it). */
  notePrompt(promptTokens: number): void {
    if (promptTokens <= this.lInput) return;
    this.lInput = promptTokens;
    this.value = theoremBound(this.setup, this.choice, promptTokens);
    this.gaps.bound = this.value.bound ?? Number.POSITIVE_INFINITY;
  }

  /** Record a sample of every pair's gap if one is due at `t` (same rule as the engine's series). */
  sample(t: number): void {
    if (t < this.series.nextT) return;
    this.gaps.takeSample(this.buf, 0);
    this.buf[this.buf.length - 1] = this.value.bound ?? Number.NaN;
    this.series.sample(t, this.buf);
  }

  private pairView(k: number): GuaranteePair {
    const a = this.pairA[k];
    const b = this.pairB[k];
    const g = this.gaps;
    const p = a * g.n + b;
    const at = g.pairMaxAt[p];
    const v = g.violatedAt[p];
    return {
      a: this.clients[a],
      b: this.clients[b],
      max_gap: g.pairMax[p],
      max_gap_at: Number.isNaN(at) ? null : at,
      current_gap: g.currentGap(a, b),
      violated_at: Number.isNaN(v) ? null : v,
    };
  }

  private violationView(v: GapViolation): GuaranteeViolationView {
    return { t: v.t, a: this.clients[v.a], b: this.clients[v.b], gap: v.gap, bound: v.bound };
  }

  snapshot(): GuaranteeSnapshot {
    const g = this.gaps;
    const n = g.n;
    const count = this.pairA.length;
    // pairs by largest gap first; ties keep client order (k), a total order
    const order = Array.from({ length: count }, (_, k) => k);
    const maxOf = (k: number) => g.pairMax[this.pairA[k] * n + this.pairB[k]];
    order.sort((x, y) => maxOf(y) - maxOf(x) || x - y);
    const shown = order.slice(0, MAX_PAIRS);
    const pairs = shown.map((k) => this.pairView(k));
    const worst = pairs.length > 0 && pairs[0].max_gap_at !== null ? pairs[0] : null;
    const rows: Record<string, (number | null)[]> = {};
    for (const k of shown.slice(0, SERIES_PAIRS))
      rows[`${this.clients[this.pairA[k]]}|${this.clients[this.pairB[k]]}`] = nullIfNaN(this.series.rowAt(k));
    const s = this.setup;
    return {
      algorithm: this.choice.algorithm,
      theorem: this.choice.theorem,
      bound: this.value.bound,
      bound_label: this.value.label,
      formula: this.value.formula,
      reason: this.choice.reason,
      broken: this.choice.broken,
      warning: this.choice.broken ? BROKEN_WARNING : null,
      inputs: {
        L_input: this.value.L_input,
        M: this.value.M,
        U: this.value.U,
        quantum: s.quantum,
        worker_quantum: this.choice.algorithm === 'doubleq' ? s.workerQuantum : null,
        workers: s.workers,
        weights: { input: s.weights.input, output: s.weights.output },
      },
      pairs,
      pair_count: count,
      worst,
      violations: g.violations.map((v) => this.violationView(v)),
      violation_count: g.violationCount,
      series: {
        // microsecond resolution is plenty for a chart and halves the frame's bytes
        t: this.series.times().map((x) => Math.round(x * 1e6) / 1e6),
        rows,
        bound: nullIfNaN(this.series.rowAt(count)),
        dt: this.series.currentDt,
      },
    };
  }
}

/** NaN (no value) as null, so the snapshot stays plain JSON; values to 1e-6 (service units). */
function nullIfNaN(xs: number[]): (number | null)[] {
  return xs.map((x) => (Number.isNaN(x) ? null : Math.round(x * 1e6) / 1e6));
}
