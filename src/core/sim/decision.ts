/**
 * The record of one scheduling decision: what was chosen, among what, and why. A discriminated union
 * on `kind`: each kind carries its own typed `detail`. An admission's detail is the replica's facts
 * plus the local policy's typed detail (owned by its algorithm folder); a dispatch's is the router's
 * facts plus the routing algorithm's detail. Everything is plain JSON-friendly data.
 */
import type { LocalDecisionDetail, RouteDecisionDetail } from '../algorithms/details';
import type { ClassResolution } from '../drr/classify';
import type { ClassVisit, DeficitChange } from '../drr/types';

export type DecisionKind = DecisionRecord['kind'];

/** What every record has, whatever its kind. */
interface DecisionBase {
  /** 0, 1, 2, ... over the run. */
  seq: number;
  /** Simulated seconds. */
  t: number;
  /** One readable line. */
  summary: string;
  request?: string;
  client?: string;
  worker?: number;
  /** Router policy class, when the policy-class queue is on. */
  class?: string;
}

/** A client submitted a request. */
export interface ArriveDetail {
  prompt_tokens: number;
  program: string;
  node: string;
  slo_class: string;
}

/** The router queued a request in a policy class. */
export interface EnqueueDetail {
  cost: number;
  cached_tokens: number;
  raw_isl: number;
  backlog: boolean;
  pool_busy: boolean;
  /**
   * Present (true) when it was stored because Dynamo v1.6+ stores every arrival and drains at once
   * (PR #14176), whatever `backlog` and `pool_busy` say; absent under v1.3 – v1.5.
   */
  every_arrival_queued?: boolean;
  /** The worker the request is pinned to (it waits in that worker's exact-worker lane). */
  pinned_worker?: number;
  /** Its due time in simulated seconds (a classifier's `due_at`). */
  due_s?: number;
  /** How the request's class was resolved (profile, family, bucket). */
  resolution: ClassResolution;
}

/** A request was turned away: by a class's queue limit, or because it can never fit a worker. */
export type RejectDetail =
  | { reason: string; current: number; limit: number }
  | { reason: 'exceeds_kv_capacity' }
  | { reason: 'due_time_passed'; due_s: number | null; overdue_ms: number };

/** One DRR arbitration of the router's policy-class queues (the DrrPopRecord, flattened). */
export interface DrrPopDetail {
  cost: number;
  deficits: DeficitChange[];
  cursor: string | null;
  carry: string | null;
  bulk_rounds: number | null;
  visits: ClassVisit[];
  /**
   * Present when the drain that popped was the scheduler's periodic queue update (every 60 s from
   * router start), not an arrival, a worker update or a due-time timer.
   */
  drain?: 'periodic_update';
}

/** What the router itself records for every dispatch. */
export interface DispatchFacts {
  router: string;
  why: string | null;
  overlap_tokens: number;
  prompt_tokens: number;
  /** Per worker: [waiting, running]. */
  worker_loads: number[][];
}

/** No algorithm detail (FCFS, round-robin, random, per-client round-robin write none). */
export interface NoAlgorithmDetail {
  algo?: undefined;
}

export type DispatchDetail = DispatchFacts & (RouteDecisionDetail | NoAlgorithmDetail);

/** What the replica itself records for every admission. */
export interface AdmitFacts {
  policy: string;
  why: string | null;
  cached_tokens: number;
  /** The radix node the prompt matched down to (null: no cached prefix), for the tree view. */
  matched_node: number | null;
  prompt_tokens: number;
  chunk: number;
  kv_blocks: number;
  waiting: number;
}

export type AdmitDetail = AdmitFacts & (LocalDecisionDetail | NoAlgorithmDetail);

export interface PreemptDetail {
  rule: string;
  running: number;
  kv_free_blocks: number;
  /** Output tokens the victim had generated (lost: recomputed later). */
  generated: number;
}

export interface StepDetail {
  decodes: number;
  prefill_tokens: number;
  running: number;
  waiting: number;
  step_ms: number;
  kv_used_blocks: number;
  kv_total_blocks: number;
}

export interface CompleteDetail {
  e2e_s: number;
  ttft_s: number;
  preemptions: number;
}

export type DecisionRecord = DecisionBase &
  (
    | { kind: 'arrive'; detail: ArriveDetail }
    | { kind: 'enqueue'; detail: EnqueueDetail }
    | { kind: 'reject'; detail: RejectDetail }
    | { kind: 'drr-pop'; detail: DrrPopDetail }
    | { kind: 'dispatch'; detail: DispatchDetail }
    | { kind: 'admit'; detail: AdmitDetail }
    | { kind: 'preempt'; detail: PreemptDetail }
    | { kind: 'step'; detail: StepDetail }
    | { kind: 'complete'; detail: CompleteDetail }
  );

/** Any record's detail. */
export type DecisionDetail = DecisionRecord['detail'];

/** A record before the engine numbers it (distributes over the kinds). */
export type DecisionDraft = DecisionRecord extends infer R
  ? R extends DecisionRecord
    ? Omit<R, 'seq'>
    : never
  : never;
