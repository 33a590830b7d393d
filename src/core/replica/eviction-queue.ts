/**
 * The LRU order of a radix cache's evictable leaves, with lazy deletion.
 *
 * Almost every leaf becomes evictable "now" (inserted, released by its last request, or touched), and
 * simulated time never goes back, so those entries arrive in time order: a ring buffer keeps them in
 * O(1) per push and pop. The one exception is a parent that becomes a leaf during eviction: its last
 * use lies in the past, so it goes to a small binary heap instead. `pop` takes the older of the two
 * heads (ties: lower node id). An entry carries the node's version at push time; the cache skips
 * entries whose node has changed since (a newer entry exists or the node is no longer evictable).
 */

export interface Evictable {
  readonly id: number;
  lastAccess: number;
  version: number;
}

export class EvictionQueue<N extends Evictable> {
  // ring buffer of in-order entries
  private nodes: (N | undefined)[] = new Array(64);
  private versions = new Int32Array(64);
  private times = new Float64Array(64);
  private head = 0;
  private n = 0;
  // heap of out-of-order entries
  private heap: { t: number; node: N; version: number }[] = [];

  get size(): number {
    return this.n + this.heap.length;
  }

  push(node: N): void {
    const t = node.lastAccess;
    if (this.n > 0 && t < this.times[(this.head + this.n - 1) % this.times.length]) {
      this.heapPush({ t, node, version: node.version });
      return;
    }
    if (this.n === this.times.length) this.grow();
    const i = (this.head + this.n) % this.times.length;
    this.nodes[i] = node;
    this.versions[i] = node.version;
    this.times[i] = t;
    this.n++;
  }

  /** The oldest entry: its node and the version it was pushed with; null when empty. */
  pop(out: { node: N | null; version: number }): boolean {
    const h = this.heap;
    let fromRing = this.n > 0;
    if (fromRing && h.length > 0) {
      const rt = this.times[this.head];
      const top = h[0];
      fromRing = rt < top.t || (rt === top.t && this.nodes[this.head]!.id < top.node.id);
    }
    if (fromRing) {
      out.node = this.nodes[this.head]!;
      out.version = this.versions[this.head];
      this.nodes[this.head] = undefined;
      this.head = (this.head + 1) % this.times.length;
      this.n--;
      return true;
    }
    if (h.length === 0) {
      out.node = null;
      return false;
    }
    const e = this.heapPop();
    out.node = e.node;
    out.version = e.version;
    return true;
  }

  /** Replace everything by `live` (one current entry per evictable node). */
  reset(live: N[]): void {
    live.sort((a, b) => a.lastAccess - b.lastAccess || a.id - b.id);
    const cap = Math.max(64, 2 * live.length);
    this.nodes = new Array(cap);
    this.versions = new Int32Array(cap);
    this.times = new Float64Array(cap);
    this.head = 0;
    this.n = 0;
    this.heap = [];
    for (const x of live) this.push(x);
  }

  private grow(): void {
    const cap = this.times.length * 2;
    const nodes: (N | undefined)[] = new Array(cap);
    const versions = new Int32Array(cap);
    const times = new Float64Array(cap);
    for (let k = 0; k < this.n; k++) {
      const i = (this.head + k) % this.times.length;
      nodes[k] = this.nodes[i];
      versions[k] = this.versions[i];
      times[k] = this.times[i];
    }
    this.nodes = nodes;
    this.versions = versions;
    this.times = times;
    this.head = 0;
  }

  private heapPush(e: { t: number; node: N; version: number }): void {
    const h = this.heap;
    let i = h.length;
    h.push(e);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!older(e, h[p])) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = e;
  }

  private heapPop(): { t: number; node: N; version: number } {
    const h = this.heap;
    const top = h[0];
    const last = h.pop()!;
    const size = h.length;
    if (size > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        const c = r < size && older(h[r], h[l]) ? r : l;
        if (!older(h[c], last)) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

function older<N extends Evictable>(a: { t: number; node: N }, b: { t: number; node: N }): boolean {
  return a.t < b.t || (a.t === b.t && a.node.id < b.node.id);
}
