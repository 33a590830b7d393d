/**
 * What the core takes in: the scenario as the engine reads it, written here by hand so that the core
 * owns its inputs. The scenario format (`src/scenario/`, a higher layer) parses files into these
 * shapes and proves at compile time that what it parses is assignable to them
 * (`src/scenario/core-input.ts`), so a schema change that breaks the core fails `npm run typecheck`.
 *
 * Only the keys the core reads or passes on are here; every default is already applied (optional
 * keys are those the format leaves unset when a file does not give them). Key names are the scenario
 * format's (shared spec/scenario.md), hence snake_case.
 */
import type { RoutingChoice, SchedulerChoice } from './algorithms/index';
import type { CompiledPolicy, DynamoRelease } from './drr/types';
import type { TraceTable } from './trace/types';
import type { SloClass } from './workload/types';

// ---- lengths -----------------------------------------------------------------------------------------

/** A distribution of token counts or of seconds, with every bound filled in. */
export type Distribution =
  | { dist: 'uniform'; min: number; max: number }
  /** Normal, clipped to [min, max]. */
  | { dist: 'normal'; mean: number; std: number; min: number; max: number }
  /** Exponential with this mean, clipped at max. */
  | { dist: 'exponential'; mean: number; max: number }
  /** Lognormal: mean and std of the value itself (not of its log), clipped at max. */
  | { dist: 'lognormal'; mean: number; std: number; max: number };

/** A length: a constant or a distribution (token lengths are rounded to whole tokens ≥ 1 when drawn). */
export type Length = number | Distribution;

// ---- arrivals ----------------------------------------------------------------------------------------

/** The window of a renewal process, seconds of simulated time. */
interface ArrivalWindow {
  start_s: number;
  /** Absent: the scenario's duration_s. */
  stop_s?: number;
}

/** When a client starts a program instance. */
export type ArrivalSpec =
  /** Exponential gaps with mean 1 / rate. */
  | ({ process: 'poisson'; rate: number } & ArrivalWindow)
  /** Gamma-distributed gaps of mean 1 / rate and coefficient of variation cv. */
  | ({ process: 'gamma'; rate: number; cv: number } & ArrivalWindow)
  /** Evenly spaced, every 1 / rate seconds from start_s. */
  | ({ process: 'constant'; rate: number } & ArrivalWindow)
  /** On for duty × period_s of every period (arrivals at `rate`, gaps of variation cv), then off. */
  | ({ process: 'on-off'; rate: number; period_s: number; duty: number; cv: number } & ArrivalWindow)
  /** Explicit arrival times, seconds, any order. */
  | { process: 'trace'; times: number[] };

// ---- programs ----------------------------------------------------------------------------------------

/** Keys every program has. */
interface ProgramCommon {
  /** Output cap each request sends (SGLang max_new_tokens); absent: the largest output the length can take. */
  max_new_tokens?: number;
}

/** One request per arrival. */
export interface SingleProgram extends ProgramCommon {
  type: 'single';
  /** Prompt length, the shared prefix included. */
  prompt_tokens: Length;
  output_tokens: Length;
  /** A system prompt shared by the client's (and its prefix group's) requests; 0 = none. */
  shared_prefix_tokens: number;
}

/** A conversation: each turn's prompt is the previous turn's context plus new tokens. */
export interface MultiTurnProgram extends ProgramCommon {
  type: 'multi-turn';
  turns: number;
  /** New user tokens per turn. */
  prompt_tokens: Length;
  output_tokens: Length;
  /** Pause between a reply and the next turn, seconds. */
  think_time_s: Length;
  shared_prefix_tokens: number;
}

/** Tree of Thoughts: each node's children extend its context once it completes. */
export interface TreeOfThoughtProgram extends ProgramCommon {
  type: 'tree-of-thought';
  depth: number;
  branching: number;
  question_tokens: Length;
  /** Output of an inner node. */
  thought_tokens: Length;
  /** Output of a leaf. */
  answer_tokens: Length;
  /** Instruction tokens each child appends to its parent's context. */
  step_tokens: number;
  shared_prefix_tokens: number;
}

/** LLM-as-a-judge: `dimensions` branches over one article, then one merge. */
export interface JudgeProgram extends ProgramCommon {
  type: 'judge';
  dimensions: number;
  article_tokens: Length;
  /** Tokens before every article, the same for all of the client's articles. */
  extra_prefix_tokens: number;
  /** Per-dimension instruction after the article. */
  instruction_tokens: number;
  output_tokens: Length;
  merge_output_tokens: Length;
  /** Library size: 0 = a fresh document per arrival; N = one of N, uniformly. */
  documents: number;
}

/** Long-context QA: `questions` questions over one long document, all at the arrival. */
export interface LongQaProgram extends ProgramCommon {
  type: 'long-qa';
  document_tokens: Length;
  questions: number;
  question_tokens: Length;
  output_tokens: Length;
  /** Library size: 0 = a fresh document per arrival; N = one of N, uniformly. */
  documents: number;
}

/** What one arrival submits. */
export type ProgramSpec =
  | SingleProgram
  | MultiTurnProgram
  | TreeOfThoughtProgram
  | JudgeProgram
  | LongQaProgram;
export type ProgramType = ProgramSpec['type'];

// ---- clients and scripted requests -------------------------------------------------------------------

/** What a request carries to the router's policy-class queues. */
interface RouterFields {
  /** The class (or family) the requests ask for. */
  policy_class?: string;
  /** Model name that picks the policy profile (absent: the cluster's model). */
  model?: string;
  /** Soft priority jump in the class queues (0 = none). */
  priority: number;
  /** Strict priority tier, higher first (0 = none). */
  strict_priority: number;
  /** Pin to this worker (0-based): the routing policy is bypassed (Dynamo's per-request worker). */
  worker?: number;
  /** Due time, seconds after arrival (Dynamo v1.6 due_at); passed while queued: shed. */
  due_in_s?: number;
}

/** A client that runs a program at every arrival of its arrival process. */
export interface ProgramClientSpec extends RouterFields {
  name: string;
  slo_class: SloClass;
  /** Clients of one group share token sequences for their shared parts; absent: the client's own. */
  prefix_group?: string;
  arrival: ArrivalSpec;
  program: ProgramSpec;
}

/** `clients[].trace`: which window of which request trace a trace client replays. */
export interface ClientTraceInput {
  /** The trace file (relative to the scenario; in the page, the name a dropped file is held under). */
  file: string;
  /** Simulated seconds per trace second. */
  time_scale: number;
  /** Window, seconds of trace time after its first arrival. */
  start_s: number;
  stop_s?: number;
  max_requests?: number;
  /** Only the rows whose client column holds this name. */
  select_client?: string;
  /** The rows, once a caller has read the file (null until then). */
  data: TraceTable | null;
}

/** A client whose requests are the rows of a request trace (each row one request of this client). */
export interface TraceClientSpec extends RouterFields {
  name: string;
  slo_class: SloClass;
  trace: ClientTraceInput;
}

/** A client: an arrival process and a program, or a request trace. */
export type ClientSpec = ProgramClientSpec | TraceClientSpec;

/** True for a client that replays a trace. */
export function isTraceClient(c: ClientSpec): c is TraceClientSpec {
  return 'trace' in c && c.trace !== undefined;
}

/** One scripted request, submitted exactly at t. */
export interface ScriptedRequest extends RouterFields {
  /** Submission time, seconds. */
  t: number;
  client: string;
  /** Absent: "<client>!<index in requests>". */
  id?: string;
  prompt_tokens: number;
  /** Name of a shared prefix: requests naming the same one share their leading tokens. */
  shared_prefix?: string;
  /** Leading prompt tokens from shared_prefix. */
  shared_prefix_tokens: number;
  output_tokens: number;
  /** Absent: output_tokens. */
  max_new_tokens?: number;
  /** Absent: the client's, else standard. */
  slo_class?: SloClass;
}

// ---- cluster, replicas, router, scheduler ------------------------------------------------------------

/** The GPU cluster, 'auto' capacity resolved. */
export interface ClusterSpec {
  /** Replicas. */
  workers: number;
  /** A key of GPUS (core/cost). */
  gpu: string;
  /** A key of MODELS (core/cost). */
  model: string;
  /** KV-cache tokens per replica. */
  kv_cache_tokens: number;
  /** Tokens per KV block. */
  block_size: number;
  /** Token budget of one batch step. */
  max_batch_tokens: number;
  /** Most sequences running on a replica at once. */
  max_running: number;
  /** Victim rule; absent: sglang, or fcfs under worker.admission optimistic. */
  preemption?: 'fcfs' | 'priority' | 'sglang';
  prefix_caching: boolean;
  /** Absent: fixed chunks of max_batch_tokens. */
  chunking?: {
    mode: 'fixed' | 'dynamic';
    /** Fixed chunk size, tokens. */
    chunk_tokens: number;
    /** Step-time target of dynamic chunking, ms. */
    target_step_ms: number;
  };
}

/** How each replica admits requests (`worker:`). */
export interface ReplicaSpec {
  admission: 'sglang' | 'optimistic';
}

/** Service weights: service per uncached input token and per output token. */
export interface ServiceWeights {
  input: number;
  output: number;
}

/**
 * `router:`: the routing and its own parameters (declared by its descriptor in `core/algorithms`), and
 * the compiled policy file (null: none).
 */
export type RouterSpec = RoutingChoice & {
  policy: CompiledPolicy | null;
  /**
   * The Dynamo release whose class queue the run models (`v1.3`: one heap per class, a blocked
   * pinned head blocks its class; later: exact-worker lanes). Absent: the newest release that
   * accepts the policy file.
   */
  dynamo_release?: DynamoRelease;
};

/** `scheduler:`: the worker-local policy and its own parameters, and the service weights. */
export type SchedulerSpec = SchedulerChoice & { weights: ServiceWeights };

// ---- trace replay ------------------------------------------------------------------------------------

/** `trace:`: which window of a request trace to replay, and as whom. */
export interface TraceInput {
  /** Path the CLI reads (only named in messages here). */
  file?: string;
  /** Simulated seconds per trace second. */
  time_scale: number;
  /** Window, seconds of trace time after its first arrival. */
  start_s: number;
  stop_s?: number;
  max_requests?: number;
  /** Client of rows without one. */
  client: string;
  slo_class: SloClass;
  policy_class?: string;
  model?: string;
  /** The rows, once a caller has read the file (null until then). */
  data: TraceTable | null;
}

// ---- the scenario ------------------------------------------------------------------------------------

/** The scenario as the engine reads it: every default applied, the policy compiled. */
export interface SimScenario {
  /** Shown in results and snapshots. */
  name: string;
  /** All randomness derives from it. */
  seed: number;
  /** Arrivals stop at this simulated time; the run then drains. */
  duration_s: number;
  cluster: ClusterSpec;
  worker: ReplicaSpec;
  router: RouterSpec;
  scheduler: SchedulerSpec;
  clients: ClientSpec[];
  requests: ScriptedRequest[];
  trace?: TraceInput;
}
