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
 */
import { type GpuProfile, type ModelProfile, type StepShape, stepTimeS } from '../cost';
import type { DecisionRecord } from '../sim/decision';
import { ReqState, type SimRequest } from '../sim/request';
import { KvCache } from './kv-cache';
import type { AdmissionContext, AdmitOutcome, LocalPolicy, WorkerView } from './local-policy';
import { outputLabel, streamKey, writeStream } from '../workload/tokens';
import { RadixCache } from './radix-cache';
import { TokenSlab } from './token-slab';

export interface ReplicaConfig {
  id: number;
  gpu: GpuProfile;
  model: ModelProfile;
  kvTokens: number;
  blockSize: number;
  maxBatchTokens: number;
  maxRunning: number;
  preemption: 'fcfs' | 'priority';
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

/** A decision record before the engine numbers it. */
export type DecisionDraft = Omit<DecisionRecord, 'seq'>;

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

  tryAdmit(req: SimRequest, why?: string, detail?: Record<string, unknown>): AdmitOutcome {
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

  constructor(cfg: ReplicaConfig, policy: LocalPolicy, hooks: ReplicaHooks) {
    this.cfg = cfg;
    this.id = cfg.id;
    this.kv = new KvCache(cfg.kvTokens, cfg.blockSize);
    this.radix = new RadixCache(cfg.blockSize);
    this.blockSize = cfg.blockSize;
    this.prefixCaching = cfg.prefixCaching;
    this.gpu = cfg.gpu;
    this.model = cfg.model;
    this.chunkTokens = Math.max(1, cfg.chunkTokens);
    this.dynamicChunks = cfg.chunkMode === 'dynamic';
    this.targetStepS = cfg.targetStepS ?? 0.05;
    this.maxRunning = cfg.maxRunning;
    this.maxBatchTokens = cfg.maxBatchTokens;
    this.policy = policy;
    this.hooks = hooks;
    this.ctx = new WorkerAdmission(this);
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
        : this.radix.matchLength(r.tokens, this.maxReusable(r));
    r.pendingPrefill = r.promptLen - cached;
    this.activePrefillTokens += r.pendingPrefill;
    this.policy.enqueue(r, this, front);
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
    // 1. KV for this step's decodes (may evict or preempt)
    const decodeSlots = this.reserveDecodes();
    // 1+2. one pass: the first `decodeSlots` decoding requests decode; then prefills continue in order
    //      with what the decodes left of the budget (the same result as two passes)
    const b = this.blockSize;
    let decodesLeft = decodeSlots;
    let budget = this.maxBatchTokens - decodeSlots;
    const chunkCap = this.chunkTokens;
    for (let i = 0; i < run.length; i++) {
      const r = run[i];
      if (r.prefilled >= r.promptLen) {
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
      } else r.chunk = 0;
    }
    this.budget = budget;
    // 3. new admissions in the local policy's order (tryAdmit adds them to the shape)
    //    (not in a step that had to preempt: memory is short, as vLLM does)
    if (
      this.budget > 0 &&
      run.length < this.maxRunning &&
      this.policy.size() > 0 &&
      (this.preemptions === preemptedBefore || run.length === 0)
    )
      this.policy.admit(this.ctx);

    if (s.prefillTokens === 0 && s.decodeSeqs === 0) {
      this.busy = false;
      return -1;
    }
    const dt = stepTimeS(this.cfg.gpu, this.cfg.model, s);
    this.lastStepS = dt;
    this.busy = true;
    this.steps++;
    this.busyTimeS += dt;
    if (this.hooks.recording)
      this.hooks.record({
        t: now,
        kind: 'step',
        worker: this.id,
        summary: `t=${now.toFixed(3)} s  worker ${this.id} step: ${s.decodeSeqs} decodes + ${s.prefillTokens} prefill tokens, ${run.length} running, ${(dt * 1000).toFixed(2)} ms`,
        detail: {
          decodes: s.decodeSeqs,
          prefill_tokens: s.prefillTokens,
          running: run.length,
          waiting: this.policy.size(),
          step_ms: dt * 1000,
          kv_used_blocks: this.kv.allocatedBlocks,
          kv_total_blocks: this.kv.totalBlocks,
        },
      });
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
      return stepTimeS(this.gpu, this.model, probe) <= this.targetStepS;
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
          this.preemptVictim();
          continue;
        }
      }
      this.shape.decodeSeqs = decodes;
      this.shape.decodeContextTokens = context;
      return decodes;
    }
  }

  /** Recompute preemption: pick a victim, free everything it holds, put it back first in line. */
  private preemptVictim(): void {
    const run = this.running;
    let vi = run.length - 1;
    if (this.cfg.preemption === 'priority') {
      for (let i = run.length - 2; i >= 0; i--) {
        const a = run[i];
        const v = run[vi];
        if (
          a.priority > v.priority ||
          (a.priority === v.priority &&
            (a.arrivalT > v.arrivalT || (a.arrivalT === v.arrivalT && a.serial > v.serial)))
        )
          vi = i;
      }
    }
    const v = run[vi];
    run.splice(vi, 1);
    this.releaseHeld(v);
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
        summary: `t=${this.now.toFixed(3)} s  worker ${this.id} preempts ${v.id} (KV full; ${this.cfg.preemption} victim rule; recompute later)`,
        detail: { rule: this.cfg.preemption, running: run.length, kv_free_blocks: this.kv.freeBlocks },
      });
    this.policy.onPreempt?.(v, this);
    this.enqueue(v, this.now, true);
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

  /** @internal local policies call this through their AdmissionContext */
  tryAdmit(r: SimRequest, why?: string, detail?: Record<string, unknown>): AdmitOutcome {
    if (this.running.length >= this.maxRunning) return 'no-slot';
    if (this.budget <= 0) return 'no-budget';
    const { node, length: m } = this.prefixCaching
      ? this.radix.acquire(r.tokens, this.maxReusable(r), this.now)
      : { node: this.radix.root, length: 0 };
    const need = this.kv.blocksFor(r.promptLen - m);
    let free = this.kv.freeBlocks;
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
    const c = this.dynamicChunks
      ? this.dynamicChunk(r.promptLen - m, this.budget, m)
      : Math.min(r.promptLen - m, this.budget, this.chunkTokens);
    r.chunk = c;
    this.budget -= c;
    this.shape.prefillTokens += c;
    this.shape.prefillAttnTokens2 += c * (m + c / 2);
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
          this.cachePrompt(r);
        } else hooks.onService(r, c, 0);
      } else {
        r.generated++;
        hooks.onService(r, 0, 1);
      }
      if (r.generated >= r.outputLen) done++;
    }
    this.policy.onStepEnd?.(run, this);
    if (done === 0) return;
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
    // only the new tail: the rest of the prompt, then the generated ids
    const n = len - from;
    const { src, offset } = this.slab.take(n);
    const fromPrompt = Math.max(0, r.promptLen - from);
    if (fromPrompt > 0) src.set(r.tokens.subarray(from, r.promptLen), offset);
    writeStream(
      src,
      offset + fromPrompt,
      streamKey(outputLabel(r.id)),
      Math.max(0, from - r.promptLen),
      n - fromPrompt,
    );
    const ins = this.radix.insertFrom(r.lockNode ?? this.radix.root, from, src, from - offset, len, this.now);
    r.privBlocks -= ins.added / b;
  }

  /** Prefill done: put the prompt's whole pages into the radix tree and hand it the blocks. */
  private cachePrompt(r: SimRequest): void {
    if (!this.prefixCaching) return;
    const b = this.blockSize;
    const full = Math.floor(r.promptLen / b) * b;
    const covered0 = r.coveredLen;
    if (full <= covered0) return;
    const ins = this.radix.insertFrom(r.lockNode ?? this.radix.root, covered0, r.tokens, 0, full, this.now);
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
