/**
 * A kinetic tournament tree: the minimum of a set of items whose priorities move linearly with time,
 * p_i(t) ≈ a_i − b_i·t, for times that only move forward (#15.3). Vajra's least remaining slack
 * (../lrs/policy.ts, and the pull router's shared queue under LRS) is the user: slack falls at rate
 * 1/D, a per-request rate, so the order of two requests changes at a time that depends on both.
 *
 * The tree is a complete binary tree over slots (leaves); each internal node keeps the winner of its
 * two children at the tree's time T, and a certificate: the time `fail` before which that winner
 * cannot change while its children's winners stay the same. `minFail` of a node is the smallest
 * `fail` in its subtree, so advancing to a later `now` walks down only into subtrees holding a failed
 * certificate and recomputes those nodes bottom-up (and their ancestors). Insert and delete recompute
 * one leaf-to-root path. For linear motion a kinetic tournament processes O(n log n) certificate
 * failures over n operations (the standard bound for kinetic tournaments on lines), O(log n) each,
 * so an operation costs O(log² n) amortized; `npm run bench` measures about 2.5 · log2 n node
 * recomputations per operation (`lrs.recomputes_per_op`). Pairs inside the rounding band (below)
 * add a re-check per later query while they stay there, which for distinct requests is a sliver of
 * time around their crossing.
 *
 * Exactness. A node's winner is always decided by the caller's own comparator at T (`compare`: the
 * priority value exactly as the caller evaluates it in floating point, then its tie-break), never by
 * the lines, so the tree answers what an O(n) scan with the same comparator at T would answer. The
 * lines only schedule certificates, and conservatively: each item gives an error bound
 * e0 + e1·t covering how far its computed priority (and its line) can be from the exact line. Two
 * items' computed order is certain while their line gap exceeds the sum of their bounds; a
 * certificate fails (well) before the gap shrinks to twice that band, and a pair already inside the
 * doubled band is re-checked at every later time until it leaves it. Items whose inputs are
 * identical compute identical priorities at every time (same operations on the same numbers), so
 * their order is the tie-break's, fixed for good. An item with a non-finite line (a zero budget) is
 * "degenerate": the caller is told (`degenerate > 0`) and falls back to its O(n) scan, which then
 * decides exactly as before.
 */

/** How the items move and compare; a class (not closures), as the engine is deep-copied for restore points. */
export interface KineticOrder<T> {
  /** Negative when `x` goes before `y` at time `now` (the caller's exact comparator; a total order). */
  compare(x: T, y: T, now: number): number;
  /**
   * The item's line and error bound, written to `out`: [a, b, e0, e1] with priority ≈ a − b·t and
   * |computed priority at t − (a − b·t)| (plus the error of a and b themselves) ≤ (e0 + e1·t) / 2.
   * A non-finite a or b marks the item degenerate.
   */
  line(x: T, out: Float64Array): void;
  /** True when `x` and `y` compute bit-identical priorities at every time. */
  sameMotion(x: T, y: T): boolean;
}

const NONE = -1;
/** Fewest slots the tree shrinks to (a small tree is cheap to keep). */
const MIN_CAP = 16;
/** Unit roundoff of binary64. */
export const ROUNDOFF = 2 ** -53;

export class KineticTournament<T> {
  /** Leaves: slot s is node cap + s. */
  private cap = 1;
  private items: (T | undefined)[] = [undefined];
  /** Insertion order of each slot's item (for a caller's fallback scan). */
  private seq = new Float64Array(1);
  private nextSeq = 0;
  private la = new Float64Array(1);
  private lb = new Float64Array(1);
  private le0 = new Float64Array(1);
  private le1 = new Float64Array(1);
  /** Winner slot of node i (NONE: empty subtree); internal nodes 1 … cap − 1, leaves cap … 2cap − 1. */
  private win = new Int32Array(2).fill(NONE);
  private fail = new Float64Array(2).fill(Number.POSITIVE_INFINITY);
  private minFail = new Float64Array(2).fill(Number.POSITIVE_INFINITY);
  private free: number[] = [0];
  private count = 0;
  /** Items with a non-finite line. */
  degenerate = 0;
  /** The time every node is correct at. */
  private t = Number.NEGATIVE_INFINITY;
  /** Certificates recomputed so far (for the benchmark and tests). */
  recomputes = 0;
  private readonly tmp = new Float64Array(4);

  constructor(private readonly order: KineticOrder<T>) {}

  get size(): number {
    return this.count;
  }

  /** The time the tree is correct at. */
  get time(): number {
    return this.t;
  }

  /** Add an item at time `now` (its line is read now, once). */
  insert(x: T, now: number): void {
    this.advance(now);
    if (this.free.length === 0) this.grow();
    const s = this.free.pop() as number;
    this.items[s] = x;
    this.seq[s] = this.nextSeq++;
    const l = this.tmp;
    this.order.line(x, l);
    this.la[s] = l[0];
    this.lb[s] = l[1];
    this.le0[s] = l[2];
    this.le1[s] = l[3];
    if (!Number.isFinite(l[0]) || !Number.isFinite(l[1])) this.degenerate++;
    this.count++;
    const leaf = this.cap + s;
    this.win[leaf] = s;
    this.updatePath(leaf >> 1);
  }

  /** The first item at `now` (≥ every earlier time asked), without removing it. */
  peek(now: number): T | undefined {
    this.advance(now);
    const w = this.win[1];
    return w === NONE ? undefined : this.items[w];
  }

  /** Remove the item `peek` returned last (the winner at the tree's time). */
  popFirst(): T | undefined {
    const s = this.win[1];
    if (s === NONE) return undefined;
    return this.removeSlot(s);
  }

  /** Every item, in insertion order (for a caller's fallback scan; O(n log n)). */
  inserted(): T[] {
    const slots: number[] = [];
    for (let s = 0; s < this.cap; s++) if (this.items[s] !== undefined) slots.push(s);
    slots.sort((a, b) => this.seq[a] - this.seq[b]);
    return slots.map((s) => this.items[s] as T);
  }

  /** Remove `x` (found by identity; O(n) search: for a caller's fallback path only). */
  remove(x: T): void {
    for (let s = 0; s < this.cap; s++) if (this.items[s] === x) return void this.removeSlot(s);
  }

  /**
   * The first `limit` items in order at `now`, without removing them: a best-first walk of the
   * tree (a subtree's first item is its winner; once an item is taken, the rest of its subtree is
   * the siblings' subtrees along its path), O(limit · log n · log(limit · log n)).
   */
  ordered(now: number, limit: number): T[] {
    this.advance(now);
    const out: T[] = [];
    if (this.win[1] === NONE || limit <= 0) return out;
    const o = this.order;
    const t = this.t;
    // a small binary heap of node indexes ordered by their winners
    const heap: number[] = [1];
    const less = (i: number, j: number) =>
      o.compare(this.items[this.win[i]] as T, this.items[this.win[j]] as T, t) < 0;
    const push = (node: number) => {
      let i = heap.length;
      heap.push(node);
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!less(node, heap[p])) break;
        heap[i] = heap[p];
        i = p;
      }
      heap[i] = node;
    };
    const pop = (): number => {
      const top = heap[0];
      const last = heap.pop() as number;
      if (heap.length > 0) {
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          if (l >= heap.length) break;
          const c = l + 1 < heap.length && less(heap[l + 1], heap[l]) ? l + 1 : l;
          if (!less(heap[c], last)) break;
          heap[i] = heap[c];
          i = c;
        }
        heap[i] = last;
      }
      return top;
    };
    while (heap.length > 0 && out.length < limit) {
      const node = pop();
      const s = this.win[node];
      out.push(this.items[s] as T);
      // walk down from `node` to the winner's leaf, offering each sibling subtree
      const leaf = this.cap + s;
      let depth = 0;
      for (let x = leaf; x > node; x >>= 1) depth++;
      for (let d = depth - 1; d >= 0; d--) {
        const onPath = leaf >> d;
        const sib = onPath ^ 1;
        if (this.win[sib] !== NONE) push(sib);
      }
    }
    return out;
  }

  /** Bring every node to time `now` (a time before the tree's rebuilds it: always correct, O(n)). */
  advance(now: number): void {
    if (now === this.t) return;
    if (now < this.t || this.t === Number.NEGATIVE_INFINITY) {
      this.t = now;
      for (let i = this.cap - 1; i >= 1; i--) this.recompute(i);
      return;
    }
    this.t = now;
    if (this.cap > 1 && this.minFail[1] <= now) this.advanceNode(1);
  }

  /** Recompute the failed certificates under `node`; true when its winner changed. */
  private advanceNode(node: number): boolean {
    const cap = this.cap;
    let changed = false;
    const l = 2 * node;
    if (l < cap) {
      if (this.minFail[l] <= this.t && this.advanceNode(l)) changed = true;
      if (this.minFail[l + 1] <= this.t && this.advanceNode(l + 1)) changed = true;
    }
    if (changed || this.fail[node] <= this.t) {
      const before = this.win[node];
      this.recompute(node);
      return this.win[node] !== before;
    }
    this.refreshMin(node);
    return false;
  }

  private refreshMin(node: number): void {
    const l = 2 * node;
    let m = this.fail[node];
    if (l < this.cap) {
      if (this.minFail[l] < m) m = this.minFail[l];
      if (this.minFail[l + 1] < m) m = this.minFail[l + 1];
    }
    this.minFail[node] = m;
  }

  /** Winner and certificate of internal node `node` at the tree's time, from its children's winners. */
  private recompute(node: number): void {
    this.recomputes++;
    const x = this.win[2 * node];
    const y = this.win[2 * node + 1];
    let fail = Number.POSITIVE_INFINITY;
    if (x === NONE || y === NONE) this.win[node] = x === NONE ? y : x;
    else {
      const t = this.t;
      const c = this.order.compare(this.items[x] as T, this.items[y] as T, t);
      const w = c < 0 ? x : y;
      const l = c < 0 ? y : x;
      this.win[node] = w;
      fail = this.certificate(w, l, t);
    }
    this.fail[node] = fail;
    this.refreshMin(node);
  }

  /** The time before which winner `w` cannot lose to `l` (both finite lines), seen from time `t`. */
  private certificate(w: number, l: number, t: number): number {
    if (this.order.sameMotion(this.items[w] as T, this.items[l] as T)) return Number.POSITIVE_INFINITY;
    const aw = this.la[w];
    const bw = this.lb[w];
    const al = this.la[l];
    const bl = this.lb[l];
    if (!Number.isFinite(aw + bw + al + bl)) return t; // degenerate: re-check every time
    // gap g(τ) = p_l(τ) − p_w(τ) = α − β·τ; band E(τ) = e0 + e1·τ (doubled for the schedule)
    const alpha = al - aw;
    const beta = bl - bw;
    const e0 = 2 * (this.le0[w] + this.le0[l]);
    const e1 = 2 * (this.le1[w] + this.le1[l]);
    if (!(t >= 0)) return t; // the bands assume times ≥ 0 (simulated time is)
    if (alpha - beta * t <= e0 + e1 * t) return t; // near a crossing: re-check at every later time
    const rate = beta + e1;
    if (!(rate > 0)) return Number.POSITIVE_INFINITY; // the gap grows faster than the band
    const cross = (alpha - e0) / rate; // where the gap meets the doubled band
    if (!(cross > t)) return t;
    // a little before it (relative margin), never before t
    return t + (cross - t) * (1 - 2 ** -20);
  }

  private updatePath(from: number): void {
    for (let i = from; i >= 1; i >>= 1) this.recompute(i);
  }

  private removeSlot(s: number): T {
    const x = this.items[s] as T;
    if (!Number.isFinite(this.la[s]) || !Number.isFinite(this.lb[s])) this.degenerate--;
    this.items[s] = undefined;
    this.free.push(s);
    this.count--;
    const leaf = this.cap + s;
    this.win[leaf] = NONE;
    if (this.cap > MIN_CAP && this.count <= this.cap / 4) this.shrink();
    else this.updatePath(leaf >> 1);
    return x;
  }

  /** Slots allocated (leaves of the tree): between the size and four times it, once above MIN_CAP. */
  get capacity(): number {
    return this.cap;
  }

  /**
   * Halve the slots once a quarter of them hold items, so a large queue that drained gives its
   * memory back (about 90 bytes a slot): the items move, in slot order, to the first slots and the
   * tree is rebuilt at its time. A quarter, not a half, so that growing back takes at least cap / 2
   * inserts and shrinking again cap / 4 removals: O(1) amortized rebuild work per operation. Which
   * slot holds an item decides nothing — winners come from the caller's comparator, and `inserted`
   * from each item's insertion number, which moves with it.
   */
  private shrink(): void {
    const cap = this.cap >> 1;
    const items: (T | undefined)[] = new Array(cap).fill(undefined);
    const seq = new Float64Array(cap);
    const la = new Float64Array(cap);
    const lb = new Float64Array(cap);
    const le0 = new Float64Array(cap);
    const le1 = new Float64Array(cap);
    const win = new Int32Array(2 * cap).fill(NONE);
    let n = 0;
    for (let s = 0; s < this.cap; s++) {
      if (this.items[s] === undefined) continue;
      items[n] = this.items[s];
      seq[n] = this.seq[s];
      la[n] = this.la[s];
      lb[n] = this.lb[s];
      le0[n] = this.le0[s];
      le1[n] = this.le1[s];
      win[cap + n] = n;
      n++;
    }
    this.items = items;
    this.seq = seq;
    this.la = la;
    this.lb = lb;
    this.le0 = le0;
    this.le1 = le1;
    this.win = win;
    this.fail = new Float64Array(2 * cap).fill(Number.POSITIVE_INFINITY);
    this.minFail = new Float64Array(2 * cap).fill(Number.POSITIVE_INFINITY);
    this.cap = cap;
    // free slots: the rest, smallest popped first
    this.free = [];
    for (let s = cap - 1; s >= n; s--) this.free.push(s);
    if (this.t !== Number.NEGATIVE_INFINITY) for (let i = cap - 1; i >= 1; i--) this.recompute(i);
  }

  /** Double the slots: the old tree becomes the left half, rebuilt at the tree's time. */
  private grow(): void {
    const old = this.cap;
    const cap = old * 2;
    const items: (T | undefined)[] = new Array(cap).fill(undefined);
    for (let s = 0; s < old; s++) items[s] = this.items[s];
    const widen = (a: Float64Array) => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    this.items = items;
    this.seq = widen(this.seq);
    this.la = widen(this.la);
    this.lb = widen(this.lb);
    this.le0 = widen(this.le0);
    this.le1 = widen(this.le1);
    const win = new Int32Array(2 * cap).fill(NONE);
    for (let s = 0; s < old; s++) if (items[s] !== undefined) win[cap + s] = s;
    this.win = win;
    this.fail = new Float64Array(2 * cap).fill(Number.POSITIVE_INFINITY);
    this.minFail = new Float64Array(2 * cap).fill(Number.POSITIVE_INFINITY);
    this.cap = cap;
    // free slots: the new ones, smallest popped first
    for (let s = cap - 1; s >= old; s--) this.free.push(s);
    if (this.t !== Number.NEGATIVE_INFINITY) for (let i = cap - 1; i >= 1; i--) this.recompute(i);
  }
}
