/**
 * Shared ordering helpers for the worker-local policies: the deterministic tie-break every policy
 * falls back on, and a binary heap of waiting requests under a total order.
 */
import type { SimRequest } from '../../sim/request';

/** Earlier arrival first, then the smaller request id (plain string order): a total order. */
export function arrivalThenId(a: SimRequest, b: SimRequest): number {
  if (a.arrivalT !== b.arrivalT) return a.arrivalT < b.arrivalT ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Smaller `policyKey` first, then `arrivalThenId`. */
export function keyThenArrival(a: SimRequest, b: SimRequest): number {
  if (a.policyKey !== b.policyKey) return a.policyKey < b.policyKey ? -1 : 1;
  return arrivalThenId(a, b);
}

/**
 * A binary min-heap of requests under `compare` (which must be a total order, so the pop order is
 * deterministic). O(log n) push and pop.
 */
export class RequestHeap {
  private readonly items: SimRequest[] = [];

  constructor(private readonly compare: (a: SimRequest, b: SimRequest) => number) {}

  get size(): number {
    return this.items.length;
  }

  peek(): SimRequest | undefined {
    return this.items[0];
  }

  push(r: SimRequest): void {
    const h = this.items;
    let i = h.length;
    h.push(r);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.compare(r, h[p]) >= 0) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = r;
  }

  pop(): SimRequest | undefined {
    const h = this.items;
    const n = h.length;
    if (n === 0) return undefined;
    const top = h[0];
    const last = h.pop() as SimRequest;
    if (n > 1) {
      const size = n - 1;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        const c = r < size && this.compare(h[r], h[l]) < 0 ? r : l;
        if (this.compare(h[c], last) >= 0) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    return top;
  }

  /** The first `limit` requests in pop order (a sorted copy: for snapshots, not the hot path). */
  ordered(limit: number): SimRequest[] {
    return [...this.items].sort(this.compare).slice(0, limit);
  }
}
