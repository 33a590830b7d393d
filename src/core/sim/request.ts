/**
 * A request as the engine tracks it. Every piece of per-request state lives in a flat field (no
 * nested objects, no per-token allocation) because the batch loop touches each running request on
 * every step.
 */
import { PageSeq } from '../replica/pages';
import type { RadixNode } from '../replica/radix-cache';
import { type PromptSource, SLO_PRIORITY, type RequestSpec } from '../workload/types';

/** Lifecycle: new → (router queue →) waiting at a worker → running → done; preemption goes back to waiting. */
export const ReqState = {
  New: 0,
  RouterQueued: 1,
  Waiting: 2,
  Running: 3,
  Done: 4,
  Rejected: 5,
} as const;
export type ReqState = (typeof ReqState)[keyof typeof ReqState];

/** Context window assumed for a request sent without max_new_tokens (Llama-3.1's 128k). */
export const CONTEXT_WINDOW_TOKENS = 131_072;

export class SimRequest {
  readonly id: string;
  readonly spec: RequestSpec;
  /** Index of the client in the workload's client list. */
  readonly client: number;
  readonly promptLen: number;
  /**
   * The prompt when the spec describes it instead of holding its ids (a trace row, a program's chain
   * of id streams): its page fingerprints and, if a policy asks, its ids are computed from it on
   * demand. Null: `spec.tokens` (a spec built with its ids, as tests do).
   */
  private readonly prompt: PromptSource | null;
  /** Page fingerprints of the prompt for the last block size asked (null: not computed, or dropped). */
  private seq: PageSeq | null = null;
  /** Token ids of a described prompt, once a policy asked for them (null: not materialised). */
  private ids: Int32Array | null = null;
  /** True output length: the worker stops generating at it. Routers and local policies must not read it. */
  readonly outputLen: number;
  /**
   * The request's output cap (SGLang `max_new_tokens`): all a scheduler may know of its output in
   * advance. A request sent without one gets what SGLang's server fills in: the context window left.
   */
  readonly maxNewTokens: number;
  /** SLO priority (lower = more urgent). */
  readonly priority: number;
  /** Order of submission over the run (a stable tie-breaker for every policy). */
  readonly serial: number;

  state: ReqState = ReqState.New;
  worker = -1;

  // ---- timestamps (simulated seconds; NaN until they happen) ----
  arrivalT: number;
  enqueueT = Number.NaN;
  /** When the router handed it to a worker (first time). */
  dispatchT = Number.NaN;
  firstScheduleT = Number.NaN;
  firstTokenT = Number.NaN;
  completionT = Number.NaN;

  // ---- progress on the current worker ----
  /** Prefix tokens served from the radix cache at the current admission. */
  cachedLen = 0;
  /** Prompt tokens covered by the locked radix path (the cached prefix, then the whole cached prompt). */
  coveredLen = 0;
  /** Prompt tokens whose KV exists (cached prefix included). */
  prefilled = 0;
  /** Output tokens generated so far (the first comes with the end of prefill). */
  generated = 0;
  /** Tokens this step processes: a prefill chunk, 1 for a decode, 0 when not scheduled. */
  chunk = 0;
  /** Tokens held in private KV blocks (not in the radix tree). */
  privTokens = 0;
  privBlocks = 0;
  /** The radix node locked for this request (its cached prefix), or null. */
  lockNode: RadixNode | null = null;
  /** Remaining prefill tokens counted in the worker's active-prefill load. */
  pendingPrefill = 0;
  preemptions = 0;
  /**
   * Output tokens already counted in the client's view of service (metrics): a preempted request
   * that generates them again is not credited twice.
   */
  servedOutput = 0;

  // ---- router facts ----
  /** Best prefix overlap among eligible workers when the router saw it. */
  routerCached = 0;
  /**
   * Prefill tokens the router's own load record holds for this request on its worker (Dynamo's
   * `ActiveSequencesMultiWorker`): booked when the router sends it, 0 once its prefill completed or
   * it was freed.
   */
  routerBooked = 0;
  /** Policy-class queue class name, when the policy queue is on. */
  routerClass = '';

  /** Hash of the prompt's first tokens for in-batch prefix deferral (-2: not computed yet). */
  headKey = -2;

  /** Free slots for local policies (counters, keys, deadlines); the engine never reads them. */
  policyKey = 0;
  policyAux = 0;

  constructor(spec: RequestSpec, client: number, serial: number, arrivalT: number) {
    this.id = spec.id;
    this.spec = spec;
    this.client = client;
    this.prompt = spec.prompt ?? null;
    this.promptLen = this.prompt !== null ? this.prompt.length : spec.tokens.length;
    this.maxNewTokens = Math.max(1, Math.floor(spec.maxNewTokens ?? CONTEXT_WINDOW_TOKENS - this.promptLen));
    // a server stops at max_new_tokens
    this.outputLen = Math.min(Math.max(1, Math.floor(spec.outputTokens)), this.maxNewTokens);
    this.priority = SLO_PRIORITY[spec.sloClass] ?? 1;
    this.serial = serial;
    this.arrivalT = arrivalT;
  }

  /**
   * The prompt's token ids. A described prompt is materialised on the first call and kept until
   * `compact`; the engine's own paths read `pages` instead (and the in-batch prefix check reads
   * `promptHead`), so only a policy that compares whole prompts' ids itself pays for it.
   */
  get tokens(): Int32Array {
    if (this.prompt === null) return this.spec.tokens;
    this.ids ??= this.prompt.tokens();
    return this.ids;
  }

  /** Write the prompt's ids [from, from + count) at `out[at]` (without materialising a described prompt). */
  writePrompt(out: Int32Array, at: number, from: number, count: number): void {
    if (this.ids === null && this.prompt !== null) this.prompt.write(out, at, from, count);
    else out.set(this.tokens.subarray(from, from + count), at);
  }

  /**
   * The prompt's first `n` ids (all of them when it is shorter), computed each call: what a policy
   * that compares prompt heads reads, without materialising a described prompt's ids.
   */
  promptHead(n: number): Int32Array {
    const count = Math.min(n, this.promptLen);
    if (this.prompt === null || this.ids !== null) return this.tokens.subarray(0, count);
    const out = new Int32Array(count);
    this.prompt.write(out, 0, 0, count);
    return out;
  }

  /** The prompt's page fingerprints for pages of `size` tokens (computed once, kept until `compact`). */
  pages(size: number): PageSeq {
    const s = this.seq;
    if (s !== null && s.size === size) return s;
    const p = this.prompt;
    const seq =
      p !== null ? new PageSeq(size, p.length, p.pages(size)) : PageSeq.fromTokens(this.spec.tokens, size);
    this.seq = seq;
    return seq;
  }

  /**
   * Drop what can be computed again (#15.3), so a request waiting in a queue, or finished, holds no
   * prompt-sized array of its own: its page fingerprints, the ids of its prompt if a policy asked for
   * them, and (waiting, or rejected) what its prompt remembers for it alone. A trace row's prompt is
   * computed again from its row (one pass over its block list); a program's prompt from its chain of
   * segments, copying the fingerprints its context's segments keep (a tree's question, a parent's
   * reply: see ../workload/prompt.ts) and hashing only the rest. A finished request's own segments
   * keep theirs: the follow-ups that extend it read them, and they go when the last of those does.
   */
  compact(): void {
    const p = this.prompt;
    if (p === null) return;
    this.seq = null;
    this.ids = null;
    if (this.state !== ReqState.Done) p.release?.();
  }

  /** Prefill not finished yet (decoding starts once all prompt tokens have KV). */
  get inPrefill(): boolean {
    return this.prefilled < this.promptLen;
  }
}
