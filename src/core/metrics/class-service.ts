/**
 * Service per policy class at the router (#14.3): what the engineer running Dynamo's policy-class
 * queues asks — "under this policy, what share of uncached-token service does each class get?".
 *
 * A request's *served uncached tokens* are its DRR cost basis at classification: prompt tokens minus
 * the router's `cached_tokens` (the best prefix overlap among the workers when it arrived), counted
 * when the router dispatches it to a worker — straight through or popped from its class queue.
 * `share` is a class's part of all served uncached tokens so far. `quantum_share` is what DRR
 * predicts for the classes that stayed backlogged: quantum / (sum of the quanta of those classes),
 * where a class counts as backlogged when its queue was non-empty for at least half of the time any
 * class queue was (null for the others, and before any queue formed). Rejections are the requests a
 * class's queue limits turned away (Dynamo answers HTTP 529); `shed` counts, apart from them, the
 * queued requests a pop dropped because their due time had passed (HTTP 429: admitted, then expired —
 * another cause and another answer, so not added to `rejected`). Queue wait is the time from arrival at
 * the router to dispatch (0 for a request that went straight through).
 *
 * `share` is over the whole run, and `quantum_share` holds only while the classes are backlogged
 * together: set side by side they disagree whenever one class queues alone for a while (a trace whose
 * uncached backlog drains alone at the end). What DRR divides is its charge, a popped request's cost
 * (max(1, uncached) from the arrival snapshot, the same tokens as `served_uncached_tokens` but for the
 * max), and it divides it only among the classes with requests queued. So the collector also sums,
 * per class, the cost charged by the pops made while at least one other class had requests queued
 * (`contended_cost`; its part of all of them is `contended_share`), and, for those same pops, what the
 * quanta predict: each such pop's cost split over the classes queued at that moment in proportion to
 * their quanta (`contended_quantum_share`, the prediction for exactly the intervals measured).
 */
import { FloatList } from './float-list';
import { nearestRank } from './percentile';
import { DownsampledSeries, type SeriesSnapshot } from './series';

/** One class in the run JSON's `classes` map. */
export interface ClassServiceRow {
  served_uncached_tokens: number;
  share: number;
  quantum_share: number | null;
  dispatched: number;
  rejected: number;
  p99_queue_wait_s: number | null;
  /** Extras (after the keys the issue fixes). */
  /** Queued requests shed because their due time passed (HTTP 429; not in `rejected`, which is 529). */
  shed: number;
  quantum: number;
  /**
   * The quantum's exact digits when it is above 2^53 (`quantum`, a JSON number, is then rounded):
   * Dynamo's quanta are unsigned 64-bit. Absent otherwise.
   */
  quantum_exact?: string;
  queued: number;
  /** Seconds the class's queue was non-empty, and whether that makes it backlogged (see above). */
  backlogged_s: number;
  backlogged: boolean;
  /** DRR charge (summed cost of the requests popped) over the whole run. */
  charged_cost: number;
  /** DRR charge of the pops made while another class also had requests queued (see above). */
  contended_cost: number;
  /** contended_cost / the sum over the classes; null before any contended pop. */
  contended_share: number | null;
  /** What the quanta predict for the same pops (see above); null before any contended pop. */
  contended_quantum_share: number | null;
}

/** Per-class service for the Class service view (a typed part of the cluster snapshot). */
export interface ClassServiceSnapshot {
  /** Classes in policy order (every profile's classes, each name once). */
  classes: (ClassServiceRow & { name: string })[];
  /** Seconds during which some class queue held a request. */
  saturated_s: number;
  /**
   * Per class over time: cumulative served uncached tokens, queue length, cumulative rejections
   * (529), cumulative requests shed past their due time (429), and the cumulative contended charge
   * and its quantum prediction (`contended_cost`, `contended_quantum_share` above, as sums).
   */
  series: {
    t: number[];
    served: number[][];
    queued: number[][];
    rejected: number[][];
    shed: number[][];
    contended: number[][];
    predicted: number[][];
  };
}

/** The series rows per class, in buffer order. */
const SERIES_KEYS = ['served', 'queued', 'rejected', 'shed', 'contended', 'predicted'] as const;

export class ClassServiceCollector {
  readonly names: readonly string[];
  readonly quanta: Float64Array;
  readonly served: Float64Array;
  readonly dispatched: Int32Array;
  readonly rejected: Int32Array;
  readonly shed: Int32Array;
  readonly queued: Int32Array;
  readonly charged: Float64Array;
  readonly contended: Float64Array;
  /** Per class, the contended charge its quantum predicts (see the header). */
  readonly predicted: Float64Array;
  private readonly backloggedS: Float64Array;
  private readonly waits: FloatList[];
  private readonly index = new Map<string, number>();
  private readonly series: DownsampledSeries;
  private readonly buf: Float64Array;
  private saturatedS = 0;
  private queuedTotal = 0;
  private lastT = 0;
  /** Class index → the exact digits of a quantum above 2^53. */
  private readonly exactQuanta = new Map<number, string>();

  constructor(
    classes: readonly { name: string; quantum: number; quantumBig?: bigint }[],
    seriesOpts: { capacity: number; initialDt: number },
  ) {
    const names: string[] = [];
    const quanta: number[] = [];
    for (const c of classes) {
      if (this.index.has(c.name)) continue;
      this.index.set(c.name, names.length);
      names.push(c.name);
      quanta.push(c.quantum);
      if (c.quantumBig !== undefined && c.quantumBig > BigInt(Number.MAX_SAFE_INTEGER))
        this.exactQuanta.set(names.length - 1, c.quantumBig.toString());
    }
    const n = names.length;
    this.names = names;
    this.quanta = Float64Array.from(quanta);
    this.served = new Float64Array(n);
    this.dispatched = new Int32Array(n);
    this.rejected = new Int32Array(n);
    this.shed = new Int32Array(n);
    this.queued = new Int32Array(n);
    this.charged = new Float64Array(n);
    this.contended = new Float64Array(n);
    this.predicted = new Float64Array(n);
    this.backloggedS = new Float64Array(n);
    this.waits = names.map(() => new FloatList(64));
    const rows: string[] = [];
    for (const k of SERIES_KEYS) for (let i = 0; i < n; i++) rows.push(`${k}:${i}`);
    this.series = new DownsampledSeries(rows, seriesOpts.capacity, seriesOpts.initialDt);
    this.buf = new Float64Array(SERIES_KEYS.length * n);
  }

  classIndex(name: string): number {
    return this.index.get(name) ?? -1;
  }

  /** Accumulate backlogged time up to t (call before any queue change). */
  private advance(t: number): void {
    const dt = t - this.lastT;
    if (dt > 0 && this.queuedTotal > 0) {
      this.saturatedS += dt;
      for (let i = 0; i < this.names.length; i++) if (this.queued[i] > 0) this.backloggedS[i] += dt;
    }
    if (t > this.lastT) this.lastT = t;
  }

  /** A request entered class `name`'s queue at t. */
  onQueued(name: string, t: number): void {
    const i = this.classIndex(name);
    if (i < 0) return;
    this.advance(t);
    this.queued[i]++;
    this.queuedTotal++;
  }

  /** A class's queue limit rejected a request at t. */
  onRejected(name: string, t: number): void {
    const i = this.classIndex(name);
    if (i < 0) return;
    this.advance(t);
    this.rejected[i]++;
  }

  /** A pop shed a queued request of class `name` at t: its due time had passed (HTTP 429). */
  onShed(name: string, t: number): void {
    const i = this.classIndex(name);
    if (i < 0) return;
    this.onPopped(name, t);
    this.shed[i]++;
  }

  /** DRR popped a request of class `name` from its queue at t. */
  onPopped(name: string, t: number): void {
    const i = this.classIndex(name);
    if (i < 0) return;
    this.advance(t);
    this.queued[i]--;
    this.queuedTotal--;
  }

  /**
   * DRR's pop of a request of class `name` charged `cost` (call right after `onPopped`: the queues are
   * then as the pop left them, so the other classes' as it found them). Counted as contended when
   * another class still has requests queued; the prediction splits the cost over the classes queued
   * at the pop (this one included) by their quanta.
   */
  onCharged(name: string, cost: number): void {
    const i = this.classIndex(name);
    if (i < 0) return;
    this.charged[i] += cost;
    const n = this.names.length;
    let others = 0;
    let qSum = this.quanta[i];
    for (let j = 0; j < n; j++)
      if (j !== i && this.queued[j] > 0) {
        others++;
        qSum += this.quanta[j];
      }
    if (others === 0 || !(qSum > 0)) return;
    this.contended[i] += cost;
    for (let j = 0; j < n; j++)
      if (j === i || this.queued[j] > 0) this.predicted[j] += (cost * this.quanta[j]) / qSum;
  }

  /**
   * The router dispatched a request of class `name` to a worker at t: `uncached` tokens (prompt −
   * cached_tokens), after `waitS` in the router.
   */
  onDispatched(name: string, t: number, uncached: number, waitS: number): void {
    const i = this.classIndex(name);
    if (i < 0) return;
    this.advance(t);
    this.served[i] += uncached;
    this.dispatched[i]++;
    this.waits[i].push(waitS);
  }

  /** Take a series sample at t if one is due (the engine calls it with its own samples). */
  sample(t: number): void {
    if (t < this.series.nextT) return;
    const n = this.names.length;
    for (let i = 0; i < n; i++) {
      this.buf[i] = this.served[i];
      this.buf[n + i] = this.queued[i];
      this.buf[2 * n + i] = this.rejected[i];
      this.buf[3 * n + i] = this.shed[i];
      this.buf[4 * n + i] = this.contended[i];
      this.buf[5 * n + i] = this.predicted[i];
    }
    this.series.sample(t, this.buf);
  }

  /** The rows at time t (the run JSON's `classes`). */
  rows(t: number): Record<string, ClassServiceRow> {
    this.advance(t);
    const n = this.names.length;
    let total = 0;
    for (let i = 0; i < n; i++) total += this.served[i];
    const backlogged = (i: number) => this.saturatedS > 0 && this.backloggedS[i] >= 0.5 * this.saturatedS;
    let qSum = 0;
    for (let i = 0; i < n; i++) if (backlogged(i)) qSum += this.quanta[i];
    let contendedTotal = 0;
    let predictedTotal = 0;
    for (let i = 0; i < n; i++) {
      contendedTotal += this.contended[i];
      predictedTotal += this.predicted[i];
    }
    const out: Record<string, ClassServiceRow> = {};
    for (let i = 0; i < n; i++) {
      out[this.names[i]] = {
        served_uncached_tokens: this.served[i],
        share: total > 0 ? this.served[i] / total : 0,
        quantum_share: backlogged(i) && qSum > 0 ? this.quanta[i] / qSum : null,
        dispatched: this.dispatched[i],
        rejected: this.rejected[i],
        p99_queue_wait_s: nearestRank(this.waits[i].sorted(), 99),
        shed: this.shed[i],
        quantum: this.quanta[i],
        ...(this.exactQuanta.has(i) ? { quantum_exact: this.exactQuanta.get(i) } : {}),
        queued: this.queued[i],
        backlogged_s: this.backloggedS[i],
        backlogged: backlogged(i),
        charged_cost: this.charged[i],
        contended_cost: this.contended[i],
        contended_share: contendedTotal > 0 ? this.contended[i] / contendedTotal : null,
        contended_quantum_share: predictedTotal > 0 ? this.predicted[i] / predictedTotal : null,
      };
    }
    return out;
  }

  snapshot(t: number): ClassServiceSnapshot {
    const rows = this.rows(t);
    const n = this.names.length;
    const s: SeriesSnapshot = this.series.snapshot();
    const row = (k: string, i: number) => s.rows[`${k}:${i}`] ?? [];
    return {
      classes: this.names.map((name) => ({ name, ...rows[name] })),
      saturated_s: this.saturatedS,
      series: {
        t: s.t,
        served: Array.from({ length: n }, (_, i) => row('served', i)),
        queued: Array.from({ length: n }, (_, i) => row('queued', i)),
        rejected: Array.from({ length: n }, (_, i) => row('rejected', i)),
        shed: Array.from({ length: n }, (_, i) => row('shed', i)),
        contended: Array.from({ length: n }, (_, i) => row('contended', i)),
        predicted: Array.from({ length: n }, (_, i) => row('predicted', i)),
      },
    };
  }
}
