/**
 * A single worker driven by scripted arrivals, for policy tests: admission order, charged service per
 * client (w_e · uncached prompt at admission + w_q per output token) and the backlogged-service gaps
 * the DLPM and VTC theorems bound, computed here independently of the policies' own counters.
 */
import { GPUS, MODELS } from '../../../src/core/cost';
import type { AdmitDetail } from '../../../src/core/sim/decision';
import type { DecisionDraft } from '../../../src/core/replica/replica';
import { Replica } from '../../../src/core/replica/replica';
import { SimRequest } from '../../../src/core/sim/request';
import { createLocalPolicy } from '../../../src/core/algorithms';
import type { LocalPolicy } from '../../../src/core/replica/local-policy';
import type { SloClass } from '../../../src/core/workload/types';

export const range = (from: number, n: number) => Int32Array.from({ length: n }, (_, i) => from + i);
export const concat = (...parts: Int32Array[]) => Int32Array.from(parts.flatMap((p) => [...p]));

export interface HarnessOpts {
  policy: string;
  /** A policy object to drive instead of the one `policy` names (a reference implementation). */
  use?: LocalPolicy;
  clients?: string[];
  kvTokens?: number;
  blockSize?: number;
  maxBatchTokens?: number;
  maxRunning?: number;
  preemption?: 'fcfs' | 'priority' | 'sglang';
  /** Replica admission (default sglang, as in scenarios). */
  admission?: 'sglang' | 'optimistic';
  prefixCaching?: boolean;
  quantum?: number;
  weights?: { input: number; output: number };
  scheduler?: Record<string, unknown>;
  recording?: boolean;
  /**
   * What the gap bookkeeping counts as input service: the uncached (extend) tokens (default, the
   * system's view DLPM charges) or every prompt token (what VTC charges with `charge: input`).
   */
  inputService?: 'extend' | 'input';
}

export interface Arrival {
  t: number;
  id: string;
  client: string;
  tokens: Int32Array;
  out: number;
  slo?: SloClass;
}

let serial = 0;

export class Harness {
  readonly w: Replica;
  readonly policy: LocalPolicy;
  readonly clients: string[];
  readonly weights: { input: number; output: number };
  readonly admitted: string[] = [];
  readonly completed: string[] = [];
  readonly records: DecisionDraft[] = [];
  /** Charged service per client. */
  readonly service: number[];
  /** Waiting requests per client at the worker. */
  readonly waiting: number[];
  /** Largest |ΔW_f − ΔW_g| over intervals where both f and g stayed backlogged (Theorem 4.1). */
  maxGap = 0;
  /** Largest ΔW_g − ΔW_f over intervals where f stayed backlogged (Theorem 4.2). */
  maxRise = 0;
  now = 0;
  private readonly lo: number[][];
  private readonly hi: number[][];
  private readonly minD: number[][];

  constructor(o: HarnessOpts) {
    this.clients = o.clients ?? ['a', 'b'];
    this.weights = o.weights ?? { input: 1, output: 2 };
    const n = this.clients.length;
    this.service = new Array(n).fill(0);
    this.waiting = new Array(n).fill(0);
    this.lo = this.clients.map(() => new Array(n).fill(0));
    this.hi = this.clients.map(() => new Array(n).fill(0));
    this.minD = this.clients.map(() => new Array(n).fill(0));
    this.policy =
      o.use ??
      createLocalPolicy(
        o.policy,
        { workerId: 0, clients: this.clients, weights: this.weights },
        { quantum: o.quantum ?? 2500, deadline_multiplier: 1.5, min_deadline_s: 0.5, ...(o.scheduler ?? {}) },
      );
    const recording = o.recording ?? true;
    this.w = new Replica(
      {
        id: 0,
        gpu: GPUS['a100-80gb'],
        model: MODELS['llama-3.1-8b'],
        kvTokens: o.kvTokens ?? 100_000,
        blockSize: o.blockSize ?? 1,
        maxBatchTokens: o.maxBatchTokens ?? 8192,
        maxRunning: o.maxRunning ?? 256,
        preemption: o.preemption ?? 'fcfs',
        prefixCaching: o.prefixCaching ?? true,
        chunkTokens: o.maxBatchTokens ?? 8192,
        admission: o.admission,
      },
      this.policy,
      {
        recording,
        record: (d) => this.records.push(d),
        onAdmit: (r) => {
          this.admitted.push(r.id);
          this.waiting[r.client]--;
          const input = o.inputService === 'input' ? r.promptLen : r.promptLen - r.cachedLen;
          this.charge(r.client, this.weights.input * input);
        },
        onFirstToken: () => {},
        onService: (r, _i, out) => {
          if (out > 0) this.charge(r.client, this.weights.output * out);
        },
        onPreempt: (r) => {
          this.waiting[r.client]++;
          this.openIntervals(r.client);
        },
        onComplete: (r) => this.completed.push(r.id),
      },
    );
  }

  client(name: string): number {
    const c = this.clients.indexOf(name);
    if (c < 0) throw new Error(`unknown client ${name}`);
    return c;
  }

  request(a: Omit<Arrival, 't'>, t = 0): SimRequest {
    return new SimRequest(
      {
        id: a.id,
        client: a.client,
        tokens: a.tokens,
        outputTokens: a.out,
        // a hand-made request asks for exactly its output, as a scripted one does
        maxNewTokens: a.out,
        sloClass: a.slo ?? 'standard',
        program: a.id,
        node: 'n',
      },
      this.client(a.client),
      serial++,
      t,
    );
  }

  /** Put a request in the worker's queue now. */
  add(a: Omit<Arrival, 't'>, t = this.now): SimRequest {
    const r = this.request(a, t);
    this.waiting[r.client]++;
    this.openIntervals(r.client);
    this.w.enqueue(r, t);
    return r;
  }

  /** One batch step at the current time (returns false when the worker had nothing to do). */
  step(): boolean {
    const dt = this.w.beginStep(this.now);
    if (dt < 0) return false;
    this.now += dt;
    this.w.endStep(this.now);
    const p = this.w.check();
    if (p) throw new Error(p);
    return true;
  }

  /** Run scripted arrivals to the end (arrivals are enqueued at the first step start at or after their t). */
  run(arrivals: Arrival[], maxSteps = 200_000): void {
    const list = [...arrivals].sort((x, y) => x.t - y.t);
    let next = 0;
    for (let s = 0; s < maxSteps; s++) {
      while (next < list.length && list[next].t <= this.now) this.add(list[next], list[next++].t);
      if (!this.step()) {
        if (next >= list.length) return;
        this.now = Math.max(this.now, list[next].t);
      }
    }
    throw new Error('harness: too many steps');
  }

  // ---- gap bookkeeping -----------------------------------------------------------------------------

  private backlogged(c: number): boolean {
    return this.waiting[c] > 0;
  }

  /** Client c (re)joins the backlog: start fresh intervals with everyone. */
  private openIntervals(c: number): void {
    if (this.waiting[c] !== 1) return; // was already backlogged
    const n = this.clients.length;
    for (let g = 0; g < n; g++) {
      const d = this.service[c] - this.service[g];
      this.lo[c][g] = this.hi[c][g] = d;
      this.lo[g][c] = this.hi[g][c] = -d;
      this.minD[c][g] = this.service[g] - this.service[c];
    }
  }

  private charge(c: number, amount: number): void {
    this.service[c] += amount;
    const n = this.clients.length;
    const s = this.service;
    for (let f = 0; f < n; f++) {
      if (!this.backlogged(f)) continue;
      for (let g = 0; g < n; g++) {
        if (g === f) continue;
        // Theorem 4.2: f backlogged throughout, g anything
        const rise = s[g] - s[f];
        if (rise < this.minD[f][g]) this.minD[f][g] = rise;
        this.maxRise = Math.max(this.maxRise, rise - this.minD[f][g]);
        // Theorem 4.1: both backlogged throughout
        if (!this.backlogged(g)) continue;
        const d = s[f] - s[g];
        if (d < this.lo[f][g]) this.lo[f][g] = d;
        if (d > this.hi[f][g]) this.hi[f][g] = d;
        this.maxGap = Math.max(this.maxGap, this.hi[f][g] - this.lo[f][g]);
      }
    }
  }

  /** Admission records' details, in order. */
  admitDetails(): AdmitDetail[] {
    return this.records.flatMap((r) => (r.kind === 'admit' ? [r.detail] : []));
  }

  /** Admission records' details written by algorithm `algo`, in order (typed as that algorithm's). */
  detailsOf<A extends NonNullable<AdmitDetail['algo']>>(algo: A): Extract<AdmitDetail, { algo: A }>[] {
    return this.admitDetails().filter((d): d is Extract<AdmitDetail, { algo: A }> => d.algo === algo);
  }
}
