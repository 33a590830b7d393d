/**
 * The shape LPM and DFS-weight share (SGLang's two cache-aware orders): the waiting queue is a
 * MatchedQueue (each request remembers where its radix match ended), every batch step re-orders it
 * by the policy's rule over the worker's radix cache, and admission takes requests in that order
 * until the first one that does not fit (head-of-line, as SGLang's batch builder stops). A preempted
 * request goes back to the front of the queue (optimistic admission) or to its back (SGLang's
 * retraction), and equal keys keep queue order.
 *
 * The rule is an object with methods (not a closure): the engine is copied for restore points, and
 * copies must not share state through functions.
 */
import type { SimRequest } from '../../sim/request';
import type { AdmissionContext, LocalPolicy, WorkerView } from '../../replica/local-policy';
import type { LocalDecisionDetail } from '../details';
import { MatchedQueue } from './matched-queue';

/** One step's order: queue indexes in scan order and each index's cached prefix. */
export interface StepOrder {
  order: ArrayLike<number>;
  match: ArrayLike<number>;
}

export interface QueueRule<O extends StepOrder = StepOrder> {
  /** This step's order of the waiting queue. */
  order(queue: MatchedQueue, worker: WorkerView): O;
  /** A short reason for the decision record of queue index `i` at position `rank` (recording only). */
  why(o: O, i: number, rank: number): string;
  /** The policy's typed facts for that record (recording only). */
  detail(o: O, i: number, rank: number): LocalDecisionDetail;
  /**
   * Present when the queue is a list the engine re-orders in place (SGLang's LPM sorts its waiting
   * list with Python's stable sort): true when this step's order was such a sort, and the queue then
   * keeps that order, so the next step's ties fall the way this step left them. Absent: the order
   * is rebuilt from queue order every step.
   */
  keeps?(o: O): boolean;
}

export class OrderedQueuePolicy<O extends StepOrder = StepOrder> implements LocalPolicy {
  private readonly queue = new MatchedQueue();
  private view: WorkerView | null = null;

  constructor(
    readonly name: string,
    private readonly rule: QueueRule<O>,
  ) {}

  size(): number {
    return this.queue.length;
  }

  enqueue(req: SimRequest, worker: WorkerView, front: boolean): void {
    this.view = worker;
    if (front) this.queue.unshift(req);
    else this.queue.push(req);
  }

  admit(ctx: AdmissionContext): void {
    const q = this.queue;
    const items = q.items;
    const o = this.rule.order(q, ctx.worker);
    const order = o.order;
    let taken = 0;
    for (; taken < order.length; taken++) {
      const i = order[taken];
      const outcome = ctx.recording
        ? ctx.tryAdmit(items[i], this.rule.why(o, i, taken), this.rule.detail(o, i, taken))
        : ctx.tryAdmit(items[i]);
      if (outcome !== 'admitted') break; // head-of-line in the policy's order
    }
    if (this.rule.keeps?.(o) === true) {
      q.keepInOrder(order, taken);
      return;
    }
    if (taken === 0) return;
    const gone = new Uint8Array(q.length);
    for (let k = 0; k < taken; k++) gone[order[k]] = 1;
    q.removeFlagged(gone);
  }

  waiting(limit: number): SimRequest[] {
    if (this.view === null) return this.queue.items.slice(0, limit);
    const { order } = this.rule.order(this.queue, this.view);
    const out: SimRequest[] = [];
    for (let k = 0; k < order.length && k < limit; k++) out.push(this.queue.items[order[k]]);
    return out;
  }
}
