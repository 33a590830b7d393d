/**
 * The DRR state of one profile: one slot per class (heap, deficit, load) in ring order, the round
 * cursor and the carry (the class whose leftover burst is tried first on the next pop, V2 only).
 */
import { ClassHeap } from './class-heap';
import type { ClassLoad } from './queue-limits';
import type { ClassConfig, ClassState, Profile, QueuedRequest } from './types';

/** One physical class. Doubles as the `ClassState` handed to `isDispatchable` (no allocation). */
export class ClassSlot<T> implements ClassState {
  readonly heap = new ClassHeap<QueuedRequest<T>>();
  deficit = 0;
  readonly load: ClassLoad = { count: 0, rawIsl: 0, cached: 0 };

  constructor(
    readonly index: number,
    readonly config: ClassConfig,
  ) {}

  get name(): string {
    return this.config.name;
  }

  get queued(): number {
    return this.heap.size;
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
  /** Class heads the last pop examined (at most 2 x classes). */
  lastHeadsTouched = 0;
  /** Scratch space for one pop: the dispatchable head per class (reused, never reallocated). */
  readonly candidates: (QueuedRequest<T> | null)[];

  constructor(readonly profile: Profile) {
    this.slots = profile.classes.map((c, i) => new ClassSlot<T>(i, c));
    this.candidates = new Array(this.slots.length).fill(null);
  }

  push(req: QueuedRequest<T>): void {
    const slot = this.slots[req.ref.classIndex];
    slot.heap.push(req);
    slot.load.count++;
    slot.load.rawIsl += req.ref.rawIsl;
    slot.load.cached += req.ref.cached;
    this.total++;
  }

  /** Remove the head of a class and keep its load figures in step. */
  removeHead(i: number): QueuedRequest<T> {
    const slot = this.slots[i];
    const req = slot.heap.pop() as QueuedRequest<T>;
    slot.load.count--;
    slot.load.rawIsl -= req.ref.rawIsl;
    slot.load.cached -= req.ref.cached;
    this.total--;
    return req;
  }

  nameOf(i: number): string | null {
    return i >= 0 && i < this.slots.length ? this.slots[i].config.name : null;
  }
}
