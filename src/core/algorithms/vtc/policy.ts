/**
 * VTC, the Virtual Token Counter (Sheng et al., OSDI'24), on one worker.
 *
 * Every client has a counter of the service it has been given here. Admission repeatedly takes the
 * client with the smallest counter among those with waiting requests (ties: the client this worker
 * saw first) and offers its oldest request; when that request does not fit, admission stops for this
 * step (head-of-line: VTC never lets another client overtake). Charging:
 *   - at admission, w_e per input token: with `scheduler.charge: input` (the default) every prompt
 *     token, cached or not, as the VTC artifact (S-LoRA's fair scheduler) charges `input_len`; with
 *     `charge: extend` only the uncached part (the prompt minus the prefix found in the radix cache,
 *     the "extend" measure DLPM uses);
 *   - after every batch step, w_q per output token produced (`scheduler.output_charge: token`, the
 *     default): every output token as generated, the first (which ends the prefill) included, n·w_q
 *     for n tokens, as the VTC paper defines the cost. `output_charge: decode` is what the VTC
 *     artifact's scheduler does: its decode path charges every running request before each decode
 *     forward and its prefill path charges nothing, so the first token is free ((n − 1)·w_q).
 *     `output_charge: finish` adds, on top of `decode`, the artifact's later revision: in a step
 *     where any request that produced a token finishes, every request that produced a token in that
 *     step pays w_q once more (a whole-batch re-charge, so a request's cost depends on its batch
 *     mates; the project's reference says not to copy it by default).
 * Cadence (`scheduler.max_wait_steps`, default 0 = every step): with N > 0, while requests run the
 * policy tries admission only once N batch steps have ended since the last step that admitted, and
 * then every step until one admits; with nothing running it tries at once. This is the VTC
 * artifact's router loop (S-LoRA's): a new batch when none runs, else after max_wait_tokens = 10
 * decode steps. Unlike S-LoRA, our admitting step still decodes the running requests (mixed batches).
 * Client weights (`scheduler.client_weights`, default 1 each): every charge above is divided by the
 * client's weight, as the artifact divides by its per-client fair weight, so the counters compare
 * service per unit of weight and backlogged clients are served in proportion to their weights.
 * Lift: when a client's queue goes from empty to non-empty, its counter is raised to the smallest
 * counter among the other clients that have waiting requests (never lowered; no lift when nobody
 * else waits), so idle time earns no credit. Charges are not refunded on preemption: the recompute
 * is charged again when the request is re-admitted (it is real work).
 *
 * Cost: O(clients) per admission (a scan for the smallest counter), O(1) per enqueue plus the
 * O(clients) lift check, O(batch) per step for the output charge.
 *
 * Fairness bound (VTC paper, Theorem 4.1 adapted to this charging): for two continuously backlogged
 * clients, |W_f − W_g| ≤ 2·max(w_e·L_input, w_q·M) where M is the most tokens a running batch holds;
 * `describe()` reports it with L_input = the longest prompt seen here and M = the KV capacity. W is
 * the service charged (under `output_charge: decode`, without each request's first output token);
 * the Guarantees view claims it only with every client weight 1 and without `output_charge: finish`.
 */
import type { SimRequest } from '../../sim/request';
import type {
  AdmissionContext,
  ClientPolicyState,
  LocalPolicy,
  LocalPolicyConfig,
  WorkerView,
} from '../../replica/local-policy';
import { Deque } from '../../replica/deque';
import { cachedPrefix } from '../shared/prefix-order';
import type { VtcAdmitDetail } from './detail';

/** What admission charges: the whole prompt (the VTC artifact) or its uncached part. */
export type VtcCharge = 'input' | 'extend';

/**
 * What output charges: each decode step ('decode', the artifact), each output token including the
 * prefill's ('token'), or each decode step plus a whole-step re-charge when one request finishes
 * ('finish', the artifact's revision).
 */
export type VtcOutputCharge = 'decode' | 'token' | 'finish';

/** At most this many pending lift notes are kept for the next decision record. */
const MAX_NOTES = 16;

/** What a snapshot shows of VTC on one worker: counters, weights, charge rule and the bound 2·U. */
export interface VtcState {
  /** Client name -> virtual token counter (clients seen here). */
  counters: Record<string, number>;
  weights: { input: number; output: number };
  charge: VtcCharge;
  output_charge: VtcOutputCharge;
  /** Admission cadence: steps to wait after an admission while requests run (0: none). */
  max_wait_steps: number;
  /** Client name -> fair weight, for the clients whose weight is not 1. */
  client_weights: Record<string, number>;
  bound: number;
  L_input: number;
  M: number;
}

export class VtcPolicy implements LocalPolicy {
  readonly name = 'vtc';
  private readonly clients: readonly string[];
  private readonly counters: Float64Array;
  private readonly queues: (Deque<SimRequest> | null)[];
  /** Clients in the order this worker first saw them (the tie-break). */
  private readonly seen: number[] = [];
  private readonly seenAt: Int32Array;
  private total = 0;
  private readonly we: number;
  private readonly wq: number;
  private readonly workerId: number;
  /** Fair weight per client (1 unless `client_weights` names it). */
  private readonly fw: Float64Array;
  /** `max_wait_steps` (0: admission every step). */
  private readonly maxWait: number;
  /** Batch steps ended since the last step that admitted. */
  private sinceAdmit = 0;
  private admittedThisStep = false;
  private lifts: { client: string; from: number; to: number }[] = [];
  private maxPrompt = 0;
  private kvTokens = 0;

  readonly charge: VtcCharge;
  readonly outputCharge: VtcOutputCharge;

  constructor(
    cfg: LocalPolicyConfig,
    charge: VtcCharge = 'input',
    outputCharge: VtcOutputCharge = 'decode',
    clientWeights: Readonly<Record<string, number>> = {},
    maxWaitSteps = 0,
  ) {
    this.maxWait = maxWaitSteps;
    this.charge = charge;
    this.outputCharge = outputCharge;
    this.fw = Float64Array.from(cfg.clients, (name) => clientWeights[name] ?? 1);
    this.clients = cfg.clients;
    const n = cfg.clients.length;
    this.counters = new Float64Array(n);
    this.queues = new Array(n).fill(null);
    this.seenAt = new Int32Array(n).fill(-1);
    this.we = cfg.weights.input;
    this.wq = cfg.weights.output;
    this.workerId = cfg.workerId;
  }

  size(): number {
    return this.total;
  }

  /** The counter of client `c` (for tests). */
  counter(c: number): number {
    return this.counters[c];
  }

  enqueue(req: SimRequest, worker: WorkerView, front: boolean): void {
    const c = req.client;
    if (this.seenAt[c] < 0) {
      this.seenAt[c] = this.seen.length;
      this.seen.push(c);
    }
    if (req.promptLen > this.maxPrompt) this.maxPrompt = req.promptLen;
    this.kvTokens = worker.kv.totalBlocks * worker.kv.blockSize;
    let q = this.queues[c];
    if (q === null) {
      q = new Deque<SimRequest>();
      this.queues[c] = q;
    }
    if (q.size === 0) this.lift(c);
    if (front) q.pushFront(req);
    else q.pushBack(req);
    this.total++;
  }

  /** Client `c` becomes backlogged: raise its counter to the smallest one among the other waiting clients. */
  private lift(c: number): void {
    let min = Number.POSITIVE_INFINITY;
    for (const o of this.seen) {
      if (o === c) continue;
      const q = this.queues[o];
      if (q !== null && q.size > 0 && this.counters[o] < min) min = this.counters[o];
    }
    if (min === Number.POSITIVE_INFINITY || min <= this.counters[c]) return;
    if (this.lifts.length < MAX_NOTES)
      this.lifts.push({ client: this.clients[c], from: this.counters[c], to: min });
    this.counters[c] = min;
  }

  /** The waiting client with the smallest counter (ties: first seen), or -1. */
  private pick(): number {
    let best = -1;
    for (const c of this.seen) {
      const q = this.queues[c];
      if (q === null || q.size === 0) continue;
      if (best < 0 || this.counters[c] < this.counters[best]) best = c;
    }
    return best;
  }

  admit(ctx: AdmissionContext): void {
    // the cadence: while requests run, wait for max_wait_steps steps since the last admission
    if (this.maxWait > 0 && ctx.worker.runningCount > 0 && this.sinceAdmit < this.maxWait) return;
    for (;;) {
      const c = this.pick();
      if (c < 0) return;
      const q = this.queues[c] as Deque<SimRequest>;
      const head = q.at(0);
      const outcome = ctx.recording
        ? ctx.tryAdmit(head, `smallest counter (${this.counters[c]})`, this.detail(c, head, ctx.worker))
        : ctx.tryAdmit(head);
      if (outcome !== 'admitted') return; // head-of-line: nobody overtakes the chosen client's head
      q.popFront();
      this.total--;
      this.admittedThisStep = true;
      this.counters[c] +=
        (this.we * (this.charge === 'input' ? head.promptLen : head.promptLen - head.cachedLen)) / this.fw[c];
    }
  }

  private detail(c: number, head: SimRequest, worker: WorkerView): VtcAdmitDetail {
    const counters: Record<string, number> = {};
    for (const o of this.seen) {
      const q = this.queues[o];
      if (q !== null && q.size > 0) counters[this.clients[o]] = this.counters[o];
    }
    const d: VtcAdmitDetail = {
      algo: 'vtc',
      worker: this.workerId,
      counters,
      chosen_client: this.clients[c],
      head: head.id,
      head_fits: true,
      charge:
        (this.we * (this.charge === 'input' ? head.promptLen : head.promptLen - cachedPrefix(head, worker))) /
        this.fw[c],
      charge_mode: this.charge,
    };
    if (this.fw[c] !== 1) d.weight = this.fw[c];
    if (this.lifts.length > 0) {
      d.lifts = this.lifts;
      this.lifts = [];
    }
    return d;
  }

  onStepEnd(batch: readonly SimRequest[]): void {
    if (this.admittedThisStep) {
      this.admittedThisStep = false;
      this.sinceAdmit = 0;
    } else this.sinceAdmit++;
    const wq = this.wq;
    const mode = this.outputCharge;
    let finished = false;
    for (let i = 0; i < batch.length; i++) {
      const r = batch[i];
      // produced a token in this step: a decode (generated ≥ 2 now) or the end of its prefill (= 1)
      if (r.chunk === 0 || r.prefilled < r.promptLen) continue;
      if (mode === 'token' || r.generated >= 2) this.counters[r.client] += wq / this.fw[r.client];
      // the worker marks it done right after this call (the true length is a fact by now)
      if (r.generated >= r.outputLen) finished = true;
    }
    if (mode !== 'finish' || !finished) return;
    for (let i = 0; i < batch.length; i++) {
      const r = batch[i];
      if (r.chunk > 0 && r.prefilled >= r.promptLen) this.counters[r.client] += wq / this.fw[r.client];
    }
  }

  waiting(limit: number): SimRequest[] {
    // the order admission would take if everything fitted: simulate picks on copied counters
    const counters = Float64Array.from(this.counters);
    const pos = new Int32Array(this.counters.length);
    const out: SimRequest[] = [];
    while (out.length < limit) {
      let best = -1;
      for (const c of this.seen) {
        const q = this.queues[c];
        if (q === null || pos[c] >= q.size) continue;
        if (best < 0 || counters[c] < counters[best]) best = c;
      }
      if (best < 0) break;
      const r = (this.queues[best] as Deque<SimRequest>).at(pos[best]++);
      counters[best] += (this.we * r.promptLen) / this.fw[best]; // cache unknown here: charge the whole prompt (either mode)
      out.push(r);
    }
    return out;
  }

  clientState(): ClientPolicyState {
    const counter = Array.from(this.counters);
    return this.fw.some((w) => w !== 1)
      ? { kind: 'counter', counter, weight: Array.from(this.fw) }
      : { kind: 'counter', counter };
  }

  describe(): VtcState {
    const u = Math.max(this.we * this.maxPrompt, this.wq * this.kvTokens);
    return {
      counters: Object.fromEntries(this.seen.map((c) => [this.clients[c], this.counters[c]])),
      weights: { input: this.we, output: this.wq },
      charge: this.charge,
      output_charge: this.outputCharge,
      max_wait_steps: this.maxWait,
      client_weights: Object.fromEntries(
        this.clients.flatMap((name, c) => (this.fw[c] === 1 ? [] : [[name, this.fw[c]]])),
      ),
      bound: 2 * u,
      L_input: this.maxPrompt,
      M: this.kvTokens,
    };
  }
}
