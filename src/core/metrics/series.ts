/**
 * Time series at bounded memory. Samples are taken every `dt` simulated seconds; when `capacity`
 * points are stored, every other point is dropped and `dt` doubles, so a run of any length keeps
 * between capacity/2 and capacity points, evenly spaced.
 *
 * With `peaks` set, each value is a peak over the time since the previous sample (the Guarantees
 * view's gaps): halving then merges neighbours (i, i + 1) into one point at t_{i+1} holding the
 * larger value (NaN = no value), so a spike survives any amount of downsampling.
 */
export interface SeriesSnapshot {
  /** Sample times, seconds. */
  t: number[];
  /** Named rows, each aligned with `t`. */
  rows: Record<string, number[]>;
  dt: number;
}

export class DownsampledSeries {
  private readonly names: string[];
  private readonly t: number[] = [];
  private readonly rows: number[][];
  private dt: number;
  /** Next time a sample is due. */
  nextT = 0;

  constructor(
    names: readonly string[],
    private readonly capacity = 512,
    initialDt = 0.05,
    private readonly peaks = false,
  ) {
    this.names = [...names];
    this.rows = this.names.map(() => []);
    this.dt = initialDt;
  }

  get length(): number {
    return this.t.length;
  }

  /** Record `values` (one per name) at time `t` if a sample is due. */
  sample(t: number, values: ArrayLike<number>): void {
    if (t < this.nextT) return;
    if (this.t.length >= this.capacity) this.halve();
    this.t.push(t);
    for (let i = 0; i < this.rows.length; i++) this.rows[i].push(values[i]);
    this.nextT = t + this.dt;
  }

  private halve(): void {
    if (this.peaks) {
      this.mergePeaks();
      this.dt *= 2;
      return;
    }
    const keep = (xs: number[]) => {
      let k = 0;
      for (let i = 0; i < xs.length; i += 2) xs[k++] = xs[i];
      xs.length = k;
    };
    keep(this.t);
    for (const r of this.rows) keep(r);
    this.dt *= 2;
  }

  /** Pairs (i, i + 1) become one point at t_{i+1} with the larger value; an odd last point stays. */
  private mergePeaks(): void {
    const n = this.t.length;
    let k = 0;
    for (let i = 0; i < n; i += 2) {
      const j = i + 1 < n ? i + 1 : i;
      this.t[k] = this.t[j];
      for (const r of this.rows) {
        const a = r[i];
        const b = r[j];
        r[k] = Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b);
      }
      k++;
    }
    this.t.length = k;
    for (const r of this.rows) r.length = k;
  }

  /** Current spacing of samples, seconds. */
  get currentDt(): number {
    return this.dt;
  }

  /** A copy of the sample times. */
  times(): number[] {
    return this.t.slice();
  }

  /** A copy of row `i` (in constructor name order). */
  rowAt(i: number): number[] {
    return this.rows[i].slice();
  }

  snapshot(): SeriesSnapshot {
    const rows: Record<string, number[]> = {};
    this.names.forEach((n, i) => {
      rows[n] = this.rows[i].slice();
    });
    return { t: this.t.slice(), rows, dt: this.dt };
  }
}
