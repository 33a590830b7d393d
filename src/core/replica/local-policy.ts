/**
 * The plug-in point for worker-local queue policies. Each one (FCFS, priority-FCFS, SJF,
 * reverse-priority, LPM, DFS-weight, VTC, DLPM, EDF, LRS, ...) lives in its own folder under
 * src/core/algorithms/ and is registered by the descriptor list there.
 *
 * A policy owns its worker's waiting queue. In every batch step, after decodes and partial prefills
 * have taken their share, the worker calls `admit(ctx)`; the policy offers candidates in its own
 * order through `ctx.tryAdmit(req)` and removes the ones admitted from its queue. The worker does the
 * mechanics (prefix match, KV allocation all-or-nothing, slots, token budget) and writes the decision
 * record; the policy supplies the reason and its typed decision detail. Charging happens inside
 * `admit` (after an admission) and in `onStepEnd` (after each batch step): VTC's counters and
 * DLPM's deficits live there.
 */
import type { LocalDecisionDetail } from '../algorithms/details';
import type { GpuProfile, ModelProfile } from '../cost';
import type { SimRequest } from '../sim/request';
import type { KvCache } from './kv-cache';
import type { RadixCache } from './radix-cache';

/** Read-only facts about the worker a policy may use. */
export interface WorkerView {
  readonly id: number;
  /** Simulated time of the current decision. */
  readonly now: number;
  /** The worker's prefix cache: `radix.matchLength(req.pages(radix.blockSize))` gives a request's cached prefix here. */
  readonly radix: RadixCache;
  readonly kv: KvCache;
  readonly runningCount: number;
  readonly maxRunning: number;
  readonly maxBatchTokens: number;
  /**
   * Longest-prefix orders put a waiting request with (almost) nothing cached that shares its first
   * tokens with an earlier waiting request last, as SGLang's in-batch prefix caching does (on under
   * sglang admission; see ./sglang.ts).
   */
  readonly deferSharedPrefixes?: boolean;
  /** Hardware and model profiles (for cost predictions such as Vajra's prefill-time deadlines). */
  readonly gpu: GpuProfile;
  readonly model: ModelProfile;
  /**
   * A waiting request whose cached prefix is at most `match` tokens surely gets 'no-kv' from
   * `tryAdmit`, which then changes nothing (no cache lock, no LRU time), when
   * `refusalKey(req, match) > refusalRoom()`. The key is fixed while the match is; within one
   * admission step the room never grows and a match never grows, so a policy may keep the keys of
   * its waiting requests and skip, without trying them, those above the room.
   */
  refusalKey(req: SimRequest, match: number): number;
  /** The room `refusalKey` is compared with, now. */
  refusalRoom(): number;
  /**
   * True under SGLang admission (worker.admission: sglang): `tryAdmit`'s first check reserves output,
   * and `refusalKey` is that check's need for every request, in tokens: its uncached prompt plus its
   * own output estimate (refused when above free + evictable blocks × block size − the output
   * tokens this step's admissions keep free, `refusalRoom`). It is then at least the uncached
   * prompt, and the room at most free + evictable tokens. False or absent: optimistic admission
   * (the key is the uncached prompt's blocks, the room free + evictable blocks).
   */
  readonly reservesOutput?: boolean;
}

/** What `tryAdmit` found: admitted, or which resource stopped it. */
export type AdmitOutcome = 'admitted' | 'no-kv' | 'no-slot' | 'no-budget';

export interface AdmissionContext {
  readonly worker: WorkerView;
  /** Running slots still free this step. */
  readonly slotsLeft: number;
  /** Tokens of this step's budget still free. */
  readonly budgetLeft: number;
  /** Decision records are being built (a policy may skip building `detail` otherwise). */
  readonly recording: boolean;
  /**
   * Try to start `req` (which must be in this policy's queue). On 'admitted' the request is running,
   * `req.cachedLen` tells its cached prefix, and the policy must remove it from its queue.
   * `why` is a short reason for the decision record; `detail` the policy's typed facts.
   */
  tryAdmit(req: SimRequest, why?: string, detail?: LocalDecisionDetail): AdmitOutcome;
}

export interface LocalPolicy {
  readonly name: string;
  /**
   * The engine this policy stands for has no running-request limit (Preble's SGLang fork): the
   * worker then does not apply `cluster.max_running` (WorkerView.maxRunning is unbounded). Absent:
   * the configured limit holds.
   */
  readonly noRunningLimit?: boolean;
  /**
   * Preble's non-chunked step (its SGLang fork's forward_step, taken while this returns true at a
   * step's start): the worker offers admissions first, with no token budget and whole prompts; if
   * any is admitted the step runs only those prefills (running requests wait), else it starts a run
   * of decode steps that does not call `admit`, ended by a completion, by the worker's decode
   * counter reaching a multiple of `decodeRun.streamInterval`, or after `decodeRun.steps` steps.
   * Absent: every step is the chunked one.
   */
  wholePrefillStep?(worker: WorkerView): boolean;
  /** With `wholePrefillStep`: the run of decode steps that follows a step admitting nothing. */
  readonly decodeRun?: { readonly steps: number; readonly streamInterval: number };
  /** Requests waiting at this worker. */
  size(): number;
  /** A request joins the queue; `front` is set for a preempted request (it goes back first). */
  enqueue(req: SimRequest, worker: WorkerView, front: boolean): void;
  /** Offer waiting requests for admission, in the policy's order, until it or the worker says stop. */
  admit(ctx: AdmissionContext): void;
  /**
   * A batch step finished. `batch` holds the worker's running requests; those with `chunk > 0` ran
   * (a decode has chunk 1 and produced one output token; a prefill chunk processed `chunk` tokens).
   */
  onStepEnd?(batch: readonly SimRequest[], worker: WorkerView): void;
  /** A running request was preempted (it is re-enqueued with `front` right after). */
  onPreempt?(req: SimRequest, worker: WorkerView): void;
  /** Waiting requests in the order the policy would now consider them (first `limit`). */
  waiting(limit: number): SimRequest[];
  /** Per-client state for snapshots (VTC counters, DLPM deficits), by client index. */
  clientState?(): ClientPolicyState;
}

/**
 * What a worker-local policy keeps per client, indexed by the scenario's client order, for the
 * snapshot's client rows: DLPM's deficit (a client's `deficit` sums it over workers) or VTC's
 * virtual-token counter (a client's `counter` is the largest over workers).
 */
export type ClientPolicyState =
  | { kind: 'deficit'; deficit: readonly number[] }
  /** `weight`: each client's fair weight (VTC's client_weights; 1 when not named), when any is not 1. */
  | { kind: 'counter'; counter: readonly number[]; weight?: readonly number[] };

/** What a policy factory receives; `P` is the algorithm's own parameters (its folder's zod shape). */
export interface LocalPolicyConfig<P = unknown> {
  workerId: number;
  /** Client names, index = `SimRequest.client`. */
  clients: readonly string[];
  /** Service weights w_e (per uncached input token) and w_q (per output token). */
  weights: { input: number; output: number };
  /** The algorithm's parameters from the scenario's `scheduler` section, defaults applied. */
  params: P;
}
