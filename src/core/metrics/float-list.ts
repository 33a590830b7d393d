/** A growable list of doubles in one Float64Array (8 bytes a value, no boxing). */
export class FloatList {
  private buf: Float64Array;
  private n = 0;

  constructor(capacity = 64) {
    this.buf = new Float64Array(Math.max(4, capacity));
  }

  get length(): number {
    return this.n;
  }

  push(x: number): void {
    if (this.n === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.n++] = x;
  }

  private sortedCache: Float64Array | null = null;

  /** A sorted copy (ascending; numeric order, so deterministic); cached until the next push. */
  sorted(): Float64Array {
    if (this.sortedCache === null || this.sortedCache.length !== this.n)
      this.sortedCache = this.buf.slice(0, this.n).sort();
    return this.sortedCache;
  }

  sum(): number {
    let s = 0;
    for (let i = 0; i < this.n; i++) s += this.buf[i];
    return s;
  }
}
