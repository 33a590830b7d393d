/**
 * One GPU replica: a paged KV cache, a radix prefix cache, a waiting queue owned by a local policy and
 * a continuously batched running set.
 *
 * A batch step is planned at its start and applied at its end:
 *   1. every running request past its prefill decodes one token (KV for it reserved now; if the pool
 *      is short, unlocked cache leaves are evicted, then running requests are preempted — recompute);
 *   2. running requests still in prefill continue with a chunk (chunked prefill);
 *   3. the local policy admits new requests while slots, token budget and KV allow.
 * Everything stays within `maxBatchTokens` tokens and `maxRunning` sequences. The step lasts
 * `stepTimeS` of the cost model for the aggregated batch shape.
 *
 * KV ledger: allocated blocks = blocks of the radix tree + private blocks of running requests. A
 * request's prompt is inserted into the tree when its prefill completes (so later requests can share
 * it while it still runs); at completion its generated ids join the tree too (a follow-up that
 * extends the reply then matches it), and the rest of its private blocks is freed. Only whole pages
 * are cached, and an admitted request always computes at least its last prompt token.
 *
 * A step that had to preempt admits nothing new (memory is short), unless nothing is left running.
 *
 * A policy may ask for Preble's non-chunked step instead (LocalPolicy.wholePrefillStep, fcfs-mpq
 * while half the pool is free): admissions first, whole prompts and no token budget, the step being
 * those prefills alone; when nothing is admitted, a run of plain steps without admissions follows
 * (`fillStep`, `countDecodeStep`, `endDecodeRun`).
 */
import { type GpuProfile, type ModelProfile, StepCost, type StepShape } from '../cost';
import type { LocalDecisionDetail } from '../algorithms/details';
import type { DecisionDraft } from '../sim/decision';
import { ReqState, type SimRequest } from '../sim/request';
import { KvCache } from './kv-cache';
import type { AdmissionContext, AdmitOutcome, LocalPolicy, WorkerView } from './local-policy';
import { outputLabel, streamKey, tokenAt } from '../workload/tokens';
import { writePage } from './pages';
import { RadixCache } from './radix-cache';
import {
  type AdmissionMode,
  INIT_NEW_TOKEN_RATIO,
  MIN_NEW_TOKEN_RATIO,
  NEW_TOKEN_RATIO_DECAY,
  outputEstimate,
  RETRACT_DECODE_STEPS,
  ratioAfterRetract,
} from './sglang';
import { TokenSlab } from './token-slab';

export interface ReplicaConfig {
  id: number;
  gpu: GpuProfile;
  model: ModelProfile;
  kvTokens: number;
  blockSize: number;
  maxBatchTokens: number;
  maxRunning: number;
  /**
   * Victim when KV runs out: 'sglang' = SGLang's retraction order (fewest generated tokens, ties:
   * longest prompt, then the latest admitted); 'fcfs' = the last admitted; 'priority' = least urgent.
   */
  preemption: 'sglang' | 'fcfs' | 'priority';
  /**
   * 'sglang' (default): admission keeps KV room for the running requests' remaining max_new_tokens
   * (× the adaptive new-token ratio) and for the new request's own, prefill chunks enter the radix
   * cache as they complete, shared-prefix duplicates wait behind the longest-prefix order, and a
   * retraction frees RETRACT_DECODE_STEPS decode steps of headroom. 'optimistic': admission needs
   * room for the uncached prompt only; a prompt is cached when its whole prefill ends.
   */
  admission?: AdmissionMode;
  /** Radix prefix cache on (cached prefixes skip prefill and share KV blocks). */
  prefixCaching: boolean;
  /** Largest prefill chunk of one request in one step (fixed chunking). */
  chunkTokens: number;
  /** 'dynamic' (Vajra): the largest chunk whose predicted step time fits `targetStepS`. Default fixed. */
  chunkMode?: 'fixed' | 'dynamic';
  targetStepS?: number;
}

/** Dynamic chunking never goes below this many tokens (or the rest of the prompt), so prefills progress. */
export const MIN_DYNAMIC_CHUNK = 32;

export type { DecisionDraft };

/** How a worker reports to the engine (metrics, workload follow-ups, decision records). */
export interface ReplicaHooks {
  /** Build decision records? (Checked before building one, so the fast path allocates nothing.) */
  readonly recording: boolean;
  record(d: DecisionDraft): void;
  onAdmit(r: SimRequest, t: number): void;
  onFirstToken(r: SimRequest, t: number): void;
  /** Work done for a request's client this step: uncached input tokens and output tokens. */
  onService(r: SimRequest, inputTokens: number, outputTokens: number): void;
  onPreempt(r: SimRequest, t: number): void;
  onComplete(r: SimRequest, t: number): void;
}

/**
 * What a local policy sees of its worker while it admits (a class, not a closure, so that a deep
 * copy of the engine points at the copied worker).
 */
class WorkerAdmission implements AdmissionContext {
  constructor(private readonly w: Replica) {}

  get worker(): Replica {
    return this.w;
  }

  get slotsLeft(): number {
    return this.w.maxRunning - this.w.running.length;
  }

  get budgetLeft(): number {
    return this.w.budget;
  }

  get recording(): boolean {
    return this.w.hooks.recording;
  }

  tryAdmit(req: SimRequest, why?: string, detail?: LocalDecisionDetail): AdmitOutcome {
    return this.w.tryAdmit(req, why, detail);
  }
}

export class Replica implements WorkerView {
  readonly id: number;
  readonly kv: KvCache;
  readonly radix: RadixCache;
  readonly maxRunning: number;
  readonly maxBatchTokens: number;
  readonly blockSize: number;
  readonly prefixCaching: boolean;
  readonly chunkTokens: number;
  readonly dynamicChunks: boolean;
  readonly targetStepS: number;
  readonly policy: LocalPolicy;
  readonly gpu: GpuProfile;
  readonly model: ModelProfile;
  readonly running: SimRequest[] = [];
  now = 0;
  /** A step is in flight (its end event is scheduled). */
  busy = false;
  /** A zero-delay wake-up is scheduled (several dispatches at one instant share one step start). */
  kickPending = false;
  /** Σ remaining prefill tokens of requests assigned here (waiting ones at their dispatch estimate). */
  activePrefillTokens = 0;
  lastStepS = 0;
  steps = 0;
  busyTimeS = 0;
  preemptions = 0;
  admissions = 0;
  /** Cache-hit bookkeeping at admission. */
  admittedPromptTokens = 0;
  admittedCachedTokens = 0;
  readonly admission: AdmissionMode;
  /**
   * SGLang's adaptive new-token ratio: the share of running requests' remaining max_new_tokens that
   * admission keeps free. Starts at INIT, decays each decode step to MIN, is re-estimated after a
   * retraction and reset to INIT when the replica goes idle (sglang admission only).
   */
  newTokenRatio = INIT_NEW_TOKEN_RATIO;
  /** @internal output tokens this step's admissions must leave free (SGLang's rem_total_tokens offset). */
  reservedTokens = 0;
  /**
   * Policies with a non-chunked step (LocalPolicy.wholePrefillStep, Preble's): steps that started
   * with requests running, outside whole-prefill steps (Preble's decode_forward_ct) …
   */
  decodeCount = 0;
  /** … and decode steps left in the current run that does not call `admit` (0: none). */
  decodeRunLeft = 0;
  /** @internal this step admits whole prompts (Preble's non-chunked step): no chunking. */
  private wholePrompts = false;
  /** sglang admission (cached for the hot paths). */
  private readonly sglang: boolean;

  private readonly cfg: ReplicaConfig;
  /** @internal read by WorkerAdmission */
  readonly hooks: ReplicaHooks;
  /** @internal tokens of this step's budget still free (read by WorkerAdmission) */
  budget = 0;
  private readonly shape: StepShape = {
    prefillTokens: 0,
    prefillAttnTokens2: 0,
    decodeSeqs: 0,
    decodeContextTokens: 0,
  };
  private readonly probeShape: StepShape = {
    prefillTokens: 0,
    prefillAttnTokens2: 0,
    decodeSeqs: 0,
    decodeContextTokens: 0,
  };
  private readonly ctx: AdmissionContext;
  private readonly slab = new TokenSlab();
  /** The step-time model of this GPU and model (stepTimeS with the pair's constants computed once). */
  private readonly cost: StepCost;
  /**
   * Requests enqueued since the last step planning: the ones that planning does not admit are
   * compacted then (#15.3), so a waiting request holds no prompt-sized state after its first step
   * at this worker, and one admitted at once keeps the page fingerprints the router computed.
   */
  private readonly joined: SimRequest[] = [];
  /** Scratch of cacheFinished: the ids of one page that mixes prompt and output. */
  private readonly pageIds: Int32Array;
  /** Scratch of planQuietSteps: private tokens and blocks per running request. */
  private planPriv = new Float64Array(0);

  constructor(cfg: ReplicaConfig, policy: LocalPolicy, hooks: ReplicaHooks) {
    this.cfg = cfg;
    this.id = cfg.id;
    this.kv = new KvCache(cfg.kvTokens, cfg.blockSize);
    this.radix = new RadixCache(cfg.blockSize);
    this.blockSize = cfg.blockSize;
    this.prefixCaching = cfg.prefixCaching;
    this.gpu = cfg.gpu;
    this.model = cfg.model;
    this.cost = new StepCost(cfg.gpu, cfg.model);
    this.chunkTokens = Math.max(1, cfg.chunkTokens);
    this.dynamicChunks = cfg.chunkMode === 'dynamic';
    this.targetStepS = cfg.targetStepS ?? 0.05;
    // a policy whose engine has no running-request limit (Preble's fcfs-mpq) lifts max_running
    this.maxRunning = policy.noRunningLimit === true ? Number.MAX_SAFE_INTEGER : cfg.maxRunning;
    this.maxBatchTokens = cfg.maxBatchTokens;
    this.policy = policy;
    this.hooks = hooks;
    this.ctx = new WorkerAdmission(this);
    this.admission = cfg.admission ?? 'sglang';
    this.sglang = this.admission === 'sglang';
    this.pageIds = new Int32Array(cfg.blockSize);
  }

  /**
   * Local policies that order by cached prefix put shared-prefix duplicates last (SGLang's in-batch
   * prefix caching; see ./sglang.ts): on with sglang admission and a prefix cache.
   */
  get deferSharedPrefixes(): boolean {
    return this.sglang && this.prefixCaching;
  }

  get runningCount(): number {
    return this.running.length;
  }

  get waitingCount(): number {
    return this.policy.size();
  }

  /** Largest prefix a request may reuse: whole pages, leaving at least one prompt token to compute. */
  maxReusable(r: SimRequest): number {
    return Math.floor((r.promptLen - 1) / this.blockSize) * this.blockSize;
  }

  /** Blocks a request needs over its whole life when nothing is cached (for the capacity check). */
  lifetimeBlocks(r: SimRequest): number {
    return this.kv.blocksFor(r.promptLen + r.outputLen);
  }

  /**
   * The router hands a request to this worker. `cachedEstimate` is the router's prefix overlap with
   * this worker when it knows it (it counts toward the active-prefill load until admission); -1 asks
   * the worker to match its own cache, 0 counts the whole prompt.
   */
  enqueue(r: SimRequest, now: number, front = false, cachedEstimate = -1): void {
    this.now = now;
    r.state = ReqState.Waiting;
    r.worker = this.id;
    if (Number.isNaN(r.enqueueT)) r.enqueueT = now;
    const cached =
      cachedEstimate >= 0 || !this.prefixCaching
        ? Math.max(0, cachedEstimate)
        : this.radix.matchLength(r.pages(this.blockSize), this.maxReusable(r));
    r.pendingPrefill = r.promptLen - cached;
    this.activePrefillTokens += r.pendingPrefill;
    this.policy.enqueue(r, this, front);
    this.joined.push(r);
  }

  /**
   * Plan the next batch step at `now`. Returns its duration in seconds, or -1 when there is nothing to
   * run (the worker goes idle).
   */
  beginStep(now: number): number {
    this.now = now;
    const run = this.running;
    const s = this.shape;
    s.prefillTokens = 0;
    s.prefillAttnTokens2 = 0;
    s.decodeSeqs = 0;
    s.decodeContextTokens = 0;
    this.budget = this.maxBatchTokens;
    const preemptedBefore = this.preemptions;
    // 0. Preble's non-chunked step: admissions first, whole prompts; if it admits nothing, a run of
    //    decode steps begins with this one (no admission until it ends)
    let mayAdmit = true;
    if (this.decodeRunLeft > 0) mayAdmit = false;
    else if (
      this.policy.wholePrefillStep !== undefined &&
      this.policy.size() > 0 &&
      run.length < this.maxRunning &&
      this.policy.wholePrefillStep(this)
    ) {
      if (this.fillStep()) return this.launch(now);
      this.decodeRunLeft = this.policy.decodeRun?.steps ?? 0;
      mayAdmit = false;
    }
    // 1. KV for this step's decodes (may evict, retract or preempt)
    const decodeSlots = this.reserveDecodes();
    const sglang = this.sglang;
    // SGLang: a decode step without retraction moves the ratio one step towards its minimum
    if (sglang && decodeSlots > 0 && this.preemptions === preemptedBefore)
      this.newTokenRatio = Math.max(this.newTokenRatio - NEW_TOKEN_RATIO_DECAY, MIN_NEW_TOKEN_RATIO);
    const ratio = this.newTokenRatio;
    let reserved = 0;
    if (this.policy.wholePrefillStep !== undefined) this.countDecodeStep();
    // 1+2. one pass: the first `decodeSlots` decoding requests decode; then prefills continue in order
    //      with what the decodes left of the budget (the same result as two passes)
    const b = this.blockSize;
    let decodesLeft = decodeSlots;
    let budget = this.maxBatchTokens - decodeSlots;
    const chunkCap = this.chunkTokens;
    for (let i = 0; i < run.length; i++) {
      const r = run[i];
      if (r.prefilled >= r.promptLen) {
        // SGLang: every running request keeps (its remaining max_new_tokens, clipped) × ratio free
        if (sglang) reserved += outputEstimate(this.maxNew(r), r.generated) * ratio;
        if (decodesLeft === 0) {
          r.chunk = 0;
          continue;
        }
        decodesLeft--;
        if (r.privTokens + 1 > r.privBlocks * b) {
          this.kv.allocate(1);
          r.privBlocks++;
        }
        r.privTokens++;
        r.chunk = 1;
      } else if (budget > 0) {
        const rest = r.promptLen - r.prefilled;
        const c = this.dynamicChunks
          ? this.dynamicChunk(rest, budget, r.prefilled)
          : Math.min(rest, budget, chunkCap);
        r.chunk = c;
        budget -= c;
        s.prefillTokens += c;
        s.prefillAttnTokens2 += c * (r.prefilled + c / 2);
        // SGLang: a chunked prefill's last chunk reserves its whole output estimate
        if (sglang && c >= rest) reserved += this.ownEstimate(r);
      } else r.chunk = 0;
    }
    this.budget = budget;
    this.reservedTokens = reserved;
    // 3. new admissions in the local policy's order (tryAdmit adds them to the shape)
    //    (not in a step that had to preempt: memory is short, as vLLM does)
    if (
      mayAdmit &&
      this.budget > 0 &&
      run.length < this.maxRunning &&
      this.policy.size() > 0 &&
      (this.preemptions === preemptedBefore || run.length === 0)
    )
      this.policy.admit(this.ctx);
    return this.launch(now);
  }

  /**
   * Preble's non-chunked step (LocalPolicy.wholePrefillStep): the policy admits first, with no
   * token budget, each admitted request prefilling its whole uncached prompt; running requests do
   * not run in this step. Admission keeps the running requests' output room as in the chunked step.
   * True when something was admitted (the step is then those prefills); false leaves the step to
   * be planned as a decode step.
   */
  private fillStep(): boolean {
    const run = this.running;
    let reserved = 0;
    if (this.sglang) {
      const ratio = this.newTokenRatio;
      for (const r of run)
        if (r.prefilled >= r.promptLen) reserved += outputEstimate(this.maxNew(r), r.generated) * ratio;
    }
    for (const r of run) r.chunk = 0;
    this.reservedTokens = reserved;
    this.budget = Number.MAX_SAFE_INTEGER;
    const before = this.admissions;
    this.wholePrompts = true;
    this.policy.admit(this.ctx);
    this.wholePrompts = false;
    this.budget = this.maxBatchTokens;
    return this.admissions > before;
  }

  /**
   * Under a policy with a non-chunked step, a step planned the chunked way: Preble's decode counter
   * counts it when requests are running (its budget step and its decode step both do), and it uses
   * one step of a run of decode steps.
   */
  private countDecodeStep(): void {
    if (this.running.length > 0) this.decodeCount++;
    if (this.decodeRunLeft > 0) this.decodeRunLeft--;
  }

  /**
   * After a step ended with `done` completions: Preble's run of decode steps stops once output is
   * sent (a completion, or the decode counter at a multiple of the stream interval) or nothing runs.
   */
  private endDecodeRun(done: number): void {
    if (
      this.decodeRunLeft > 0 &&
      (done > 0 ||
        this.decodeCount % (this.policy.decodeRun?.streamInterval ?? 1) === 0 ||
        this.running.length === 0)
    )
      this.decodeRunLeft = 0;
  }

  /** The planned step starts: compact the requests that still wait, time and record it (-1: idle). */
  private launch(now: number): number {
    const run = this.running;
    const s = this.shape;
    const sglang = this.sglang;
    if (this.joined.length > 0) {
      for (const r of this.joined) if (r.state === ReqState.Waiting) r.compact();
      this.joined.length = 0;
    }

    if (s.prefillTokens === 0 && s.decodeSeqs === 0) {
      this.busy = false;
      this.decodeRunLeft = 0;
      // SGLang re-initialises the ratio when the scheduler is idle
      this.newTokenRatio = INIT_NEW_TOKEN_RATIO;
      return -1;
    }
    const dt = this.cost.timeS(s);
    this.lastStepS = dt;
    this.busy = true;
    this.steps++;
    this.busyTimeS += dt;
    if (this.hooks.recording)
      this.hooks.record({
        t: now,
        kind: 'step',
        worker: this.id,
        summary: `t=${now.toFixed(3)} s  worker ${this.id} step: ${s.decodeSeqs} decodes + ${s.prefillTokens} prefill tokens, ${run.length} running, ${stepDuration(dt)}`,
        detail: {
          decodes: s.decodeSeqs,
          prefill_tokens: s.prefillTokens,
          running: run.length,
          waiting: this.policy.size(),
          step_ms: dt * 1000,
          kv_used_blocks: this.kv.allocatedBlocks,
          kv_total_blocks: this.kv.totalBlocks,
          ...(sglang
            ? { new_token_ratio: this.newTokenRatio, reserved_output_tokens: Math.round(this.reservedTokens) }
            : {}),
        },
      });
    return dt;
  }

  /**
   * Decode fast-forward (#14): called right after `beginStep(t0)` planned a step that ends at
   * `out[0] = t0 + lastStepS`. Counts the step ends after which nothing but decoding can happen on
   * this worker — every running request decodes one token and none completes, nothing waits, the
   * pool has the blocks of the next step without eviction — and writes their times: out[j] is the
   * end of step j + 1, each the previous end plus the step time of the same shape `beginStep` would
   * build (the same sums in the same order, so the same bits). Returns k, the number of such quiet
   * step ends (out[0 .. k-1]); out[k] is the end of the first step whose end is not quiet. Stops
   * before a quiet end at or after `limitT`, and after `maxQuiet` of them. 0 when the step now
   * planned is not decode-only.
   */
  planQuietSteps(t0: number, limitT: number, maxQuiet: number, out: Float64Array): number {
    const run = this.running;
    const n = run.length;
    const s = this.shape;
    if (
      n === 0 ||
      s.prefillTokens !== 0 ||
      s.decodeSeqs !== n ||
      this.policy.size() !== 0 ||
      this.hooks.recording
    )
      return 0;
    const b = this.blockSize;
    let minLeft = Number.POSITIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      const r = run[i];
      if (r.chunk !== 1 || r.prefilled < r.promptLen) return 0;
      const left = r.outputLen - r.generated;
      if (left < minLeft) minLeft = left;
    }
    // step end j (1-based) completes nothing while generated + j < outputLen for every request
    const quietByOutput = Math.min(maxQuiet, minLeft - 1, out.length - 1);
    if (quietByOutput <= 0) return 0;
    // the blocks each later step's decodes need (the pool is this worker's own). A request with s
    // free token slots in its private blocks needs a new block at the beginStep of step ends
    // s + 1, s + 1 + b, s + 1 + 2b, …: with every s < b, end j needs as many blocks as there are
    // requests with s = (j − 1) mod b (a histogram: O(n + k), not O(n · k)); otherwise simulate
    // each request's blocks on copies
    if (this.planPriv.length < Math.max(2 * n, b)) this.planPriv = new Float64Array(Math.max(4 * n, b));
    const priv = this.planPriv;
    let byPhase = true;
    for (let i = 0; i < n; i++) {
      const slack = run[i].privBlocks * b - run[i].privTokens;
      if (slack < 0 || slack >= b) byPhase = false;
    }
    if (byPhase) {
      priv.fill(0, 0, b);
      for (let i = 0; i < n; i++) priv[run[i].privBlocks * b - run[i].privTokens]++;
    } else
      for (let i = 0; i < n; i++) {
        priv[2 * i] = run[i].privTokens;
        priv[2 * i + 1] = run[i].privBlocks;
      }
    let free = this.kv.freeBlocks;
    const probe = this.probeShape;
    probe.prefillTokens = 0;
    probe.prefillAttnTokens2 = 0;
    probe.decodeSeqs = n;
    let context = s.decodeContextTokens;
    let t = t0 + this.lastStepS;
    out[0] = t;
    let k = 0;
    while (k < quietByOutput && t < limitT) {
      // the beginStep at this end (end k + 1): KV for one more token each, no eviction allowed
      let need = 0;
      if (byPhase) need = priv[k % b];
      else for (let i = 0; i < n; i++) if (priv[2 * i] + 1 > priv[2 * i + 1] * b) need++;
      if (need > free) break;
      free -= need;
      if (!byPhase)
        for (let i = 0; i < n; i++) {
          if (priv[2 * i] + 1 > priv[2 * i + 1] * b) priv[2 * i + 1]++;
          priv[2 * i]++;
        }
      context += n;
      probe.decodeContextTokens = context;
      t = t + this.cost.timeS(probe);
      k++;
      out[k] = t;
    }
    return k;
  }

  /**
   * `endStep(at)` then `beginStep(at)` at a step end that `planQuietSteps` counted as quiet, without
   * their general paths: every running request decodes its next token, none completes, nothing is
   * admitted, the pool has the blocks. The same state changes and hook calls in the same order, and
   * the same step-time evaluation. Returns the new step's duration.
   */
  quietStep(at: number): number {
    this.now = at;
    const run = this.running;
    const n = run.length;
    const hooks = this.hooks;
    const s = this.shape;
    const b = this.blockSize;
    // endStep: one more token each; and the blocks the next step's decodes need
    let need = 0;
    for (let i = 0; i < n; i++) {
      const r = run[i];
      r.generated++;
      hooks.onService(r, 0, 1);
      if (r.privTokens + 1 > r.privBlocks * b) need++;
    }
    if (this.policy.onStepEnd !== undefined) {
      this.policy.onStepEnd(run, this);
      need = 0;
      for (let i = 0; i < n; i++) if (run[i].privTokens + 1 > run[i].privBlocks * b) need++;
    }
    if (need > this.kv.freeBlocks) throw new Error(`internal: worker ${this.id}'s quiet step is short of KV`);
    // as endStep and beginStep do under a policy with a non-chunked step (nothing waits: no fill)
    if (this.policy.wholePrefillStep !== undefined) {
      this.endDecodeRun(0);
      this.countDecodeStep();
    }
    // beginStep: the same shape with one more context token per request (the step now ending
    // decoded all n of the same requests: Σ prompt + generated grew by n, exactly, in integers)
    s.prefillTokens = 0;
    s.prefillAttnTokens2 = 0;
    s.decodeSeqs = n;
    s.decodeContextTokens += n;
    const sglang = this.sglang;
    if (sglang)
      this.newTokenRatio = Math.max(this.newTokenRatio - NEW_TOKEN_RATIO_DECAY, MIN_NEW_TOKEN_RATIO);
    const ratio = this.newTokenRatio;
    let reserved = 0;
    for (let i = 0; i < n; i++) {
      const r = run[i];
      if (sglang) reserved += outputEstimate(this.maxNew(r), r.generated) * ratio;
      if (r.privTokens + 1 > r.privBlocks * b) {
        this.kv.allocate(1);
        r.privBlocks++;
      }
      r.privTokens++;
      r.chunk = 1;
    }
    this.budget = this.maxBatchTokens - n;
    this.reservedTokens = reserved;
    const dt = this.cost.timeS(s);
    this.lastStepS = dt;
    this.busy = true;
    this.steps++;
    this.busyTimeS += dt;
    return dt;
  }

  /**
   * Vajra's dynamic chunking: the largest chunk (≤ rest, ≤ budget) whose predicted step time, with
   * everything already in this step's batch, stays within the target; at least MIN_DYNAMIC_CHUNK
   * tokens (or the rest) so a prefill always moves. Binary search over the monotone step-time model.
   */
  private dynamicChunk(rest: number, budget: number, contextBefore: number): number {
    const hi0 = Math.min(rest, budget);
    const floor = Math.min(hi0, MIN_DYNAMIC_CHUNK);
    const s = this.shape;
    const probe = this.probeShape;
    const fits = (c: number) => {
      probe.prefillTokens = s.prefillTokens + c;
      probe.prefillAttnTokens2 = s.prefillAttnTokens2 + c * (contextBefore + c / 2);
      probe.decodeSeqs = s.decodeSeqs;
      probe.decodeContextTokens = s.decodeContextTokens;
      return this.cost.timeS(probe) <= this.targetStepS;
    };
    if (fits(hi0)) return hi0;
    let lo = floor;
    let hi = hi0;
    if (!fits(lo)) return lo;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (fits(mid)) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Make sure the decodes of this step have KV for their new token: count the blocks they need,
   * evict unlocked cache leaves for any shortfall, and preempt running requests while still short.
   * Returns how many decodes the step runs (all decoding requests, capped by the token budget).
   */
  private reserveDecodes(): number {
    const run = this.running;
    const b = this.blockSize;
    for (;;) {
      let decodes = 0;
      let need = 0;
      let context = 0;
      const cap = this.maxBatchTokens;
      for (let i = 0; i < run.length && decodes < cap; i++) {
        const r = run[i];
        if (r.prefilled < r.promptLen) continue;
        decodes++;
        context += r.promptLen + r.generated;
        if (r.privTokens + 1 > r.privBlocks * b) need++;
      }
      const short = need - this.kv.freeBlocks;
      if (short > 0) {
        const freed = this.radix.evict(short);
        this.kv.release(freed);
        if (freed < short) {
          if (!this.sglang || !this.retract()) this.preempt(this.victim(false));
          continue;
        }
      }
      this.shape.decodeSeqs = decodes;
      this.shape.decodeContextTokens = context;
      return decodes;
    }
  }

  /**
   * SGLang's retract_decode: the decode step does not fit even after eviction, so retract decoding
   * requests one by one (by the victim rule) until the free pool holds RETRACT_DECODE_STEPS tokens
   * for every decoding request left (evicting unlocked cache as it goes; at least one retracted, one
   * kept), then re-estimate the new-token ratio from the requests left. False when there is nothing
   * it may retract (fewer than two decoding requests): the caller falls back to plain preemption.
   */
  private retract(): boolean {
    const run = this.running;
    let decoding = 0;
    for (let i = 0; i < run.length; i++) if (run[i].prefilled >= run[i].promptLen) decoding++;
    if (decoding < 2) return false;
    const b = this.blockSize;
    for (let first = true; decoding > 1; first = false) {
      if (!first) {
        const want = decoding * RETRACT_DECODE_STEPS;
        const have = this.kv.freeBlocks * b;
        if (have < want) this.kv.release(this.radix.evict(Math.ceil((want - have) / b)));
        if (this.kv.freeBlocks * b >= want) break;
      }
      this.preempt(this.victim(true));
      decoding--;
    }
    let generated = 0;
    let maxNew = 0;
    let n = 0;
    for (let i = 0; i < run.length; i++) {
      const r = run[i];
      if (r.prefilled < r.promptLen) continue;
      generated += r.generated;
      maxNew += this.maxNew(r);
      n++;
    }
    this.newTokenRatio = ratioAfterRetract(generated, maxNew, n);
    return true;
  }

  /**
   * Index of the running request to preempt under the configured rule; `decodingOnly` restricts the
   * choice to requests past their prefill (SGLang retracts from its decode batch).
   */
  private victim(decodingOnly: boolean): number {
    const run = this.running;
    const rule = this.cfg.preemption;
    let vi = -1;
    for (let i = run.length - 1; i >= 0; i--) {
      const a = run[i];
      if (decodingOnly && a.prefilled < a.promptLen) continue;
      if (vi < 0) {
        vi = i;
        if (rule === 'fcfs') break;
        continue;
      }
      const v = run[vi];
      // scanning backwards: replace only on a strictly better victim, so ties keep the later one
      if (rule === 'priority') {
        if (
          a.priority > v.priority ||
          (a.priority === v.priority &&
            (a.arrivalT > v.arrivalT || (a.arrivalT === v.arrivalT && a.serial > v.serial)))
        )
          vi = i;
      } else if (a.generated < v.generated || (a.generated === v.generated && a.promptLen > v.promptLen))
        vi = i; // sglang: fewest generated tokens, then longest prompt
    }
    return vi < 0 ? run.length - 1 : vi;
  }

  /**
   * Recompute preemption of running request `vi`: free everything it holds and put it back in the
   * waiting queue (first in line under optimistic admission; at the back under sglang admission, as
   * SGLang appends retracted requests to its waiting queue).
   */
  private preempt(vi: number): void {
    const run = this.running;
    const v = run[vi];
    run.splice(vi, 1);
    this.releaseHeld(v);
    const generated = v.generated;
    v.prefilled = 0;
    v.generated = 0;
    v.cachedLen = 0;
    v.coveredLen = 0;
    v.chunk = 0;
    v.preemptions++;
    this.preemptions++;
    this.hooks.onPreempt(v, this.now);
    if (this.hooks.recording)
      this.hooks.record({
        t: this.now,
        kind: 'preempt',
        worker: this.id,
        request: v.id,
        client: v.spec.client,
        summary: `t=${this.now.toFixed(3)} s  worker ${this.id} ${this.sglang ? 'retracts' : 'preempts'} ${v.id} (KV full; ${this.cfg.preemption} victim rule; recompute later)`,
        detail: {
          rule: this.cfg.preemption,
          running: run.length,
          kv_free_blocks: this.kv.freeBlocks,
          generated,
        },
      });
    this.policy.onPreempt?.(v, this);
    this.enqueue(v, this.now, !this.sglang);
  }

  /** Unlock the cached prefix and free the private blocks of a request leaving the running set. */
  private releaseHeld(r: SimRequest): void {
    if (r.lockNode !== null) {
      this.radix.unlock(r.lockNode, this.now);
      r.lockNode = null;
    }
    this.kv.release(r.privBlocks);
    r.privBlocks = 0;
    r.privTokens = 0;
    this.activePrefillTokens -= r.pendingPrefill;
    r.pendingPrefill = 0;
  }

  /**
   * A new request's output estimate (its capped max_new_tokens, clipped at CLIP_MAX_NEW_TOKENS).
   */
  private ownEstimate(r: SimRequest): number {
    return outputEstimate(this.maxNew(r), 0);
  }

  /** SGLang admission: `refusalKey` is the output reservation check for every request (WorkerView). */
  get reservesOutput(): boolean {
    return this.sglang;
  }

  /**
   * max_new_tokens as SGLang's scheduler holds it: capped so that prompt + output fit in the pool
   * (its max_req_len), so a request alone on an empty replica always fits.
   */
  private maxNew(r: SimRequest): number {
    return Math.max(0, Math.min(r.maxNewTokens, this.kv.totalBlocks * this.blockSize - 1 - r.promptLen));
  }

  /**
   * See WorkerView.refusalKey: the need of `tryAdmit`'s first check, made before it touches the
   * tree. Under sglang admission: the uncached prompt plus the request's own output estimate, in
   * tokens. Under optimistic admission: the uncached prompt's blocks.
   */
  refusalKey(r: SimRequest, match: number): number {
    if (this.sglang) return r.promptLen - match + this.ownEstimate(r);
    return this.kv.blocksFor(r.promptLen - match);
  }

  /**
   * See WorkerView.refusalRoom: sglang admission: free + evictable KV in tokens less the output
   * tokens this step's admissions keep free; optimistic: free + evictable blocks.
   */
  refusalRoom(): number {
    const blocks = this.kv.freeBlocks + this.radix.evictableBlockCount;
    return this.sglang ? blocks * this.blockSize - this.reservedTokens : blocks;
  }

  /** @internal local policies call this through their AdmissionContext */
  tryAdmit(r: SimRequest, why?: string, detail?: LocalDecisionDetail): AdmitOutcome {
    if (this.running.length >= this.maxRunning) return 'no-slot';
    if (this.budget <= 0) return 'no-budget';
    // SGLang checks the reservation before it locks the prefix too: a request that does not fit even
    // with its cached prefix still evictable is refused without touching the tree (no lock, no LRU
    // time, no split). Optimistic admission makes the same first check with its own need (the
    // uncached prompt's blocks): it refuses exactly the requests the check after locking would (a
    // lock only lowers the evictable count), without re-timing their cached paths.
    const m0 = this.prefixCaching ? this.radix.matchLength(r.pages(this.blockSize), this.maxReusable(r)) : 0;
    if (this.refusalKey(r, m0) > this.refusalRoom()) return 'no-kv';
    const { node, length: m } = this.prefixCaching
      ? this.radix.acquire(r.pages(this.blockSize), this.maxReusable(r), this.now)
      : { node: this.radix.root, length: 0 };
    const need = this.kv.blocksFor(r.promptLen - m);
    let free = this.kv.freeBlocks;
    // SGLang's PrefillAdder: the uncached prompt plus the request's own output estimate must fit in
    // free + evictable KV (its matched prefix locked) less what running requests keep for output
    const ownOutput = this.sglang ? this.ownEstimate(r) : 0;
    if (
      this.sglang &&
      r.promptLen - m + ownOutput >
        (free + this.radix.evictableBlockCount) * this.blockSize - this.reservedTokens
    ) {
      this.radix.unlock(node, this.now);
      return 'no-kv';
    }
    if (need > free + this.radix.evictableBlockCount) {
      // Even evicting every unlocked prefix would not make room: fail without emptying the cache.
      this.radix.unlock(node, this.now);
      return 'no-kv';
    }
    if (need > free) {
      const freed = this.radix.evict(need - free);
      this.kv.release(freed);
      free = this.kv.freeBlocks;
    }
    if (need > free) {
      this.radix.unlock(node, this.now);
      return 'no-kv';
    }
    this.kv.allocate(need);
    r.lockNode = node === this.radix.root ? null : node; // locking the root is a no-op
    r.coveredLen = m;
    r.privBlocks = need;
    r.privTokens = r.promptLen - m;
    r.cachedLen = m;
    r.prefilled = m;
    r.generated = 0;
    r.state = ReqState.Running;
    if (Number.isNaN(r.firstScheduleT)) r.firstScheduleT = this.now;
    this.activePrefillTokens += r.promptLen - m - r.pendingPrefill;
    r.pendingPrefill = r.promptLen - m;
    const c = this.wholePrompts
      ? r.promptLen - m
      : this.dynamicChunks
        ? this.dynamicChunk(r.promptLen - m, this.budget, m)
        : Math.min(r.promptLen - m, this.budget, this.chunkTokens);
    r.chunk = c;
    this.budget -= c;
    this.shape.prefillTokens += c;
    this.shape.prefillAttnTokens2 += c * (m + c / 2);
    // a request prefilled whole this step keeps its output estimate; a chunked one nothing yet
    if (c >= r.promptLen - m) this.reservedTokens += ownOutput;
    this.running.push(r);
    this.admissions++;
    this.admittedPromptTokens += r.promptLen;
    this.admittedCachedTokens += m;
    this.hooks.onAdmit(r, this.now);
    if (this.hooks.recording)
      this.hooks.record({
        t: this.now,
        kind: 'admit',
        worker: this.id,
        request: r.id,
        client: r.spec.client,
        summary: `t=${this.now.toFixed(3)} s  worker ${this.id} admits ${r.id} (${this.policy.name}: ${why ?? 'next'}); ${m}/${r.promptLen} prompt tokens cached, first chunk ${c}`,
        detail: {
          policy: this.policy.name,
          why: why ?? null,
          cached_tokens: m,
          // The radix node the prompt matched down to (null: no cached prefix), for the tree view.
          matched_node: node === this.radix.root ? null : node.id,
          prompt_tokens: r.promptLen,
          chunk: c,
          kv_blocks: need,
          ...(this.sglang
            ? {
                max_new_tokens: r.maxNewTokens,
                output_estimate: ownOutput,
                new_token_ratio: this.newTokenRatio,
              }
            : {}),
          waiting: this.policy.size() - 1,
          ...(detail ?? {}),
        },
      });
    return 'admitted';
  }

  /** Apply the step that just ended at `now`: progress, first tokens, completions. */
  endStep(now: number): void {
    this.now = now;
    this.busy = false;
    const run = this.running;
    const hooks = this.hooks;
    let done = 0;
    for (let i = 0; i < run.length; i++) {
      const r = run[i];
      const c = r.chunk;
      if (c === 0) continue;
      if (r.prefilled < r.promptLen) {
        r.prefilled += c;
        r.pendingPrefill -= c;
        this.activePrefillTokens -= c;
        if (r.prefilled >= r.promptLen) {
          r.generated = 1;
          if (Number.isNaN(r.firstTokenT)) {
            r.firstTokenT = now;
            hooks.onFirstToken(r, now);
          }
          hooks.onService(r, c, 1);
          this.cachePrompt(r, r.promptLen);
        } else {
          hooks.onService(r, c, 0);
          // SGLang's cache_unfinished_req: the chunk's whole pages join the tree now
          if (this.sglang) this.cachePrompt(r, r.prefilled);
        }
      } else {
        r.generated++;
        hooks.onService(r, 0, 1);
      }
      if (r.generated >= r.outputLen) done++;
    }
    this.policy.onStepEnd?.(run, this);
    if (done === 0) {
      this.endDecodeRun(0);
      return;
    }
    let k = 0;
    for (let i = 0; i < run.length; i++) {
      const r = run[i];
      if (r.chunk > 0 && r.generated >= r.outputLen) {
        if (this.prefixCaching) this.cacheFinished(r);
        this.releaseHeld(r);
        r.state = ReqState.Done;
        r.completionT = now;
        r.chunk = 0;
        if (hooks.recording)
          hooks.record({
            t: now,
            kind: 'complete',
            worker: this.id,
            request: r.id,
            client: r.spec.client,
            summary: `t=${now.toFixed(3)} s  worker ${this.id} completes ${r.id} (${r.outputLen} output tokens, e2e ${(now - r.arrivalT).toFixed(3)} s)`,
            detail: {
              e2e_s: now - r.arrivalT,
              ttft_s: r.firstTokenT - r.arrivalT,
              preemptions: r.preemptions,
            },
          });
        hooks.onComplete(r, now);
      } else run[k++] = r;
    }
    run.length = k;
    this.endDecodeRun(done);
  }

  /**
   * Completion: put prompt + output (the KV that exists: all but the last generated token) into the
   * tree, so a follow-up that extends this reply finds it cached. New pages move from the request's
   * private blocks to the tree; the rest is freed by `releaseHeld`.
   */
  private cacheFinished(r: SimRequest): void {
    const b = this.blockSize;
    const len = Math.floor((r.promptLen + r.outputLen - 1) / b) * b;
    const from = r.coveredLen;
    if (len <= from) return;
    // only the new tail's page fingerprints: the prompt's whole pages as they are, then the pages
    // with generated ids (the first may end the prompt), from their ids
    const first = from / b;
    const pages = len / b - first;
    const { src, offset } = this.slab.take(2 * pages);
    const seq = r.pages(b);
    const whole = Math.min(Math.max(0, seq.pages - first), pages);
    if (whole > 0) src.set(seq.data.subarray(2 * first, 2 * (first + whole)), offset);
    if (whole < pages) {
      const ids = this.pageIds;
      const out = streamKey(outputLabel(r.id));
      for (let k = first + whole; k < first + pages; k++) {
        const p0 = k * b;
        const fromPrompt = Math.min(b, Math.max(0, r.promptLen - p0));
        if (fromPrompt > 0) r.writePrompt(ids, 0, p0, fromPrompt);
        for (let i = fromPrompt; i < b; i++) ids[i] = tokenAt(out, p0 + i - r.promptLen);
        writePage(src, offset + 2 * (k - first), ids, 0, b);
      }
    }
    const ins = this.radix.insertFrom(
      r.lockNode ?? this.radix.root,
      from,
      src,
      first - offset / 2,
      len,
      this.now,
      true,
    );
    r.privBlocks -= ins.added / b;
  }

  /**
   * Put the prompt's first `upTo` tokens (whole pages; their KV exists) into the radix tree and hand
   * it their blocks: at the end of prefill, and under sglang admission after every chunk.
   */
  private cachePrompt(r: SimRequest, upTo: number): void {
    if (!this.prefixCaching) return;
    const b = this.blockSize;
    const full = Math.floor(upTo / b) * b;
    const covered0 = r.coveredLen;
    if (full <= covered0) return;
    const ins = this.radix.insertFrom(
      r.lockNode ?? this.radix.root,
      covered0,
      r.pages(b).data,
      0,
      full,
      this.now,
    );
    if (ins.covered <= covered0) return;
    this.radix.lock(ins.node, this.now);
    if (r.lockNode !== null) this.radix.unlock(r.lockNode, this.now);
    r.lockNode = ins.node;
    r.privTokens -= ins.covered - covered0;
    const keep = this.kv.blocksFor(r.privTokens);
    const duplicate = r.privBlocks - keep - ins.added / b;
    this.kv.release(duplicate);
    r.privBlocks = keep;
    r.coveredLen = ins.covered;
  }

  /** KV ledger check: allocated = tree blocks + private blocks of running requests. */
  check(): string | null {
    const kvProblem = this.kv.check();
    if (kvProblem) return kvProblem;
    let priv = 0;
    for (const r of this.running) priv += r.privBlocks;
    const tree = this.radix.cachedBlocks;
    if (tree + priv !== this.kv.allocatedBlocks)
      return `worker ${this.id}: tree ${tree} + private ${priv} blocks != allocated ${this.kv.allocatedBlocks}`;
    return this.radix.check();
  }
}

/** A batch step's duration in a log line: ms below a second, seconds from one second up. */
export function stepDuration(dt: number): string {
  return dt >= 1 ? `${dt.toFixed(3)} s` : `${(dt * 1000).toFixed(2)} ms`;
}
