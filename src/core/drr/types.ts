/**
 * Plain data types of the router's policy-class queues (Dynamo's DRR arbitration).
 *
 * Everything here is JSON-friendly (no Maps, no class instances) so a compiled policy, a snapshot or a
 * decision record can cross a Web Worker boundary unchanged. The YAML parser in src/policy produces
 * `PolicyFile` / `CompiledPolicy` values; src/core never imports src/policy.
 */

/** Order inside one class: first come first served, or weighted shortest processing time. */
export type QueuePolicy = 'fcfs' | 'wspt';

/** Released Dynamo lines whose policy queue the playground models. */
export type DynamoRelease = 'v1.3' | 'v1.4' | 'v1.5' | 'v1.6';

/** Which cursor rule the arbitration follows: the router code's (`v2`, default) or the docs' (`v1`). */
export type DrrVariant = 'v1' | 'v2';

// ---- the policy file as written (snake_case, exactly Dynamo's keys) --------------------------------

/**
 * One of Dynamo's unsigned 64-bit integers as written: a number below 2^53, a BigInt above (exact up
 * to 2^64 - 1).
 */
export type U64 = number | bigint;

/** One `uncached_isl_buckets` entry as written in the YAML. */
export interface PolicyBucketEntry {
  min_tokens: U64;
  bucket: string;
}

/** One `policy_classes` entry as written in the YAML. */
export interface PolicyClassEntry {
  name: string;
  quantum: U64;
  policy_family?: string;
  cache_bucket?: string;
  queue_policy?: QueuePolicy;
  prefill_busy_threshold?: U64;
  prefill_busy_threshold_frac?: number;
  busy_worker_ratio?: number;
  request_queue_limit_per_worker?: U64;
  raw_isl_token_queue_limit_per_worker?: U64;
  cached_token_queue_limit_per_worker?: U64;
  /** Dynamo v1.4.x only; kept for validation and display, not simulated. */
  queue_admission?: QueueAdmissionEntry;
}

/** A class's `queue_admission` (v1.4.x): `session_aware` with knobs, or the later `{type, options}`. */
export interface QueueAdmissionEntry {
  type: string;
  options?: Record<string, unknown>;
  pause_threshold?: number;
  pause_target?: number;
  resume_hysteresis?: number;
  resume_timeout_seconds?: number;
  resume_priority_boost?: number;
  scheduler_interval_seconds?: number;
  acting_token_weight?: number;
  acting_decay_tau_seconds?: number;
  buffer_per_program?: number;
}

/** Top-level `worker_selection` (v1.5.0+): stage targets naming instances or `default`. */
export interface WorkerSelectionEntry {
  aggregated?: string;
  prefill?: string;
  decode?: string;
  encode?: string;
  instances?: { name: string; type: string; parameters?: Record<string, unknown> }[];
}

/** Top-level `request_classifier` (v1.6.0+): a plugin by type. */
export interface RequestClassifierEntry {
  type: string;
  parameters?: Record<string, unknown>;
}

/** A profile as written: the root's three keys, or one `models:` entry. */
export interface PolicyProfileEntry {
  default_policy_family?: string;
  uncached_isl_buckets?: PolicyBucketEntry[];
  policy_classes: PolicyClassEntry[];
}

/** The validated policy file, key for key as the user wrote it. */
export interface PolicyFile {
  default_policy_family?: string;
  uncached_isl_buckets?: PolicyBucketEntry[];
  policy_classes?: PolicyClassEntry[];
  models?: Record<string, PolicyProfileEntry>;
  worker_selection?: WorkerSelectionEntry;
  request_classifier?: RequestClassifierEntry;
  /**
   * Process-wide scoring knobs of the default worker selector (Dynamo v1.6.0+), kept as written:
   * the keys were not verified against the release, and the playground does not simulate them.
   */
  router?: Record<string, unknown>;
}

// ---- the compiled policy (what the queue runs on) ------------------------------------------------------

/** A physical class: one heap, one deficit, one quantum. Optional numbers are absent when not configured. */
export interface ClassConfig {
  name: string;
  /** DRR credit granted per ring round, in uncached tokens (> 0); rounded when above 2^53 (see `quantumBig`). */
  quantum: number;
  /** The exact quantum when it is above 2^53 - 1 (Dynamo's u64 goes to 2^64 - 1); absent otherwise. */
  quantumBig?: bigint;
  /** Set for a matrix class (together with `cacheBucket`); absent for an explicit class. */
  policyFamily?: string;
  cacheBucket?: string;
  queuePolicy: QueuePolicy;
  /** A worker is busy for this class when its active prefill tokens exceed this. */
  prefillBusyThreshold?: number;
  /** ... or exceed this fraction of the worker's max batched tokens. */
  prefillBusyThresholdFrac?: number;
  /** With a threshold: the pool is busy once busy workers reach this fraction of the eligible ones. */
  busyWorkerRatio?: number;
  requestQueueLimitPerWorker?: number;
  rawIslTokenQueueLimitPerWorker?: number;
  cachedTokenQueueLimitPerWorker?: number;
}

export interface BucketConfig {
  /** Smallest uncached-token count that falls into this bucket. */
  minTokens: number;
  bucket: string;
}

/** One matrix cell: (family, bucket) -> index into `Profile.classes`. */
export interface MatrixCell {
  family: string;
  bucket: string;
  classIndex: number;
}

/** A set of classes that arbitrate together (the root profile, a model's profile or the synthetic one). */
export interface Profile {
  /** Display name: `(root)`, `(default)` or the model name. */
  name: string;
  /** The model this profile belongs to; null for the root and the synthetic default profile. */
  model: string | null;
  /** Null only for profiles without matrix classes (the sandbox's explicit-only shorthand, the synthetic default). */
  defaultFamily: string | null;
  buckets: BucketConfig[];
  /** Declaration order; this is the DRR ring order. */
  classes: ClassConfig[];
  /** Families named by matrix classes, in first-mention order. */
  families: string[];
  cells: MatrixCell[];
}

/** A validated policy ready for the queue. */
export interface CompiledPolicy {
  root: Profile | null;
  /** Model profiles in declaration order. */
  models: Profile[];
  /** Released Dynamo versions that accept this file (e.g. ['v1.5', 'v1.6']); absent = every release. */
  releases?: string[];
  /** What the playground cannot simulate of this file and what it does instead (plain sentences). */
  notes?: string[];
}

// ---- requests ------------------------------------------------------------------------------------------

/** What a caller knows about a request when it reaches the router. */
export interface RequestFacts {
  /** The class name the request asks for (a header in Dynamo); null/absent = none. */
  requestedClass?: string | null;
  model?: string | null;
  /** Raw input tokens. */
  rawIsl: number;
  /** Best prefix-cache overlap among the eligible workers, taken once at enqueue. */
  cachedTokens: number;
}

/** The immutable snapshot taken at enqueue time. */
export interface RequestCost {
  rawIsl: number;
  /** min(cachedTokens, rawIsl). */
  cached: number;
  /** rawIsl - cached. */
  uncached: number;
  /** max(1, uncached): what DRR and WSPT charge. */
  cost: number;
}

/** Where a request lands: profile, class and its cost snapshot. */
export interface ClassRef extends RequestCost {
  /** Index into the queue's profile list (see `PolicyQueue.profiles()`). */
  profileIndex: number;
  profile: string;
  classIndex: number;
  className: string;
}

export interface QueueRequestInput<T = unknown> extends RequestFacts {
  id: string;
  /** Soft priority jump (float); default 0. */
  priority?: number;
  /** Strict tier (unsigned integer); higher tiers always first; default 0. */
  strictPriority?: number;
  /** Arrival time in simulated seconds since the start; default 0. */
  arrivalS?: number;
  /**
   * The worker (rank index) the request is pinned to; null/absent = any eligible worker. From Dynamo
   * v1.4 a pinned request waits in its class's exact-worker lane for that worker.
   */
  worker?: number | null;
  /**
   * Due time in simulated seconds (a request classifier's `due_at`, Dynamo v1.6+): orders the request
   * ahead of those without one in its strict tier, and a pop after it sheds the request unserved.
   */
  dueS?: number | null;
  payload: T;
}

/** A request waiting in a class heap. */
export interface QueuedRequest<T = unknown> {
  id: string;
  ref: ClassRef;
  priority: number;
  strictPriority: number;
  arrivalS: number;
  /** Enqueue sequence number shared by all classes (smaller = earlier). */
  seq: number;
  /** Pinned worker (rank index), or -1 for any worker. */
  worker: number;
  /** Due time in seconds (`due_at`); absent = none. */
  due?: number;
  /** Policy score (FCFS or WSPT), precomputed; larger first. */
  score: number;
  payload: T;
}

export type RejectReason = 'request_queue_limit' | 'raw_isl_token_queue_limit' | 'cached_token_queue_limit';

export type EnqueueResult =
  | { accepted: true; ref: ClassRef }
  | { accepted: false; ref: ClassRef; reason: RejectReason; current: number; limit: number };

/** What `isDispatchable` sees besides the head: the class and its live DRR state. */
export interface ClassState {
  readonly index: number;
  readonly config: ClassConfig;
  readonly name: string;
  readonly deficit: number;
  readonly queued: number;
}

// ---- decisions -----------------------------------------------------------------------------------------

/**
 * What one class visit found:
 * - `empty`: nothing queued (deficit reset to 0);
 * - `blocked`: head not dispatchable (deficit kept, no credit);
 * - `affordable`: the existing deficit already covers the head;
 * - `granted`: one quantum added, and now it covers the head;
 * - `unaffordable`: one quantum added (or, for the carry, none) and the head still costs more;
 * - `chosen`: picked in the final scan after the bulk credit;
 * - `short`: final scan, still not enough credit.
 */
export type VisitOutcome =
  | 'empty'
  | 'blocked'
  | 'affordable'
  | 'granted'
  | 'unaffordable'
  | 'chosen'
  | 'short';

export interface ClassVisit {
  /** `carry`: the remaining burst tried first (V2); `scan`: the ring scan; `final`: after bulk credit. */
  phase: 'carry' | 'scan' | 'final';
  class: string;
  /** The class's quantum, so a record explains itself without the policy at hand. */
  quantum?: number;
  outcome: VisitOutcome;
  head_id: string | null;
  head_cost: number | null;
  deficit_before: number;
  deficit_after: number;
}

export interface DeficitChange {
  class: string;
  before: number;
  after: number;
}

/** Everything one `pop` examined and why it chose what it chose. */
export interface DrrPopRecord {
  variant: DrrVariant;
  profile: string;
  visits: ClassVisit[];
  /** Virtual rounds granted in bulk (null when the bulk step did not run). */
  bulk_rounds: number | null;
  /** Per class, in ring order. */
  deficits: DeficitChange[];
  cursor_before: string | null;
  cursor_after: string | null;
  carry_before: string | null;
  carry_after: string | null;
  chosen: { id: string; class: string; cost: number } | null;
  /** Class heads examined (for the O(C) property: at most 2·C). */
  heads_touched: number;
  summary: string;
  /**
   * Requests shed in this pop because their due time had passed (absent when none), with how late
   * each was at the pop's time (milliseconds, truncated, as the CLI's `arbitrate` lines print it).
   */
  expired?: { id: string; class: string; overdue_ms: number }[];
}

export interface PopResult<T = unknown> {
  request: QueuedRequest<T> | null;
  /** Requests shed unserved in this pop because their due time had passed (in shedding order). */
  expired: QueuedRequest<T>[];
  /** Null when the caller asked for `{ record: false }`. */
  record: DrrPopRecord | null;
  /** Class heads examined during this pop (always counted, even without a record). */
  headsTouched: number;
}

export interface PopOptions {
  /** Build the detailed decision record (default true). The hot path passes false. */
  record?: boolean;
  /** Simulated time of the pop in seconds: heads whose due time is before it are shed. Default: never shed. */
  now?: number;
  /** Which profile's ring to arbitrate (index from `profiles()`); default: rotate over profiles with backlog. */
  profileIndex?: number;
}

/** The live DRR state of one profile, as shown by the UI (the test hook snapshot field `drr`). */
export interface DrrSnapshot {
  /** Name of the class the next ring scan starts from (null when the profile has no classes). */
  cursor: string | null;
  carry: string | null;
  classes: {
    name: string;
    quantum: number;
    /** Rounded above 2^53; `deficit_exact` then has every digit. */
    deficit: number;
    /** The exact deficit as decimal digits, present only when it is above 2^53 - 1. */
    deficit_exact?: string;
    queued: number;
    head_cost: number | null;
    blocked?: boolean;
  }[];
  variant: DrrVariant;
  profile: string;
}

// ---- arbitration scripts (the DRR sandbox; parsed in src/policy/script.ts) ------------------------------

export interface ScriptEnqueueOp {
  kind: 'enqueue';
  id: string;
  requestedClass: string | null;
  model: string | null;
  rawIsl: number;
  cachedTokens: number;
  priority: number;
  strictPriority: number;
  arrivalS: number;
  /** Pinned worker index (0-based, below the script's `workers`); null/absent = any. */
  worker?: number | null;
  /** Due time in seconds (`due_at`); null/absent = none. */
  dueS?: number | null;
}

export interface ScriptPopOp {
  kind: 'pop';
  /** How many arbitrations this op performs (prints one line each). */
  count: number;
  /** Class names whose heads are not dispatchable during this op. */
  blocked: string[];
  /** Worker indexes that are busy during this op: heads pinned to them are not dispatchable. */
  busyWorkers?: number[];
  /** Simulated time of these pops in seconds (due times before it expire); null/absent = never expire. */
  at?: number | null;
  /** Arbitrate this model's profile; null = the profile of the script's first enqueue. */
  model: string | null;
}

export type ScriptOp = ScriptEnqueueOp | ScriptPopOp;

export interface ArbitrationScript {
  name?: string;
  description?: string;
  /** Null = no policy: the synthetic `default` class (see also `unreadPolicyFile`). */
  policy: CompiledPolicy | null;
  /**
   * Set when the script names a `policy_file` that was not read (the parser had no file reader, as
   * in the browser): `policy` is then null and running the script would use the wrong classes.
   */
  unreadPolicyFile?: string;
  workers: number;
  variant: DrrVariant;
  /**
   * The Dynamo release line whose queue the script models: from v1.4 a class keeps exact-worker
   * lanes (a pinned, blocked head no longer blocks the rest of its class). Default: the newest.
   */
  release?: DynamoRelease;
  ops: ScriptOp[];
  /**
   * Playground only: the leading enqueue ops run when the script loads, so that step 1 is the first
   * pop (a queue that is already full when the viewer arrives). The CLI runs every op regardless.
   */
  preload?: boolean;
}

/** One output line of `arbitrate` (spec/cli.md); serialise with `outputLineJson` to keep key order. */
export type ScriptOutputLine =
  | {
      op: 'enqueue';
      id: string;
      class: string;
      accepted: boolean;
      reason?: RejectReason;
      current?: number;
      limit?: number;
    }
  | {
      op: 'pop';
      id: string | null;
      class?: string;
      cost?: number;
      /**
       * Every class of the profile in use, in declaration order (an array: names like "1" would
       * reorder in an object). `exact` holds every digit of a deficit above 2^53 - 1.
       */
      deficits: { class: string; deficit: number; exact?: string }[];
      cursor: string | null;
      carry: string | null;
      /** Requests shed in this pop because their due time had passed (only printed when non-empty). */
      expired?: { id: string; class: string; overdue_ms: number }[];
    };
