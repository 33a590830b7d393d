/**
 * The shape shared by the policies whose order is a fixed key per request (BLIS's priority-fcfs,
 * sjf and reverse-priority, Vajra's EDF): the key is computed once when the request joins the
 * queue and kept in `req.policyKey`; waiting requests sit in a heap ordered by key, then arrival,
 * then id. Admission takes the head while it fits and stops at the first head that does not
 * (head-of-line, as vLLM's and BLIS's batch formation does). A preempted request re-enters at its
 * key's place (the key decides, not the front of the queue), as BLIS re-sorts the whole queue.
 */
import type { SimRequest } from '../../sim/request';
import type { AdmissionContext, LocalPolicy, WorkerView } from '../../replica/local-policy';
import type { LocalDecisionDetail } from '../details';
import { keyThenArrival, RequestHeap } from './request-order';

export interface KeyedOrder {
  /** Scenario name of the policy. */
  name: string;
  /** The request's sort key (smaller goes first). Called once per enqueue. */
  key(req: SimRequest, worker: WorkerView): number;
  /** A short reason for the decision record (only called while recording). */
  why(req: SimRequest): string;
  /** The policy's typed facts for the decision record (only called while recording). */
  detail(req: SimRequest): LocalDecisionDetail;
}

export class KeyedOrderPolicy implements LocalPolicy {
  readonly name: string;
  private readonly heap = new RequestHeap(keyThenArrival);

  constructor(private readonly order: KeyedOrder) {
    this.name = order.name;
  }

  size(): number {
    return this.heap.size;
  }

  enqueue(req: SimRequest, worker: WorkerView): void {
    req.policyKey = this.order.key(req, worker);
    this.heap.push(req);
  }

  admit(ctx: AdmissionContext): void {
    const heap = this.heap;
    for (let head = heap.peek(); head !== undefined; head = heap.peek()) {
      const outcome = ctx.recording
        ? ctx.tryAdmit(head, this.order.why(head), this.order.detail(head))
        : ctx.tryAdmit(head);
      if (outcome !== 'admitted') return; // head-of-line: nothing overtakes the head
      heap.pop();
    }
  }

  waiting(limit: number): SimRequest[] {
    return this.heap.ordered(limit);
  }
}
