/**
 * LPM (SGLang): admit the waiting requests whose prompts share the longest prefix with this worker's
 * radix cache first; ties keep queue order (arrival, a preempted request first). Admission stops at
 * the first request that does not fit, as SGLang's batch builder does. Optional FCFS fallback above
 * `scheduler.lpm_fcfs_fallback` waiting requests (SGLang uses 128; off by default, the paper's LPM).
 */
import type { SimRequest } from '../../sim/request';
import type { AdmissionContext, LocalPolicy, WorkerView } from '../../replica/local-policy';
import { MatchedQueue } from '../shared/matched-queue';
import { prefixOrder } from '../shared/prefix-order';

/** What an admission under LPM records. */
export interface LpmDetail {
  algo: 'lpm';
  /** Prompt tokens cached on this worker when the queue was ordered. */
  prefix_match: number;
  /** Position in this step's order (0 = first). */
  rank: number;
  fcfs_fallback: boolean;
}

export class LpmPolicy implements LocalPolicy {
  readonly name = 'lpm';
  private readonly queue = new MatchedQueue();
  private view: WorkerView | null = null;

  constructor(private readonly fallbackAbove: number) {}

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
    const { order, match, fallback } = prefixOrder(q, ctx.worker, this.fallbackAbove);
    let taken = 0;
    for (; taken < order.length; taken++) {
      const i = order[taken];
      const r = items[i];
      const outcome = ctx.recording
        ? ctx.tryAdmit(
            r,
            fallback
              ? `queue order (more than ${this.fallbackAbove} waiting: FCFS fallback)`
              : `longest cached prefix (${match[i]} tokens)`,
            { algo: 'lpm', prefix_match: match[i], rank: taken, fcfs_fallback: fallback } satisfies LpmDetail,
          )
        : ctx.tryAdmit(r);
      if (outcome !== 'admitted') break; // head-of-line in LPM order
    }
    if (taken === 0) return;
    const gone = new Uint8Array(q.length);
    for (let k = 0; k < taken; k++) gone[order[k]] = 1;
    q.removeFlagged(gone);
  }

  waiting(limit: number): SimRequest[] {
    if (this.view === null) return this.queue.items.slice(0, limit);
    const { order } = prefixOrder(this.queue, this.view, this.fallbackAbove);
    const out: SimRequest[] = [];
    for (let k = 0; k < order.length && k < limit; k++) out.push(this.queue.items[order[k]]);
    return out;
  }
}
