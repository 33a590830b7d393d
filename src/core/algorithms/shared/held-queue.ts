/**
 * The pull router's shared queue (#15.3): requests the router holds until a worker has room, taken
 * in the order of the scenario's request prioritizer (./prioritizer.ts): smallest priority at `now`,
 * then earlier arrival, then smaller id; in the order they were held when the scheduler has none.
 *
 * One structure per kind of priority, each O(log n) or O(log² n) per operation where a scan of the
 * held requests at every offer was O(n):
 *   - no prioritizer: a FIFO deque;
 *   - a fixed key (FCFS, EDF, BLIS's orders): a binary heap on (key, arrival, id);
 *   - a moving key (LRS: (key − now) / scale): a kinetic tournament tree (./kinetic-tournament.ts)
 *     deciding with that very expression at `now`. While a held request has scale 0 or a non-finite
 *     line its priority is `key` or NaN, which no line describes: the queue then scans the held
 *     requests in the order they were held, as the router always did.
 */
import type { SimRequest } from '../../sim/request';
import { Deque } from '../../replica/deque';
import { type KineticOrder, KineticTournament, ROUNDOFF } from './kinetic-tournament';
import type { Prioritizer } from './prioritizer';

/** A held request with its priority's fixed parts. */
export interface Held {
  r: SimRequest;
  key: number;
  /** 0: the priority is `key`; else (key − now) / scale. */
  scale: number;
  /** Held order (the tie of last resort for the scan; unique). */
  seq: number;
}

/** Priority of a held request at `now` (smaller first). */
export function heldPriority(h: Held, now: number): number {
  return h.scale === 0 ? h.key : (h.key - now) / h.scale;
}

/** True when `a` leaves before `b`, priorities `pa`, `pb`: smaller priority, then arrival, then id. */
function before(pa: number, a: SimRequest, pb: number, b: SimRequest): boolean {
  return pa < pb || (pa === pb && (a.arrivalT < b.arrivalT || (a.arrivalT === b.arrivalT && a.id < b.id)));
}

/** The held order at `now` as a comparator (a total order while priorities are numbers). */
function compareHeld(x: Held, y: Held, now: number): number {
  const px = heldPriority(x, now);
  const py = heldPriority(y, now);
  if (before(px, x.r, py, y.r)) return -1;
  if (before(py, y.r, px, x.r)) return 1;
  return x.seq - y.seq;
}

/** (key − now)/scale as a line in time. */
export class HeldMotion implements KineticOrder<Held> {
  compare(x: Held, y: Held, now: number): number {
    return compareHeld(x, y, now);
  }

  line(x: Held, out: Float64Array): void {
    out[0] = x.key / x.scale; // scale 0: not finite, so the item is degenerate
    out[1] = 1 / x.scale;
    out[2] = (32 * ROUNDOFF * Math.abs(x.key)) / x.scale;
    out[3] = (32 * ROUNDOFF) / x.scale;
  }

  sameMotion(x: Held, y: Held): boolean {
    return x.key === y.key && x.scale === y.scale && x.r.arrivalT === y.r.arrivalT;
  }
}

/** A binary heap of held requests under a fixed key. */
class StaticHeap {
  readonly items: Held[] = [];

  push(h: Held): void {
    const a = this.items;
    let i = a.length;
    a.push(h);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (compareHeld(h, a[p], 0) >= 0) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = h;
  }

  pop(): void {
    const a = this.items;
    const last = a.pop() as Held;
    const n = a.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const c = l + 1 < n && compareHeld(a[l + 1], a[l], 0) < 0 ? l + 1 : l;
      if (compareHeld(a[c], last, 0) >= 0) break;
      a[i] = a[c];
      i = c;
    }
    a[i] = last;
  }
}

export class HeldQueue {
  private readonly fifo: Deque<Held> | null;
  private readonly heap: StaticHeap | null;
  private readonly tree: KineticTournament<Held> | null;
  private seq = 0;
  /** What `next` returned (the tree's winner, or the scan's pick). */
  private picked: Held | null = null;

  constructor(private readonly order: Prioritizer | null) {
    const moving = order?.scale !== undefined;
    this.fifo = order === null ? new Deque<Held>() : null;
    this.heap = order !== null && !moving ? new StaticHeap() : null;
    this.tree = moving ? new KineticTournament<Held>(new HeldMotion()) : null;
  }

  get size(): number {
    if (this.fifo !== null) return this.fifo.size;
    if (this.heap !== null) return this.heap.items.length;
    return (this.tree as KineticTournament<Held>).size;
  }

  push(r: SimRequest, now: number): void {
    const o = this.order;
    const h: Held = { r, key: o === null ? 0 : o.key(r), scale: o?.scale ? o.scale(r) : 0, seq: this.seq++ };
    if (this.fifo !== null) this.fifo.pushBack(h);
    else if (this.heap !== null) this.heap.push(h);
    else (this.tree as KineticTournament<Held>).insert(h, now);
  }

  /** The request that leaves first at `now` (later times only), or undefined. */
  next(now: number): SimRequest | undefined {
    let h: Held | undefined;
    if (this.fifo !== null) h = this.fifo.size > 0 ? this.fifo.at(0) : undefined;
    else if (this.heap !== null) h = this.heap.items[0];
    else {
      const tree = this.tree as KineticTournament<Held>;
      h = tree.degenerate > 0 ? this.scan(tree.inserted(), now) : tree.peek(now);
    }
    this.picked = h ?? null;
    return h?.r;
  }

  /** Remove the request `next` returned. */
  removeNext(): void {
    const h = this.picked;
    if (h === null) return;
    this.picked = null;
    if (this.fifo !== null) this.fifo.popFront();
    else if (this.heap !== null) this.heap.pop();
    else {
      const tree = this.tree as KineticTournament<Held>;
      if (tree.degenerate > 0) tree.remove(h);
      else tree.popFirst();
    }
  }

  /** The first of `held` (in held order) at `now`, as the router's scan always picked. */
  private scan(held: Held[], now: number): Held | undefined {
    if (held.length === 0) return undefined;
    let best = held[0];
    let bp = heldPriority(best, now);
    for (let i = 1; i < held.length; i++) {
      const p = heldPriority(held[i], now);
      if (before(p, held[i].r, bp, best.r)) {
        best = held[i];
        bp = p;
      }
    }
    return best;
  }

  /** Held requests in the order they would leave at `now` (first `limit`; for snapshots). */
  ordered(now: number, limit: number): SimRequest[] {
    if (this.fifo !== null) return this.fifo.toArray(limit).map((h) => h.r);
    let all: Held[];
    if (this.heap !== null) all = [...this.heap.items];
    else {
      const tree = this.tree as KineticTournament<Held>;
      if (tree.degenerate === 0) return tree.ordered(now, limit).map((h) => h.r);
      all = tree.inserted();
    }
    return all
      .sort(
        (x, y) =>
          heldPriority(x, now) - heldPriority(y, now) ||
          x.r.arrivalT - y.r.arrivalT ||
          (x.r.id < y.r.id ? -1 : x.r.id > y.r.id ? 1 : 0),
      )
      .slice(0, limit)
      .map((h) => h.r);
  }
}
