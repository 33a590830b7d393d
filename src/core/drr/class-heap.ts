/**
 * A binary max-heap over precomputed order keys (see order.ts): the pending requests of one class.
 * Array-backed, no allocation per push/pop beyond the array's own growth.
 */
import { goesFirst, type OrderKey } from './order';

export class ClassHeap<E extends OrderKey> {
  private items: E[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): E | undefined {
    return this.items[0];
  }

  push(item: E): void {
    const a = this.items;
    let i = a.length;
    a.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = a[parent];
      if (!goesFirst(item, p)) break;
      a[i] = p;
      i = parent;
    }
    a[i] = item;
  }

  pop(): E | undefined {
    const a = this.items;
    const n = a.length;
    if (n === 0) return undefined;
    const top = a[0];
    const last = a.pop() as E;
    if (n > 1) {
      const m = n - 1;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= m) break;
        const r = l + 1;
        let c = l;
        if (r < m && goesFirst(a[r], a[l])) c = r;
        if (!goesFirst(a[c], last)) break;
        a[i] = a[c];
        i = c;
      }
      a[i] = last;
    }
    return top;
  }

  /** All items in the order they would leave (a sorted copy; for views, not the hot path). */
  ordered(): E[] {
    return [...this.items].sort((x, y) => (goesFirst(x, y) ? -1 : goesFirst(y, x) ? 1 : 0));
  }
}
