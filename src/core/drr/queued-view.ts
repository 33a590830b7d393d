/**
 * A request waiting in a policy class as a snapshot lists it: the one shape the DRR sandbox and the
 * cluster's router queue both send (the Class queues view and the ring's chips read it).
 */
import type { DrrPopRecord, DrrSnapshot, DynamoRelease, QueuedRequest } from './types';

export interface QueuedRequestView {
  id: string;
  /** DRR cost: uncached tokens. */
  cost: number;
  raw_isl: number;
  cached: number;
  priority: number;
  strict_priority: number;
  arrival_s: number;
  seq: number;
  score: number;
  /** Pinned worker index, or -1 for any worker. */
  worker: number;
  /** Due time in seconds, or null. */
  due_s: number | null;
  /** The client that sent it (cluster runs); null in the DRR sandbox, which has no clients. */
  client: string | null;
}

export function queuedRequestView<T>(r: QueuedRequest<T>, client: string | null): QueuedRequestView {
  return {
    id: r.id,
    cost: r.ref.cost,
    raw_isl: r.ref.rawIsl,
    cached: r.ref.cached,
    priority: r.priority,
    strict_priority: r.strictPriority,
    arrival_s: r.arrivalS,
    seq: r.seq,
    score: r.score,
    worker: r.worker,
    due_s: r.due ?? null,
    client,
  };
}

/** The last arbitration the ring shows: its full record and when it happened. */
export interface LastPop {
  /** Simulated seconds (cluster) or the step number (the DRR sandbox). */
  t: number;
  record: DrrPopRecord;
}

/**
 * The DRR state a snapshot carries as `drr` (the same shape in a cluster run and in the DRR sandbox):
 * the ring, each class's first waiting requests, and the last arbitration.
 */
export interface DrrStateSnapshot extends DrrSnapshot {
  /** Each class's waiting requests (the cluster lists at most QUEUE_CHIPS_PER_CLASS), head first, in ring order. */
  queues: { class: string; requests: QueuedRequestView[] }[];
  /** The most recent pop with its record; null before the first (or when records are off). */
  last_pop: LastPop | null;
  /**
   * The Dynamo release line whose class queue is modelled (the run's `router.dynamo_release` or its
   * default; the sandbox script's `release`): from v1.6 every arrival passes a DRR pop.
   */
  release: DynamoRelease;
}
