/**
 * The vocabulary shared by the workload generator and the simulation engine: what a request looks
 * like when a client submits it, and the events a workload feeds into the engine's event queue.
 */

/** Service-level class of a client or request (BLIS names). */
export type SloClass = 'critical' | 'standard' | 'batch' | 'sheddable' | 'background';

/** SLO class → numeric priority used by priority-ordered policies (lower = more urgent). */
export const SLO_PRIORITY: Record<SloClass, number> = {
  critical: 0,
  standard: 1,
  batch: 5,
  sheddable: 6,
  background: 7,
};

/** Every SLO class, most urgent first (for schemas and legends). */
export const SLO_CLASSES: readonly SloClass[] = ['critical', 'standard', 'batch', 'sheddable', 'background'];

/**
 * One request as the workload creates it. Token ids are deterministic stand-ins for real tokens:
 * requests that share a prefix (same document, same system prompt, a chat turn extending the
 * previous turn's context, a tree node extending its parent) have identical leading token ids.
 * The ids the model "generates" are given by `outputTokenIds(request)` (src/core/workload/tokens.ts),
 * so a follow-up whose prompt contains this request's reply matches it in a radix cache.
 */
export interface RequestSpec {
  /** Unique and stable, e.g. "alice#12.3" (client, program instance, node index). */
  id: string;
  client: string;
  /**
   * The full prompt (length = prompt tokens, ≥ 1). With `prompt` set, reading it computes the ids
   * (the engine reads `prompt` instead).
   */
  tokens: Int32Array;
  /**
   * The prompt described instead of held (a trace row, a program's chain of id streams): length, ids
   * on demand, page fingerprints.
   */
  prompt?: PromptSource;
  /** True output length (≥ 1, ≤ maxNewTokens). Routers and schedulers must never read it. */
  outputTokens: number;
  /**
   * The output cap the client sends (SGLang's `max_new_tokens`): what a scheduler may know about the
   * output in advance. Absent: no cap was sent (the worker then assumes SGLang's clipped estimate).
   */
  maxNewTokens?: number;
  sloClass: SloClass;
  /** Requested router policy class (optional). */
  policyClass?: string;
  /** Model name for policy-profile selection at the router (optional). */
  model?: string;
  /** Soft priority jump for the router's policy-class queues (Dynamo `priority`; default 0). */
  priority?: number;
  /** Strict priority tier for the router's policy-class queues (Dynamo `strict_priority`; default 0). */
  strictPriority?: number;
  /** The worker (0-based) the request is pinned to (Dynamo's per-request pinned worker); absent = any. */
  worker?: number;
  /** Seconds after arrival when the request is due (a classifier's `due_at`, Dynamo v1.6); absent = none. */
  dueInS?: number;
  /** Program instance id, e.g. "alice#12". */
  program: string;
  /** Node label within the program, e.g. "turn 3", "depth 2 branch 1", "merge". */
  node: string;
}

/**
 * A prompt that computes its token ids and page fingerprints on demand instead of holding them (#14,
 * #15.3): a trace row's prompt is a list of shared prefix blocks, and ~145 M ids of a trace need
 * never exist at once.
 */
export interface PromptSource {
  /** Prompt tokens (≥ 1). */
  readonly length: number;
  /** The ids (a new array each call). */
  tokens(): Int32Array;
  /** Write ids [from, from + count) at `out[at]`. */
  write(out: Int32Array, at: number, from: number, count: number): void;
  /**
   * Page fingerprints for pages of `size` tokens (../replica/pages.ts layout: key, check per whole
   * page). Pages that have the same ids get the same two words wherever they occur: either the words
   * are `writePage` of the ids, or (trace blocks) a function of where the ids come from that no other
   * source of ids can produce.
   */
  pages(size: number): Int32Array;
  /**
   * Drop what the source remembers for this prompt alone (its own segments' fingerprints), when its
   * request waits in a queue. Optional: a source that remembers nothing has none.
   */
  release?(): void;
}

export type WorkloadEvent =
  /** A client's arrival process fires: the workload starts one program instance. */
  | { t: number; kind: 'arrival'; client: string }
  /** A request is submitted at t (scripted, or a follow-up of a completed request). */
  | { t: number; kind: 'submit'; request: RequestSpec };

export interface Workload {
  /** Client names in declaration order (then clients named only by scripted requests). */
  readonly clients: readonly string[];
  /** Events known at t = 0: each client's first arrival (if < duration) and the scripted requests. */
  initialEvents(): WorkloadEvent[];
  /**
   * A client's arrival fires at t: the requests it submits now, and its next arrival event
   * (null when the next would be ≥ duration_s or past the client's stop time).
   */
  onArrival(client: string, t: number): { submit: RequestSpec[]; next: WorkloadEvent | null };
  /**
   * A request finished at t: follow-up submissions (next chat turn after think time, tree children,
   * the judge's merge once all branches are done). Unknown or finished ids give [].
   */
  onComplete(requestId: string, t: number): WorkloadEvent[];
  /**
   * A request was rejected or dropped and will never complete: its program forgets what depended
   * on it (the conversation ends, the subtree is abandoned, the merge never runs). Returns [] today;
   * calling it keeps the workload's memory bounded under rejection.
   */
  onReject(requestId: string, t: number): WorkloadEvent[];
}
