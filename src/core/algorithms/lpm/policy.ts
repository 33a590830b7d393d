/**
 * LPM (SGLang): admit the waiting requests whose prompts share the longest prefix with this worker's
 * radix cache first; ties keep queue order (arrival, a preempted request first). Admission stops at
 * the first request that does not fit, as SGLang's batch builder does (the shared queue shape is
 * ../shared/ordered-queue.ts). Optional FCFS fallback above
 * `scheduler.lpm_fcfs_fallback` waiting requests (SGLang uses 128; off by default, the paper's LPM).
 */
import type { WorkerView } from '../../replica/local-policy';
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
}

export const createLpm = (fallbackAbove: number) => new OrderedQueuePolicy('lpm', new LpmRule(fallbackAbove));
