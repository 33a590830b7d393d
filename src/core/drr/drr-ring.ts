/**
 * The DRR state of one profile: one slot per class (its queue, deficit, load) in ring order, the
 * round cursor and the carry (the class whose leftover burst is tried first on the next pop, V2 only).
 *
 * A class queue is one shared heap plus, from Dynamo v1.4, one exact-worker lane per pinned worker:
 * the class's candidate is the best dispatchable head among the shared head and the lane heads, so a
 * pinned head waiting for a busy worker does not block the rest of its class. Without lanes (v1.3)
 * pinned requests wait in the shared heap and a blocked head blocks its class.
 *
 * Deficits are plain numbers while they stay below 2^53; above, `bigDeficit` holds the exact u64
 * value (see big-pop.ts) and `deficit` a rounded copy for display.
 */
import { ClassHeap } from './class-heap';
import { goesFirst } from './order';
import { dueSweepFaults } from './release';
import type { ClassLoad } from './queue-limits';
import type { ClassConfig, ClassState, Profile, QueuedRequest } from './types';

/** `a` is due before `b` (ties: the earlier enqueue). */
function dueBefore(a: QueuedRequest<unknown>, b: QueuedRequest<unknown>): boolean {
  const da = a.due as number;
  const db = b.due as number;
  return da !== db ? da < db : a.seq < b.seq;
}

export type Dispatchable<T> = (head: QueuedRequest<T>, cls: ClassState) => boolean;

/** One physical class. Doubles as the `ClassState` handed to `isDispatchable` (no allocation). */
export class ClassSlot<T> implements ClassState {
  /** The shared heap (every request when lanes are off). */
  readonly heap = new ClassHeap<QueuedRequest<T>>();
  /** Exact-worker lanes by worker index, created on the first pinned request (lanes on only). */
  lanes: Map<number, ClassHeap<QueuedRequest<T>>> | null = null;
  /** The lanes in creation order (a stable scan order; ties are broken by the order key anyway). */
  laneList: ClassHeap<QueuedRequest<T>>[] = [];
  /** The heap the last `pick` took its candidate from (what `removePicked` pops). */
  picked: ClassHeap<QueuedRequest<T>> | null = null;
  deficit = 0;
  /** The exact deficit when above 2^53 - 1, else null. */
  bigDeficit: bigint | null = null;
  size = 0;
  readonly load: ClassLoad = { count: 0, rawIsl: 0, cached: 0 };
  /**
   * Requests a due-time sweep took out of this class (already off its counts) that still sit in one
   * of its heaps: each is dropped when it reaches its heap's top (`top`), O(log n) each.
   */
  swept: Set<QueuedRequest<T>> | null = null;

  constructor(
    readonly index: number,
    readonly config: ClassConfig,
  ) {}

  get name(): string {
    return this.config.name;
  }

  get queued(): number {
    return this.size;
  }

  /** The head of one of this class's heaps, after dropping swept requests from its top. */
  top(heap: ClassHeap<QueuedRequest<T>>): QueuedRequest<T> | null {
    const swept = this.swept;
    let h = heap.peek() ?? null;
    if (swept === null) return h;
    while (h !== null && swept.delete(h)) {
      heap.pop();
      h = heap.peek() ?? null;
    }
    if (swept.size === 0) this.swept = null;
    return h;
  }

  /** The request that leaves first when every head is dispatchable (for views and records). */
  first(): QueuedRequest<T> | null {
    let best = this.top(this.heap);
    for (const lane of this.laneList) {
      const h = this.top(lane);
      if (h && (!best || goesFirst(h, best))) best = h;
    }
    return best;
  }

  /**
   * The waiting requests in the order they would leave (a sorted copy; for views): every one, or
   * with `limit` the first `limit`, in time that depends on the limit and not on the queue's length.
   */
  ordered(limit = Number.POSITIVE_INFINITY): QueuedRequest<T>[] {
    const swept = this.swept;
    const gone = swept === null ? undefined : (q: QueuedRequest<T>) => swept.has(q);
    if (this.laneList.length === 0) return this.heap.ordered(limit, gone);
    const all = [this.heap, ...this.laneList].flatMap((h) => h.ordered(limit, gone));
    all.sort((x, y) => (goesFirst(x, y) ? -1 : goesFirst(y, x) ? 1 : 0));
    return all.length > limit ? all.slice(0, limit) : all;
  }
}

export class DrrRing<T> {
  readonly slots: ClassSlot<T>[];
  /** Class index the next ring scan starts from. */
  cursor = 0;
  /** Class index whose remaining burst is tried first, or -1. */
  carry = -1;
  /** Requests queued over all classes of this ring. */
  total = 0;
  /** Class heads the last pop examined (at most 2 x classes without lanes). */
  lastHeadsTouched = 0;
  /** Scratch space for one pop: the dispatchable head per class (reused, never reallocated). */
  readonly candidates: (QueuedRequest<T> | null)[];
  /** Time of the pop in progress (seconds): heads due before it are shed. -Infinity = never. */
  now = Number.NEGATIVE_INFINITY;
  /** Requests shed by the pop in progress (cleared by the queue at the start of each pop). */
  readonly expired: QueuedRequest<T>[] = [];
  /**
   * The queued requests that carry a due time, earliest first (a binary min-heap on due time, then
   * enqueue sequence). A request that left the queue stays in it until it reaches the top, where it
   * is dropped (`dueLive` says which are still queued).
   */
  private readonly dueHeap: QueuedRequest<T>[] = [];
  private readonly dueLive = new Set<QueuedRequest<T>>();
  /** Some slot holds a deficit above 2^53 - 1 (the next pops run exact, big-pop.ts). */
  big = false;
  /** Some class has a quantum above 2^53 - 1. */
  readonly bigQuantum: boolean;
  private readonly maxQuantum: number;
  private readonly minQuantum: number;
  /** The largest request cost ever queued here. */
  private maxCost = 1;
  /**
   * A pop on plain numbers stays exact while every deficit is at most this: one pop adds at most
   * maxQuantum x (1 + ceil(maxCost / minQuantum)) to a deficit (one quantum in the scan, the bulk
   * rounds after it, which never exceed the cheapest candidate's need).
   */
  fastLimit: number;

  constructor(
    readonly profile: Profile,
    readonly lanesOn = true,
    /** Always arbitrate on BigInt (tests compare the two paths). */
    readonly forceExact = false,
  ) {
    this.slots = profile.classes.map((c, i) => new ClassSlot<T>(i, c));
    this.candidates = new Array(this.slots.length).fill(null);
    this.bigQuantum = profile.classes.some((c) => c.quantumBig !== undefined);
    this.maxQuantum = Math.max(1, ...profile.classes.map((c) => c.quantum));
    this.minQuantum = Math.max(1, Math.min(...profile.classes.map((c) => c.quantum)));
    this.fastLimit = this.limitFor(1);
  }

  private limitFor(maxCost: number): number {
    const rounds = Math.ceil(maxCost / this.minQuantum);
    return Number.MAX_SAFE_INTEGER - this.maxQuantum * (1 + rounds);
  }

  /** True when this pop may run on plain numbers (no value can pass 2^53 - 1 in it). */
  fastPathSafe(): boolean {
    if (this.big || this.bigQuantum || this.forceExact) return false;
    const limit = this.fastLimit;
    if (limit < 0) return false;
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) if (slots[i].deficit > limit) return false;
    return true;
  }

  push(req: QueuedRequest<T>): void {
    const slot = this.slots[req.ref.classIndex];
    let heap = slot.heap;
    if (req.worker >= 0 && this.lanesOn) {
      if (slot.lanes === null) slot.lanes = new Map();
      let lane = slot.lanes.get(req.worker);
      if (!lane) {
        lane = new ClassHeap<QueuedRequest<T>>();
        slot.lanes.set(req.worker, lane);
        slot.laneList.push(lane);
      }
      heap = lane;
    }
    heap.push(req);
    if (req.due !== undefined) this.pushDue(req);
    slot.size++;
    slot.load.count++;
    slot.load.rawIsl += req.ref.rawIsl;
    slot.load.cached += req.ref.cached;
    this.total++;
    if (req.ref.cost > this.maxCost) {
      this.maxCost = req.ref.cost;
      this.fastLimit = this.limitFor(req.ref.cost);
    }
  }

  private removeFrom(slot: ClassSlot<T>, heap: ClassHeap<QueuedRequest<T>>): QueuedRequest<T> {
    const req = heap.pop() as QueuedRequest<T>;
    this.leave(slot, req);
    return req;
  }

  /** Keep the counts in step with a request that left class `slot`. */
  private leave(slot: ClassSlot<T>, req: QueuedRequest<T>): void {
    slot.size--;
    slot.load.count--;
    slot.load.rawIsl -= req.ref.rawIsl;
    slot.load.cached -= req.ref.cached;
    this.total--;
    if (req.due !== undefined) this.dueLive.delete(req);
  }

  private pushDue(req: QueuedRequest<T>): void {
    const h = this.dueHeap;
    this.dueLive.add(req);
    let i = h.length;
    h.push(req);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!dueBefore(req, h[p])) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = req;
  }

  private popDue(): void {
    const h = this.dueHeap;
    const last = h.pop() as QueuedRequest<T>;
    const n = h.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && dueBefore(h[c + 1], h[c])) c++;
      if (!dueBefore(h[c], last)) break;
      h[i] = h[c];
      i = c;
    }
    h[i] = last;
  }

  /** The earliest due time among the queued requests, or null when none carries one. */
  nextDue(): number | null {
    const h = this.dueHeap;
    while (h.length > 0 && !this.dueLive.has(h[0])) this.popDue();
    return h.length > 0 ? (h[0].due as number) : null;
  }

  /**
   * Dynamo v1.6's sweep: take every queued request whose due time is at or before `now` out of its
   * class (shared heap and lanes), whatever its place in the class and whether its worker is busy.
   * Nothing is charged and the cursor and the carry stay as they are, but a class the sweep empties
   * loses its credit at once (deficit 0), as in Dynamo's `take_expired`, which removes through
   * `take_if_entry_in_class` and zeroes the deficit of a class left empty there, not at the next pop
   * that finds it empty (which may come after new requests have joined it). Returned in
   * due-time order (then enqueue order); empty, after an O(1) look, when nothing has expired. A
   * swept request leaves its class's counts at once and its heap when it reaches the top
   * (`ClassSlot.top`): O(log n) per swept request, amortized.
   */
  takeExpired(now: number): QueuedRequest<T>[] {
    const out: QueuedRequest<T>[] = [];
    for (
      let d = this.nextDue();
      d !== null && (d < now || (d === now && !dueSweepFaults.strict));
      d = this.nextDue()
    ) {
      const q = this.dueHeap[0];
      this.popDue();
      const slot = this.slots[q.ref.classIndex];
      if (slot.swept === null) slot.swept = new Set();
      slot.swept.add(q);
      this.leave(slot, q);
      if (slot.size === 0) {
        slot.deficit = 0;
        if (slot.bigDeficit !== null) {
          slot.bigDeficit = null;
          this.big = this.slots.some((s) => s.bigDeficit !== null);
        }
      }
      out.push(q);
    }
    return out;
  }

  /** Shed the expired heads of one heap (due time before `now`; a due time equal to now is live). */
  private shed(slot: ClassSlot<T>, heap: ClassHeap<QueuedRequest<T>>): QueuedRequest<T> | null {
    let h = slot.top(heap);
    while (h !== null && h.due !== undefined && h.due < this.now) {
      this.expired.push(this.removeFrom(slot, heap));
      h = slot.top(heap);
    }
    return h;
  }

  /**
   * The class's candidate: its best dispatchable head over the shared heap and the lanes, after
   * shedding expired heads; null when none is dispatchable (or the class is empty).
   */
  pick(i: number, isDispatchable: Dispatchable<T>): QueuedRequest<T> | null {
    const slot = this.slots[i];
    const h = this.shed(slot, slot.heap);
    slot.picked = slot.heap;
    if (slot.laneList.length === 0) return h !== null && isDispatchable(h, slot) ? h : null;
    let best = h !== null && isDispatchable(h, slot) ? h : null;
    for (const lane of slot.laneList) {
      const l = this.shed(slot, lane);
      if (l === null || (best !== null && !goesFirst(l, best)) || !isDispatchable(l, slot)) continue;
      best = l;
      slot.picked = lane;
    }
    return best;
  }

  /** Remove the candidate the last `pick` of class `i` returned, keeping the load figures in step. */
  removePicked(i: number): QueuedRequest<T> {
    const slot = this.slots[i];
    return this.removeFrom(slot, slot.picked ?? slot.heap);
  }

  nameOf(i: number): string | null {
    return i >= 0 && i < this.slots.length ? this.slots[i].config.name : null;
  }
}
