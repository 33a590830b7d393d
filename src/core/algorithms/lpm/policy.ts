/**
 * LPM (SGLang): admit the waiting requests whose prompts share the longest prefix with this worker's
 * radix cache first. SGLang sorts one waiting list in place with Python's stable sort and keeps it,
 * so ties keep the list's order: where the last sort left each request, new and retracted ones
 * behind (a preempted one in front under optimistic admission). Admission stops at the first
 * request that does not fit, as SGLang's batch builder does. Optional FCFS fallback above
 * `scheduler.lpm_fcfs_fallback` waiting requests (SGLang uses 128; off by default, the paper's LPM).
 *
 * The order is kept live under the radix cache's changes (../shared/live-prefix-order.ts), so a
 * step costs O((1 + c) log n) for c waiting requests whose match moved, plus O(log n) per request
 * taken, instead of SGLang's re-read and sort of the whole queue. `LpmRule` below is that sort
 * (../shared/prefix-order.ts over ../shared/ordered-queue.ts), kept as the reference the tests
 * compare the live order with, step by step and record by record.
 */
import type { SimRequest } from '../../sim/request';
import type { AdmissionContext, LocalPolicy, WorkerView } from '../../replica/local-policy';
import { type LiveEntry, LivePrefixOrder } from '../shared/live-prefix-order';
import type { MatchedQueue } from '../shared/matched-queue';
import { OrderedQueuePolicy, type QueueRule } from '../shared/ordered-queue';
import { type PrefixOrder, prefixOrder } from '../shared/prefix-order';

/** What an admission under LPM records. */
export interface LpmDetail {
  algo: 'lpm';
  /** Prompt tokens cached on this worker when the queue was ordered. */
  prefix_match: number;
  /** Position in this step's order (0 = first). */
  rank: number;
  fcfs_fallback: boolean;
}

/** LPM's rule: longest cached prefix first (or queue order above the fallback threshold). */
export class LpmRule implements QueueRule<PrefixOrder> {
  constructor(private readonly fallbackAbove: number) {}

  order(queue: MatchedQueue, worker: WorkerView): PrefixOrder {
    return prefixOrder(queue, worker, this.fallbackAbove);
  }

  why(o: PrefixOrder, i: number): string {
    return o.fallback
      ? `queue order (more than ${this.fallbackAbove} waiting: FCFS fallback)`
      : `longest cached prefix (${o.match[i]} tokens)`;
  }

  detail(o: PrefixOrder, i: number, rank: number): LpmDetail {
    return { algo: 'lpm', prefix_match: o.match[i], rank, fcfs_fallback: o.fallback };
  }

  /** SGLang sorts its waiting list in place (not under the FCFS fallback, which leaves it as is). */
  keeps(o: PrefixOrder): boolean {
    return !o.fallback;
  }
}

/** The reference LPM: the whole queue re-read and sorted every step (tests compare with it). */
export const createLpmReference = (fallbackAbove: number) =>
  new OrderedQueuePolicy('lpm', new LpmRule(fallbackAbove));

/** Test-only: `reference` makes `createLpm` build the reference (for byte-for-byte run comparisons). */
export const lpmImplementation = { reference: false };

export class LpmPolicy implements LocalPolicy {
  readonly name = 'lpm';
  private readonly live: LivePrefixOrder;
  private attached = false;

  constructor(private readonly fallbackAbove: number) {
    this.live = new LivePrefixOrder();
  }

  size(): number {
    return this.live.size;
  }

  enqueue(req: SimRequest, worker: WorkerView, front: boolean): void {
    if (!this.attached) {
      this.live.attach(worker.radix, worker.deferSharedPrefixes === true);
      this.attached = true;
    }
    this.live.add(req, front);
  }

  private fallback(): boolean {
    return this.fallbackAbove > 0 && this.live.size > this.fallbackAbove;
  }

  admit(ctx: AdmissionContext): void {
    const live = this.live;
    // SGLang's fallback leaves the list unsorted: it is scanned as it is held
    const fallback = this.fallback();
    if (!fallback) live.sort();
    const heap = live.order!;
    const taken: LiveEntry[] = [];
    // the order is the one at the start of the step: admissions change the tree (events mark
    // requests dirty), but nothing is re-keyed until the next sort, as the reference sorts once
    for (let e = heap.peek(); e !== undefined; e = heap.peek()) {
      const rank = taken.length;
      const match = fallback ? 0 : e.match;
      const outcome = ctx.recording
        ? ctx.tryAdmit(
            e.req,
            fallback
              ? `queue order (more than ${this.fallbackAbove} waiting: FCFS fallback)`
              : `longest cached prefix (${match} tokens)`,
            { algo: 'lpm', prefix_match: match, rank, fcfs_fallback: fallback } satisfies LpmDetail,
          )
        : ctx.tryAdmit(e.req);
      if (outcome !== 'admitted') break; // head-of-line in LPM order
      heap.remove(e);
      taken.push(e);
    }
    for (const e of taken) live.remove(e);
  }

  /** What the next admission would consider first: the order a sort now would give (or the list). */
  waiting(limit: number): SimRequest[] {
    const live = this.live;
    return (this.fallback() ? live.order!.first(limit) : live.wouldSort(limit)).map((e) => e.req);
  }
}

export const createLpm = (fallbackAbove: number): LocalPolicy =>
  lpmImplementation.reference ? createLpmReference(fallbackAbove) : new LpmPolicy(fallbackAbove);
