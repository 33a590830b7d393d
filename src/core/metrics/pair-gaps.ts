/**
 * Service gaps between pairs of continuously backlogged clients, the quantity the fairness theorems
 * bound (DLPM 4.1, VTC, DoubleQ 5.1): for clients a and b and any interval [t1, t2] during which both
 * stay backlogged, |W_a(t1, t2) − W_b(t1, t2)|, with W the service received in the interval.
 *
 * With S the cumulative service and D = S_a − S_b, that gap is |D(t2) − D(t1)|. Over all sub-intervals
 * of one joint backlog it is largest at hi − lo, the range D has swept since the pair's joint interval
 * opened, so each pair needs only two numbers per open interval. (The tests' independent harness,
 * tests/unit/policies/harness.ts, measures the same way.)
 *
 * Per pair this keeps:
 *   - maxGap: the largest hi − lo over every joint interval so far (and when it was reached);
 *   - the current gap: the largest |W_a − W_b| over intervals that end now inside the current joint
 *     interval, max(hi − D, D − lo); none when the two are not both backlogged;
 *   - a peak of the current gap since the last `takeSample`, so a downsampled series never hides a spike;
 *   - violations: the first moment in each joint interval at which the gap went above `bound`.
 *
 * Cost: service changes are batched; `flush` checks every client touched since the previous flush
 * against the backlogged clients (O(touched · clients)), and a client joining or leaving the backlog
 * opens or closes its pairs (O(clients)). Nothing is done per pair on events that change neither.
 * Memory: a few n × n arrays (n ≤ the scenario's client limit).
 */

/** One crossing of the bound: pair (a, b) by client index, a < b. */
export interface GapViolation {
  t: number;
  a: number;
  b: number;
  gap: number;
  bound: number;
}

/** Violations kept in full; later ones are only counted. */
export const MAX_VIOLATIONS = 100;

export class PairGaps {
  readonly n: number;
  private readonly service: Float64Array;
  private readonly backlogged: Uint8Array;
  private readonly dirty: Uint8Array;
  /** Clients touched since the last flush: the first `dirtyCount` entries (no array resizing per step). */
  private dirtyList: Int32Array;
  private dirtyCount = 0;
  /** Per pair, at [a · n + b] with a < b: the range of D = S_a − S_b in the open joint interval. */
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  /** Largest gap of the pair over all its joint intervals, and when it was reached (NaN: never). */
  readonly pairMax: Float64Array;
  readonly pairMaxAt: Float64Array;
  /** First time the pair's gap exceeded the bound (NaN: never). */
  readonly violatedAt: Float64Array;
  /** 1 while the pair's open joint interval has already crossed the bound. */
  private readonly over: Uint8Array;
  /** Largest current gap since the last sample (NaN: not backlogged together since then). */
  private readonly peak: Float64Array;
  /** The bound in force (service units); +Infinity when no theorem applies. */
  bound = Number.POSITIVE_INFINITY;
  /** Largest gap seen so far over all pairs, the pair and the time. */
  max = 0;
  maxPair: [number, number] | null = null;
  maxAt = 0;
  /** The first MAX_VIOLATIONS violations, in time order, and how many there were in all. */
  readonly violations: GapViolation[] = [];
  violationCount = 0;

  constructor(service: Float64Array) {
    const n = service.length;
    this.n = n;
    this.service = service;
    this.backlogged = new Uint8Array(n);
    this.dirty = new Uint8Array(n);
    this.dirtyList = new Int32Array(n);
    this.lo = new Float64Array(n * n);
    this.hi = new Float64Array(n * n);
    this.pairMax = new Float64Array(n * n);
    this.pairMaxAt = new Float64Array(n * n).fill(Number.NaN);
    this.violatedAt = new Float64Array(n * n).fill(Number.NaN);
    this.over = new Uint8Array(n * n);
    this.peak = new Float64Array(n * n).fill(Number.NaN);
  }

  /** How many clients are backlogged now (with fewer than two, `flush` reads no service value). */
  backloggedCount = 0;

  isBacklogged(c: number): boolean {
    return this.backlogged[c] === 1;
  }

  /** Client `c`'s cumulative service just changed (call after adding to the shared service array). */
  touch(c: number): void {
    if (this.dirty[c] === 0) {
      this.dirty[c] = 1;
      this.dirtyList[this.dirtyCount++] = c;
    }
  }

  /** Fold the service changes since the last flush into every pair of backlogged clients they touch. */
  flush(t: number): void {
    const count = this.dirtyCount;
    if (count === 0) return;
    const list = this.dirtyList;
    const n = this.n;
    const bl = this.backlogged;
    for (let k = 0; k < count; k++) {
      const f = list[k];
      this.dirty[f] = 0;
      if (bl[f] === 0) continue;
      for (let g = 0; g < n; g++) {
        if (g === f || bl[g] === 0) continue;
        if (f < g) this.update(f, g, t);
        else this.update(g, f, t);
      }
    }
    this.dirtyCount = 0;
  }

  private update(a: number, b: number, t: number): void {
    const p = a * this.n + b;
    const d = this.service[a] - this.service[b];
    if (d < this.lo[p]) this.lo[p] = d;
    else if (d > this.hi[p]) this.hi[p] = d;
    const lo = this.lo[p];
    const hi = this.hi[p];
    const cur = Math.max(hi - d, d - lo);
    if (!(cur <= this.peak[p])) this.peak[p] = cur; // NaN-safe: NaN counts as "no peak yet"
    const gap = hi - lo;
    if (gap > this.pairMax[p]) {
      this.pairMax[p] = gap;
      this.pairMaxAt[p] = t;
      if (gap > this.max) {
        this.max = gap;
        this.maxPair = [a, b];
        this.maxAt = t;
      }
    }
    if (gap > this.bound && this.over[p] === 0) {
      this.over[p] = 1;
      if (Number.isNaN(this.violatedAt[p])) this.violatedAt[p] = t;
      this.violationCount++;
      if (this.violations.length < MAX_VIOLATIONS) this.violations.push({ t, a, b, gap, bound: this.bound });
    }
  }

  /** Client `c` joins or leaves the backlog at `t`: opens (or closes) its joint intervals. */
  setBacklogged(c: number, on: boolean, t: number): void {
    if ((this.backlogged[c] === 1) === on) return;
    this.flush(t);
    if (on) {
      const n = this.n;
      const s = this.service;
      for (let g = 0; g < n; g++) {
        if (g === c || this.backlogged[g] === 0) continue;
        const a = Math.min(c, g);
        const b = Math.max(c, g);
        const p = a * n + b;
        const d = s[a] - s[b];
        this.lo[p] = d;
        this.hi[p] = d;
        this.over[p] = 0;
        if (!(this.peak[p] >= 0)) this.peak[p] = 0;
      }
    }
    this.backlogged[c] = on ? 1 : 0;
    this.backloggedCount += on ? 1 : -1;
  }

  /** Both clients are backlogged now (a joint interval is open). */
  together(a: number, b: number): boolean {
    return a !== b && this.backlogged[a] === 1 && this.backlogged[b] === 1;
  }

  /**
   * The largest |W_a − W_b| over intervals that end now inside the open joint interval; null when the
   * two are not both backlogged. Service changes not yet flushed are not included.
   */
  currentGap(a: number, b: number): number | null {
    if (!this.together(a, b)) return null;
    const x = Math.min(a, b);
    const y = Math.max(a, b);
    const p = x * this.n + y;
    const d = this.service[x] - this.service[y];
    return Math.max(this.hi[p] - d, d - this.lo[p]);
  }

  /** Largest gap of the pair so far (0 when never backlogged together). */
  maxGapOf(a: number, b: number): number {
    return a < b ? this.pairMax[a * this.n + b] : this.pairMax[b * this.n + a];
  }

  /**
   * One value per pair (a < b, row-major order) into `out`: the peak current gap since the previous
   * sample, NaN when the pair was not backlogged together at any moment since. Resets the peaks.
   */
  takeSample(out: Float64Array, offset = 0): void {
    const n = this.n;
    let k = offset;
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++) {
        const p = a * n + b;
        out[k++] = this.peak[p];
        this.peak[p] = this.together(a, b) ? (this.currentGap(a, b) as number) : Number.NaN;
      }
  }
}
