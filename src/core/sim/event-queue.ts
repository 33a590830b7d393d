/**
 * The simulator's agenda: a binary min-heap of events keyed by (time, sequence number).
 *
 * The sequence number is handed out at push time, so two events at the same simulated time leave the
 * queue in the order they were scheduled. That makes the run independent of heap internals: the
 * order is a total order on (t, seq), never a tie broken by chance.
 */

export const EV_ARRIVAL = 0;
export const EV_SUBMIT = 1;
export const EV_STEP_END = 2;
/** A worker wakes up at the current instant (after the dispatches already scheduled for it). */
export const EV_KICK = 3;
/** The router's due-time timer (Dynamo v1.6): sweep the queued requests whose due time has passed. */
export const EV_ROUTER_TIMER = 4;
/**
 * The router scheduler's periodic update (every Dynamo release with a policy-class queue): drain the
 * queue. It runs after every other event at its instant (the engine puts it back behind them).
 */
export const EV_ROUTER_TICK = 5;
export type EventKind =
  | typeof EV_ARRIVAL
  | typeof EV_SUBMIT
  | typeof EV_STEP_END
  | typeof EV_KICK
  | typeof EV_ROUTER_TIMER
  | typeof EV_ROUTER_TICK;

/** One scheduled event. `ref` is the payload: a client index, a worker index or a request spec. */
export interface SimEvent<P = unknown> {
  t: number;
  seq: number;
  kind: EventKind;
  /** Client index (arrival) or worker index (step end). */
  index: number;
  payload: P | null;
}

export class EventQueue<P = unknown> {
  private heap: SimEvent<P>[] = [];
  private nextSeq = 0;
  /** Processed events handed back with `release`, reused by `push` (no allocation per event). */
  private readonly spare: SimEvent<P>[] = [];

  get size(): number {
    return this.heap.length;
  }

  /** Number of events ever pushed (also the next sequence number). */
  get pushed(): number {
    return this.nextSeq;
  }

  push(t: number, kind: EventKind, index: number, payload: P | null = null): SimEvent<P> {
    let ev = this.spare.pop();
    if (ev === undefined) ev = { t, seq: this.nextSeq++, kind, index, payload };
    else {
      ev.t = t;
      ev.seq = this.nextSeq++;
      ev.kind = kind;
      ev.index = index;
      ev.payload = payload;
    }
    const h = this.heap;
    let i = h.length;
    h.push(ev);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = h[parent];
      if (p.t < t || (p.t === t && p.seq < ev.seq)) break;
      h[i] = p;
      i = parent;
    }
    h[i] = ev;
    return ev;
  }

  /** Hand back a popped event once it has been processed (its fields must not be read afterwards). */
  release(ev: SimEvent<P>): void {
    ev.payload = null;
    if (this.spare.length < 1024) this.spare.push(ev);
  }

  /** The queued events, in heap order (read only). */
  items(): readonly SimEvent<P>[] {
    return this.heap;
  }

  peek(): SimEvent<P> | undefined {
    return this.heap[0];
  }

  pop(): SimEvent<P> | undefined {
    const h = this.heap;
    const n = h.length;
    if (n === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (n > 1) {
      const size = n - 1;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        let c = l;
        if (r < size && before(h[r], h[l])) c = r;
        if (!before(h[c], last)) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

function before(a: SimEvent<unknown>, b: SimEvent<unknown>): boolean {
  return a.t < b.t || (a.t === b.t && a.seq < b.seq);
}
