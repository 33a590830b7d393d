/**
 * SUPERSEDED by ./pair-gaps.ts (the engine no longer uses this class): it measures only intervals that
 * start when a pair's joint backlog starts, which under-reports the theorems' quantity (every
 * sub-interval counts; spec/cli.md). Kept because tests/unit/sim/metrics.test.ts still pins it; remove
 * both together.
 *
 * The largest service gap between two continuously backlogged clients, the quantity the DLPM theorem
 * bounds: over every pair (f, g) and every interval in which both stay backlogged, |W_f − W_g| where
 * W counts service received since the later of the two became backlogged.
 *
 * For a pair that is backlogged together, the gap at any moment is (S_f − S_g) − (S_f − S_g at the
 * start of the joint interval), with S the cumulative service. So one number per pair is enough: the
 * offset taken when the pair's joint interval starts. Service changes are batched: clients touched
 * since the last `flush()` are checked against every other backlogged client.
 */
export class BacklogGap {
  readonly n: number;
  private readonly service: Float64Array;
  private readonly offset: Float64Array;
  private readonly backlogged: Uint8Array;
  private readonly dirty: Uint8Array;
  private readonly dirtyList: number[] = [];
  /** Largest gap seen so far, and the pair and time it happened. */
  max = 0;
  maxPair: [number, number] | null = null;
  maxAt = 0;

  constructor(service: Float64Array) {
    this.n = service.length;
    this.service = service;
    this.offset = new Float64Array(this.n * this.n);
    this.backlogged = new Uint8Array(this.n);
    this.dirty = new Uint8Array(this.n);
  }

  isBacklogged(c: number): boolean {
    return this.backlogged[c] === 1;
  }

  /** Client `c`'s cumulative service just changed (call after adding to the shared service array). */
  touch(c: number): void {
    if (this.dirty[c] === 0) {
      this.dirty[c] = 1;
      this.dirtyList.push(c);
    }
  }

  /** Check every pair involving a touched client. */
  flush(t: number): void {
    const list = this.dirtyList;
    if (list.length === 0) return;
    const n = this.n;
    const s = this.service;
    for (let k = 0; k < list.length; k++) {
      const f = list[k];
      this.dirty[f] = 0;
      if (this.backlogged[f] === 0) continue;
      for (let g = 0; g < n; g++) {
        if (g === f || this.backlogged[g] === 0) continue;
        const gap = Math.abs(s[f] - s[g] - this.offset[f * n + g]);
        if (gap > this.max) {
          this.max = gap;
          this.maxPair = f < g ? [f, g] : [g, f];
          this.maxAt = t;
        }
      }
    }
    list.length = 0;
  }

  /** Client `c` becomes backlogged or stops being backlogged at `t`. */
  setBacklogged(c: number, on: boolean, t: number): void {
    if ((this.backlogged[c] === 1) === on) return;
    this.flush(t);
    const n = this.n;
    const s = this.service;
    if (on) {
      for (let g = 0; g < n; g++) {
        if (g === c || this.backlogged[g] === 0) continue;
        this.offset[c * n + g] = s[c] - s[g];
        this.offset[g * n + c] = s[g] - s[c];
      }
    }
    this.backlogged[c] = on ? 1 : 0;
  }
}
