/** A double-ended queue on a growable ring buffer: O(1) push/pop at both ends, no per-item allocation. */
export class Deque<T> {
  private buf: (T | undefined)[];
  private head = 0;
  private n = 0;

  constructor(capacity = 16) {
    this.buf = new Array(Math.max(4, capacity));
  }

  get size(): number {
    return this.n;
  }

  /** The item at position i from the front (0 = front). */
  at(i: number): T {
    return this.buf[(this.head + i) % this.buf.length] as T;
  }

  pushBack(x: T): void {
    if (this.n === this.buf.length) this.grow();
    this.buf[(this.head + this.n) % this.buf.length] = x;
    this.n++;
  }

  pushFront(x: T): void {
    if (this.n === this.buf.length) this.grow();
    this.head = (this.head - 1 + this.buf.length) % this.buf.length;
    this.buf[this.head] = x;
    this.n++;
  }

  popFront(): T | undefined {
    if (this.n === 0) return undefined;
    const x = this.buf[this.head];
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) % this.buf.length;
    this.n--;
    return x;
  }

  /** Remove the item at position i (O(n)); returns it. */
  removeAt(i: number): T {
    const x = this.at(i);
    const len = this.buf.length;
    for (let k = i; k < this.n - 1; k++)
      this.buf[(this.head + k) % len] = this.buf[(this.head + k + 1) % len];
    this.buf[(this.head + this.n - 1) % len] = undefined;
    this.n--;
    return x;
  }

  /** The first `limit` items, front first. */
  toArray(limit = this.n): T[] {
    const out: T[] = [];
    const m = Math.min(limit, this.n);
    for (let i = 0; i < m; i++) out.push(this.at(i));
    return out;
  }

  private grow(): void {
    const next = new Array<T | undefined>(this.buf.length * 2);
    for (let i = 0; i < this.n; i++) next[i] = this.at(i);
    this.buf = next;
    this.head = 0;
  }
}
