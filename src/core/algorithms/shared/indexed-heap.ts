/**
 * A binary min-heap whose items remember their own position, so any item can be removed or re-keyed
 * in O(log n), and the first k items in order can be listed in O(k log k) without disturbing the
 * heap. `before` must be a strict total order (no two items tie), so every order is deterministic.
 *
 * The position lives in the item under a slot the caller picks (`pos`: a getter/setter pair given as
 * an object with methods, not closures, so deep copies of the engine stay consistent).
 */
export interface HeapSlot<T> {
  /** Strictly before (a total order over the items that can be in the heap together). */
  before(a: T, b: T): boolean;
  /** The item's position in this heap (-1 when it is not in it). */
  get(item: T): number;
  set(item: T, at: number): void;
}

export class IndexedHeap<T> {
  readonly items: T[] = [];

  constructor(private readonly slot: HeapSlot<T>) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  has(item: T): boolean {
    return this.slot.get(item) >= 0;
  }

  push(item: T): void {
    const at = this.items.length;
    this.items.push(item);
    this.slot.set(item, at);
    this.up(at);
  }

  pop(): T | undefined {
    const top = this.items[0];
    if (top !== undefined) this.remove(top);
    return top;
  }

  remove(item: T): void {
    const at = this.slot.get(item);
    if (at < 0) return;
    this.slot.set(item, -1);
    const last = this.items.pop() as T;
    if (at === this.items.length) return;
    this.items[at] = last;
    this.slot.set(last, at);
    this.fix(at);
  }

  /** The item's key changed: move it to its place. */
  update(item: T): void {
    const at = this.slot.get(item);
    if (at >= 0) this.fix(at);
  }

  /** The first `limit` items in order, O(limit log limit): a best-first walk of the heap's tree. */
  first(limit: number): T[] {
    const h = this.items;
    const out: T[] = [];
    if (h.length === 0 || limit <= 0) return out;
    // a small heap of positions in `h`, ordered by their items
    const open: number[] = [0];
    const before = (x: number, y: number) => this.slot.before(h[x], h[y]);
    while (open.length > 0 && out.length < limit) {
      const at = open[0];
      const last = open.pop() as number;
      if (open.length > 0) {
        open[0] = last;
        siftDown(open, 0, before);
      }
      out.push(h[at]);
      for (const c of [2 * at + 1, 2 * at + 2])
        if (c < h.length) {
          open.push(c);
          siftUp(open, open.length - 1, before);
        }
    }
    return out;
  }

  private fix(at: number): void {
    if (at > 0 && this.slot.before(this.items[at], this.items[(at - 1) >> 1])) this.up(at);
    else this.down(at);
  }

  private up(at: number): void {
    const h = this.items;
    const x = h[at];
    while (at > 0) {
      const p = (at - 1) >> 1;
      if (!this.slot.before(x, h[p])) break;
      h[at] = h[p];
      this.slot.set(h[at], at);
      at = p;
    }
    h[at] = x;
    this.slot.set(x, at);
  }

  private down(at: number): void {
    const h = this.items;
    const n = h.length;
    const x = h[at];
    for (;;) {
      const l = 2 * at + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.slot.before(h[r], h[l]) ? r : l;
      if (!this.slot.before(h[c], x)) break;
      h[at] = h[c];
      this.slot.set(h[at], at);
      at = c;
    }
    h[at] = x;
    this.slot.set(x, at);
  }
}

function siftUp(a: number[], i: number, before: (x: number, y: number) => boolean): void {
  const x = a[i];
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!before(x, a[p])) break;
    a[i] = a[p];
    i = p;
  }
  a[i] = x;
}

function siftDown(a: number[], i: number, before: (x: number, y: number) => boolean): void {
  const n = a.length;
  const x = a[i];
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    const r = l + 1;
    const c = r < n && before(a[r], a[l]) ? r : l;
    if (!before(a[c], x)) break;
    a[i] = a[c];
    i = c;
  }
  a[i] = x;
}
