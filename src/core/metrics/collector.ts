/**
 * Per-client and cluster-wide accounting of a run: service, request counts by state, latencies
 * (exact, kept per client), cache hits, the active interval for Jain's index and the backlogged
 * service gaps with the fairness bound (./guarantee.ts). The engine calls the `on*` methods as things
 * happen; `clientRows()` and `summary()` turn them into the result.
 *
 * Two notions of service are kept (DLPM paper §6.1 and its footnote 5):
 * - `service` is the system's view, the cost the schedulers balance: w_e per *computed* (uncached)
 *   input token and w_q per output token, every time it is computed (a preempted request's
 *   recomputation counts again). The theorems bound gaps in this quantity.
 * - `clientService` is the client's view, the paper's "service rate": w_e per input token of the
 *   whole prompt (cached or not) and w_q per output token, each counted once per request — the
 *   prompt when its first token appears, each output token the first time it is generated. Jain's
 *   index (`jain_index`) is over this one; `jain_index_extend` keeps the system-view index.
 */
import { FloatList } from './float-list';
import { GuaranteeMonitor } from './guarantee';
import { type JainBasis, jainIndex } from './jain';
import type { PairGaps } from './pair-gaps';
import { nearestRank } from './percentile';
import { ProgramTracker } from './programs';
import type { BoundSetup } from './theorem-bound';

export interface ClientRow {
  service: number;
  service_per_s: number;
  completed: number;
  ttft_p50_s: number | null;
  ttft_p99_s: number | null;
  e2e_p50_s: number | null;
  e2e_p99_s: number | null;
  itl_p50_s: number | null;
  itl_p99_s: number | null;
  /** Client-perspective service (w_e · whole input + w_q · output, each token once). */
  client_service: number;
  /** Program instances completed (every request done) and abandoned (a request rejected). */
  programs_completed: number;
  programs_failed: number;
  /** End-to-end time of whole programs, start to last request done (the paper's latency). */
  program_e2e_p50_s: number | null;
  program_e2e_p99_s: number | null;
  injected: number;
  rejected: number;
  queued: number;
  running: number;
  output_tokens: number;
}

export class MetricsCollector {
  readonly clients: readonly string[];
  readonly n: number;
  readonly weightIn: number;
  readonly weightOut: number;
  /** Cumulative service per client (w_e · uncached input + w_q · output). */
  readonly service: Float64Array;
  /** Cumulative client-perspective service (w_e · whole prompt + w_q · output, each token once). */
  readonly clientService: Float64Array;
  /** Program-level end-to-end latency. */
  readonly programs: ProgramTracker;
  readonly injected: Int32Array;
  readonly completed: Int32Array;
  readonly rejected: Int32Array;
  /** Submitted, not yet admitted or waiting again after preemption (router queue + worker queues). */
  readonly queued: Int32Array;
  readonly running: Int32Array;
  readonly outputTokens: Float64Array;
  readonly inputTokens: Float64Array;
  private readonly ttft: FloatList[];
  private readonly e2e: FloatList[];
  private readonly itl: FloatList[];
  private readonly firstSubmit: Float64Array;
  private readonly lastComplete: Float64Array;
  /** Row c: everybody's service when client c last completed a request. */
  private readonly serviceAtLastComplete: Float64Array;
  /** Row c: everybody's client-perspective service when client c last completed a request. */
  private readonly clientServiceAtLastComplete: Float64Array;
  private activeCount = 0;
  /** When the last client so far submitted its first request (NaN before anyone has). */
  private activeStartT = Number.NaN;
  private readonly serviceAtActiveStart: Float64Array;
  private readonly clientServiceAtActiveStart: Float64Array;
  /**
   * The service the fairness gaps are measured in: the system's view (`service`, the same array)
   * unless the scheduler charges otherwise, and its bound holds for what it charges: whole prompts
   * (VTC with `charge: input`: cached prompt tokens count too, at admission), or no first output
   * token (VTC with `output_charge: decode`: the token that ends a prefill does not count).
   */
  private readonly gapService: Float64Array;
  private readonly gapCountsCached: boolean;
  private readonly gapSkipsFirstToken: boolean;
  /** Gaps between backlogged clients against the bound of the scenario's fairness theorem. */
  readonly guarantee: GuaranteeMonitor;
  /** The pair tracker (`guarantee.gaps`): max_backlogged_service_gap and who is backlogged. */
  readonly gap: PairGaps;
  promptTokensAdmitted = 0;
  cachedTokensAdmitted = 0;
  preemptions = 0;
  /** Prompt + output tokens of completed requests (the paper's throughput, with the run's time). */
  completedTokens = 0;
  totalInjected = 0;
  totalCompleted = 0;
  totalRejected = 0;
  rejectReasons: Record<string, number> = {};

  constructor(
    clients: readonly string[],
    weights: { input: number; output: number },
    /** What the fairness bound depends on (none: gaps are measured, no bound). */
    bound: BoundSetup | null = null,
    /** Sampling of the gap series (match the engine's other series). */
    seriesOpts?: { capacity: number; initialDt: number },
  ) {
    this.clients = clients;
    const n = clients.length;
    this.n = n;
    this.weightIn = weights.input;
    this.weightOut = weights.output;
    this.service = new Float64Array(n);
    this.clientService = new Float64Array(n);
    this.programs = new ProgramTracker(n);
    this.injected = new Int32Array(n);
    this.completed = new Int32Array(n);
    this.rejected = new Int32Array(n);
    this.queued = new Int32Array(n);
    this.running = new Int32Array(n);
    this.outputTokens = new Float64Array(n);
    this.inputTokens = new Float64Array(n);
    this.ttft = clients.map(() => new FloatList());
    this.e2e = clients.map(() => new FloatList());
    this.itl = clients.map(() => new FloatList());
    this.firstSubmit = new Float64Array(n).fill(Number.NaN);
    this.lastComplete = new Float64Array(n).fill(Number.NaN);
    this.serviceAtLastComplete = new Float64Array(n * n);
    this.clientServiceAtLastComplete = new Float64Array(n * n);
    this.serviceAtActiveStart = new Float64Array(n);
    this.clientServiceAtActiveStart = new Float64Array(n);
    this.gapCountsCached = bound?.inputService === 'input';
    this.gapSkipsFirstToken = bound?.outputService === 'decode';
    this.gapService = this.gapCountsCached || this.gapSkipsFirstToken ? new Float64Array(n) : this.service;
    this.guarantee = new GuaranteeMonitor(clients, this.gapService, bound, seriesOpts);
    this.gap = this.guarantee.gaps;
  }

  /**
   * A client is backlogged while it has requests waiting for admission (router queue or a worker's
   * waiting queue), as in the VTC and DLPM papers; running requests alone do not count.
   */
  private updateBacklog(c: number, t: number): void {
    this.gap.setBacklogged(c, this.queued[c] > 0, t);
  }

  onSubmit(c: number, t: number): void {
    this.injected[c]++;
    this.totalInjected++;
    this.queued[c]++;
    if (Number.isNaN(this.firstSubmit[c])) {
      this.firstSubmit[c] = t;
      this.activeCount++;
      // the window restarts whenever one more client becomes active; the last restart is the
      // all-active window's start
      this.activeStartT = t;
      this.serviceAtActiveStart.set(this.service);
      this.clientServiceAtActiveStart.set(this.clientService);
    }
    this.updateBacklog(c, t);
  }

  onReject(c: number, t: number, reason: string): void {
    this.queued[c]--;
    this.rejected[c]++;
    this.totalRejected++;
    this.rejectReasons[reason] = (this.rejectReasons[reason] ?? 0) + 1;
    this.updateBacklog(c, t);
  }

  onAdmit(c: number, t: number, promptTokens: number, cachedTokens: number): void {
    this.queued[c]--;
    this.updateBacklog(c, t);
    this.running[c]++;
    this.guarantee.notePrompt(promptTokens);
    this.promptTokensAdmitted += promptTokens;
    this.cachedTokensAdmitted += cachedTokens;
    if (this.gapCountsCached && cachedTokens > 0) {
      this.gapService[c] += this.weightIn * cachedTokens;
      this.gap.touch(c);
    }
  }

  onPreempt(c: number, t: number): void {
    this.running[c]--;
    this.queued[c]++;
    this.updateBacklog(c, t);
    this.preemptions++;
  }

  /** Work done for client c: uncached input tokens computed and output tokens generated. */
  onService(c: number, inputTokens: number, outputTokens: number): void {
    const w = this.weightIn * inputTokens + this.weightOut * outputTokens;
    this.service[c] += w;
    // a step that computes prompt tokens and yields a token ended that request's prefill: its first
    if (this.gapSkipsFirstToken && inputTokens > 0) this.gapService[c] += this.weightIn * inputTokens;
    else if (this.gapService !== this.service) this.gapService[c] += w;
    this.inputTokens[c] += inputTokens;
    this.gap.touch(c);
  }

  /** Service from client c's point of view: whole input tokens and output tokens, each counted once. */
  onClientService(c: number, inputTokens: number, outputTokens: number): void {
    this.clientService[c] += this.weightIn * inputTokens + this.weightOut * outputTokens;
  }

  /** End of a batch step: fold this step's service into the backlog gap. */
  flushStep(t: number): void {
    this.gap.flush(t);
  }

  onComplete(
    c: number,
    t: number,
    arrivalT: number,
    firstTokenT: number,
    outputLen: number,
    promptLen = 0,
  ): void {
    this.completedTokens += promptLen + outputLen;
    this.running[c]--;
    this.completed[c]++;
    this.totalCompleted++;
    this.outputTokens[c] += outputLen;
    const ttft = firstTokenT - arrivalT;
    this.ttft[c].push(ttft);
    this.e2e[c].push(t - arrivalT);
    if (outputLen > 1) this.itl[c].push((t - firstTokenT) / (outputLen - 1));
    this.lastComplete[c] = t;
    this.serviceAtLastComplete.set(this.service, c * this.n);
    this.clientServiceAtLastComplete.set(this.clientService, c * this.n);
  }

  get queuedTotal(): number {
    let s = 0;
    for (let i = 0; i < this.n; i++) s += this.queued[i];
    return s;
  }

  get runningTotal(): number {
    let s = 0;
    for (let i = 0; i < this.n; i++) s += this.running[i];
    return s;
  }

  cacheHitRate(): number {
    return this.promptTokensAdmitted === 0 ? 0 : this.cachedTokensAdmitted / this.promptTokensAdmitted;
  }

  /**
   * Jain's index over the clients' service rates during the interval in which all clients that sent
   * anything were active: from the last client's first submission to the first client's last
   * completion (DLPM paper §6.1). `view` picks the service: `client` (whole input + output, the
   * paper's measure and `jain_index`) or `system` (computed tokens, `jain_index_extend`). Falls back
   * to the whole run [0, end] when that interval is empty.
   */
  jain(
    endT: number,
    view: 'client' | 'system' = 'client',
  ): { index: number; from: number; to: number; whole_run: boolean } & JainBasis {
    const service = view === 'client' ? this.clientService : this.service;
    const atLast = view === 'client' ? this.clientServiceAtLastComplete : this.serviceAtLastComplete;
    const atStart = view === 'client' ? this.clientServiceAtActiveStart : this.serviceAtActiveStart;
    const idx: number[] = [];
    for (let c = 0; c < this.n; c++) if (!Number.isNaN(this.firstSubmit[c])) idx.push(c);
    const servedOf = (xs: readonly number[]) => xs.reduce((k, x) => (x > 0 ? k + 1 : k), 0);
    if (idx.length <= 1)
      return {
        index: 1,
        from: 0,
        to: endT,
        whole_run: true,
        clients: idx.length,
        served: servedOf(idx.map((c) => service[c])),
      };
    let from = Number.NEGATIVE_INFINITY;
    let to = Number.POSITIVE_INFINITY;
    let toClient = -1;
    for (const c of idx) {
      from = Math.max(from, this.firstSubmit[c]);
      const last = this.lastComplete[c];
      const end = Number.isNaN(last) ? Number.NEGATIVE_INFINITY : last;
      if (end < to) {
        to = end;
        toClient = c;
      }
    }
    if (this.activeCount === this.n && to > from && toClient >= 0) {
      const rates = idx.map((c) => (atLast[toClient * this.n + c] - atStart[c]) / (to - from));
      return {
        index: jainIndex(rates),
        from,
        to,
        whole_run: false,
        clients: idx.length,
        served: servedOf(rates),
      };
    }
    const span = endT > 0 ? endT : 1;
    const rates = idx.map((c) => service[c] / span);
    return {
      index: jainIndex(rates),
      from: 0,
      to: endT,
      whole_run: true,
      clients: idx.length,
      served: servedOf(rates),
    };
  }

  /**
   * Jain's index so far, for the time series: over the clients active so far (those that have
   * submitted anything), of the client-perspective service each got since the last of them became
   * active, up to t (1 with fewer than two active clients or no service yet, jainIndex's
   * convention). Once every client is active this is the headline `jain_index`'s window, run up to
   * t (the headline stops at the first client's last completion, known only once the run is over).
   */
  jainSoFar(t: number): number {
    if (this.activeCount < 2 || !(t > this.activeStartT)) return 1;
    let s = 0;
    let s2 = 0;
    let k = 0;
    for (let c = 0; c < this.n; c++) {
      if (Number.isNaN(this.firstSubmit[c])) continue;
      const x = this.clientService[c] - this.clientServiceAtActiveStart[c];
      s += x;
      s2 += x * x;
      k++;
    }
    return s2 === 0 ? 1 : (s * s) / (k * s2);
  }

  /** The clients `jainSoFar` compares: those that have submitted anything. */
  get jainClientsSoFar(): number {
    return this.activeCount;
  }

  /** How many of them got client-perspective service in `jainSoFar`'s window, up to t. */
  jainServedSoFar(t: number): number {
    if (!(t >= this.activeStartT)) return 0;
    let k = 0;
    for (let c = 0; c < this.n; c++) {
      if (Number.isNaN(this.firstSubmit[c])) continue;
      if (this.clientService[c] - this.clientServiceAtActiveStart[c] > 0) k++;
    }
    return k;
  }

  clientRow(c: number, simTime: number): ClientRow {
    const tt = this.ttft[c].sorted();
    const ee = this.e2e[c].sorted();
    const it = this.itl[c].sorted();
    const pe = this.programs.e2e[c].sorted();
    return {
      service: this.service[c],
      service_per_s: simTime > 0 ? this.service[c] / simTime : 0,
      completed: this.completed[c],
      ttft_p50_s: nearestRank(tt, 50),
      ttft_p99_s: nearestRank(tt, 99),
      e2e_p50_s: nearestRank(ee, 50),
      e2e_p99_s: nearestRank(ee, 99),
      itl_p50_s: nearestRank(it, 50),
      itl_p99_s: nearestRank(it, 99),
      client_service: this.clientService[c],
      programs_completed: pe.length,
      programs_failed: this.programs.failed[c],
      program_e2e_p50_s: nearestRank(pe, 50),
      program_e2e_p99_s: nearestRank(pe, 99),
      injected: this.injected[c],
      rejected: this.rejected[c],
      queued: this.queued[c],
      running: this.running[c],
      output_tokens: this.outputTokens[c],
    };
  }

  /** Latency percentiles over all clients' completed requests. */
  overallLatency(): {
    ttft_p50_s: number | null;
    ttft_p99_s: number | null;
    e2e_p50_s: number | null;
    e2e_p99_s: number | null;
    program_e2e_p50_s: number | null;
    program_e2e_p99_s: number | null;
  } {
    const merge = (lists: FloatList[]) => {
      const parts = lists.map((l) => l.sorted());
      const total = parts.reduce((s, p) => s + p.length, 0);
      const all = new Float64Array(total);
      let o = 0;
      for (const p of parts) {
        all.set(p, o);
        o += p.length;
      }
      return all.sort();
    };
    const tt = merge(this.ttft);
    const ee = merge(this.e2e);
    const pe = merge(this.programs.e2e);
    return {
      ttft_p50_s: nearestRank(tt, 50),
      ttft_p99_s: nearestRank(tt, 99),
      e2e_p50_s: nearestRank(ee, 50),
      e2e_p99_s: nearestRank(ee, 99),
      program_e2e_p50_s: nearestRank(pe, 50),
      program_e2e_p99_s: nearestRank(pe, 99),
    };
  }
}
