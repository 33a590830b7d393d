/**
 * The discrete-event simulator of an LLM serving cluster: clients (the workload) submit requests, the
 * router (optionally behind Dynamo's policy-class DRR queue) picks workers, and each worker runs
 * continuous batching over a paged KV cache with a radix prefix cache.
 *
 * Time is simulated seconds only. Events sit in a heap keyed by (time, sequence), so simultaneous
 * events run in the order they were scheduled and a run is a pure function of the scenario and seed.
 * Randomness comes from one Rng seeded by the scenario, forked per purpose ("workload", "router").
 *
 * Stepping: `stepEvent()` processes one event; `stepDecision()` runs until the next decision record
 * (router dispatch, DRR pop, admission, batch step, preemption, ...); `runUntil(t)` and `runToEnd()`
 * run on. `snapshot()` is everything the UI draws; `result()` the CLI's JSON.
 */
import { deepClone } from '../clone';
import { GPUS, MODELS } from '../cost';
import { Rng } from '../prng';
import {
  createLocalPolicy,
  createRouterPolicy,
  schedulerAlgorithm,
  localPolicyProblem,
  routerPolicyProblem,
} from '../algorithms/index';
import { Router, type RouterHooks } from '../router/router';
import { createWorkload } from '../workload';
import {
  clientTraceSource,
  TraceWorkload,
  type TraceSource,
  replayOptionsOf,
  selectClientProblem,
} from '../trace/workload';
import type { Workload, WorkloadEvent, RequestSpec } from '../workload/types';
import { type DecisionDraft, Replica, type ReplicaHooks } from '../replica/replica';
import { MetricsCollector } from '../metrics/collector';
import { ClassServiceCollector } from '../metrics/class-service';
import type { BoundSetup } from '../metrics/theorem-bound';
import { DownsampledSeries } from '../metrics/series';
import type { DecisionRecord } from './decision';
import {
  EV_ARRIVAL,
  EV_KICK,
  EV_ROUTER_TICK,
  EV_ROUTER_TIMER,
  EV_STEP_END,
  EV_SUBMIT,
  type EventKind,
  EventQueue,
} from './event-queue';
import { ReqState, SimRequest } from './request';
import { buildResult, type RunResult } from './result';
import { buildSnapshot, type SimSnapshot } from './snapshot';
import { isTraceClient, type SimScenario } from '../input';
import type { DynamoRelease } from '../drr/types';
import { nextRecheckTick } from '../drr/release';

/** Longest cruise (quiet step ends skipped in one go) of one worker. */
const CRUISE_MAX = 4096;

/** Index of `t` in the sorted times[from..to], or -1. */
function indexOfTime(times: Float64Array, from: number, to: number, t: number): number {
  if (t < times[from] || t > times[to]) return -1;
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return times[lo] === t ? lo : -1;
}

/** Thrown at construction when the scenario asks for something the engine cannot run (yet). */
export class SimConfigError extends Error {
  constructor(
    message: string,
    /** Scenario key path of the offending value, for positioned CLI messages. */
    readonly path: (string | number)[],
  ) {
    super(message);
    this.name = 'SimConfigError';
  }
}

export interface SimOptions {
  /** Build decision records (default true). The fast path passes false. */
  record?: boolean;
  /** Seed override (default: scenario.seed). */
  seed?: number;
  /** The workload, or a factory for it (default: `createWorkload` of src/core/workload). */
  workload?: Workload | ((scenario: SimScenario, rng: Rng) => Workload);
  /** How many recent decisions the snapshot keeps (default 200). */
  recentDecisions?: number;
  /**
   * Decode fast-forward in runToEnd/runUntil (default true). It never changes a result; false keeps
   * every step end in the event heap (for tests that compare the two).
   */
  fastForward?: boolean;
}

export interface RunOptions {
  /** Called every `progressEvery` events with the progress in [0, 1); return false to stop the run. */
  onProgress?: (frac: number) => unknown;
  progressEvery?: number;
  /** Stop after this many events in this call (a guard; default unlimited). */
  maxEvents?: number;
}

type Payload = RequestSpec;

export class Simulation {
  readonly scenario: SimScenario;
  readonly seed: number;
  readonly workers: Replica[];
  readonly router: Router;
  readonly metrics: MetricsCollector;
  readonly clients: readonly string[];
  /** Set to receive every decision record (for --trace); records are built only when recording. */
  onDecision?: (d: DecisionRecord) => void;
  /** Set to see every request that leaves the system (completed or rejected), with its timestamps. */
  onRequestDone?: (r: SimRequest) => void;
  /** Set to see every request as it is submitted (before the router sees it). */
  onRequestArrived?: (r: SimRequest) => void;

  private _now = 0;
  private readonly events = new EventQueue<Payload>();
  private readonly workload: Workload;
  private readonly clientIndex = new Map<string, number>();
  private recordOn: boolean;
  private readonly recentCap: number;
  private readonly recent: DecisionRecord[] = [];
  private recentHead = 0;
  /** Per algorithm (a detail's `algo`), its newest admission or dispatch, whatever `recent` still holds. */
  private readonly latestAlgo = new Map<string, DecisionRecord>();
  private pending: DecisionRecord[] = [];
  private collecting = false;
  private decisionCount = 0;
  private eventCount = 0;
  private serial = 0;
  readonly series: DownsampledSeries;
  private readonly sampleBuf: Float64Array;
  stoppedReason: string | null = null;
  /**
   * Decode fast-forward (#14), on only inside runToEnd/runUntil with records off. A worker whose
   * next step ends are all "quiet" (decoding only, see Replica.planQuietSteps) cruises: those step
   * ends are processed in a tight loop instead of through the event heap, and only the end of its
   * first non-quiet step is in the heap. The run is the same event for event:
   * - every event of another kind first catches every cruising worker up to its time (quiet step
   *   ends strictly before it), so whatever it reads or changes sees exactly the original state;
   * - quiet step ends of different workers commute: they touch only their own worker and add the
   *   same amount to a client's service counters, read by nobody in between while at most one client
   *   is backlogged (the pair-gap flush reads service only with two) and the router holds nothing
   *   (no drain can dispatch); no cruise crosses the next series sample;
   * - ties: no event time equals a time a cruising worker still has to reach (checked when a cruise
   *   starts and on every push; a worker whose time is hit stops cruising first), so the heap's
   *   (time, sequence) order never has to compare a skipped step end.
   * A worker the router dispatches to, or any condition above breaking, stops every affected cruise:
   * its next step end goes back into the heap as an ordinary event.
   */
  private cruiseOn = false;
  private readonly fastForward: boolean;
  private readonly cruisers: number[] = [];
  /** Per worker: step-end times of its cruise (quiet ends first, then the real end), and positions. */
  private readonly cruiseTimes: Float64Array[] = [];
  private readonly cruiseNext: Int32Array;
  private readonly cruiseEnd: Int32Array;
  /** Per worker: sequence number of its live step-end event (-1: none); others are stale. */
  private readonly stepSeq: Float64Array;
  /**
   * Step-end events in the heap that a stopped cruise left behind, and periodic-update ticks set
   * while requests were stored that no longer are (both skipped when they come up).
   */
  private staleEvents = 0;
  /**
   * The router scheduler's periodic update (`Router.onRecheckTick`, every `router.recheckS` seconds
   * from router start). Its ticks at multiples k of the interval are put in the heap one at a time,
   * only while the policy queue holds requests (a tick with nothing stored does nothing in Dynamo),
   * so an idle or finished run holds no tick. `tickSeq` is the sequence number of the live tick (-1:
   * none; another one in the heap is stale), `tickArmedK` its k, `tickFiredK` the k of the last tick
   * that ran. A tick that changed nothing (`tickIdle`) is not followed by another until some other
   * event has run: with nothing else happening the next one would find the same state.
   */
  private tickSeq = -1;
  private tickArmedK = 0;
  private tickFiredK = 0;
  private tickIdle = false;
  /** Step ends processed by fast-forward so far (for tests: the fast path did run). */
  fastForwardedSteps = 0;

  constructor(scenario: SimScenario, opts: SimOptions = {}) {
    this.scenario = scenario;
    this.seed = (opts.seed ?? scenario.seed) >>> 0;
    this.recordOn = opts.record !== false;
    this.recentCap = opts.recentDecisions ?? 200;
    this.fastForward = opts.fastForward !== false;
    const problem = configProblem(scenario);
    if (problem) throw problem;
    const root = new Rng(this.seed);
    const wl = opts.workload ?? defaultWorkload;
    this.workload = typeof wl === 'function' ? wl(scenario, root.fork('workload')) : wl;
    this.clients = [...this.workload.clients];
    this.clients.forEach((c, i) => {
      this.clientIndex.set(c, i);
    });
    const weights = scenario.scheduler.weights;
    const c = scenario.cluster;
    const seriesDt = Math.max(0.01, (scenario.duration_s || 1) / 512);
    this.metrics = new MetricsCollector(this.clients, weights, boundSetup(scenario), {
      capacity: 512,
      initialDt: seriesDt,
    });
    const gpu = GPUS[c.gpu];
    const model = MODELS[c.model];
    const hooks = new EngineHooks(this);
    this.workers = [];
    for (let i = 0; i < c.workers; i++) {
      const policy = createLocalPolicy(
        scenario.scheduler.policy,
        { workerId: i, clients: this.clients, weights },
        scenario.scheduler,
      );
      this.workers.push(
        new Replica(
          {
            id: i,
            gpu,
            model,
            kvTokens: c.kv_cache_tokens,
            blockSize: c.block_size,
            maxBatchTokens: c.max_batch_tokens,
            maxRunning: c.max_running,
            preemption: c.preemption ?? (scenario.worker.admission === 'optimistic' ? 'fcfs' : 'sglang'),
            admission: scenario.worker.admission,
            prefixCaching: c.prefix_caching,
            chunkTokens: c.chunking?.chunk_tokens ?? c.max_batch_tokens,
            chunkMode: c.chunking?.mode ?? 'fixed',
            targetStepS: (c.chunking?.target_step_ms ?? 50) / 1000,
          },
          policy,
          hooks,
        ),
      );
    }
    const routerPolicy = createRouterPolicy(
      scenario.router.routing,
      { workers: c.workers, clients: this.clients, weights, gpu, model },
      scenario.router,
    );
    this.router = new Router(
      routerPolicy,
      this.workers,
      scenario.router.policy ?? null,
      root.fork('router'),
      hooks,
      modelledRelease(scenario.router),
    );
    // held requests (pull's shared queue) leave in the order of the scheduler's request prioritizer
    this.router.heldOrder =
      schedulerAlgorithm(scenario.scheduler.policy)?.heldOrder({ gpu, model }, scenario.scheduler) ?? null;
    const q = this.router.queue;
    if (q !== null) {
      const classes = q
        .profiles()
        .flatMap((p) =>
          p.classes.map((c) => ({ name: c.name, quantum: c.quantum, quantumBig: c.quantumBig })),
        );
      this.router.classService = new ClassServiceCollector(classes, { capacity: 512, initialDt: seriesDt });
    }
    this.router.defaultModel = scenario.cluster.model;
    this.cruiseNext = new Int32Array(c.workers);
    this.cruiseEnd = new Int32Array(c.workers).fill(-1);
    this.stepSeq = new Float64Array(c.workers).fill(-1);
    for (let i = 0; i < c.workers; i++) this.cruiseTimes.push(new Float64Array(CRUISE_MAX + 1));
    this.series = new DownsampledSeries(this.seriesNames(), 512, seriesDt);
    this.sampleBuf = new Float64Array(this.seriesNames().length);
    for (const ev of this.workload.initialEvents()) this.scheduleWorkloadEvent(ev);
  }

  get now(): number {
    return this._now;
  }

  get recording(): boolean {
    return this.recordOn;
  }

  /** Turn decision records on or off from now on. */
  setRecording(on: boolean): void {
    this.recordOn = on;
  }

  get eventsProcessed(): number {
    return this.eventCount;
  }

  /**
   * Decisions taken so far (arrivals, rejections, queueing, DRR pops, dispatches, admissions,
   * preemptions, batch steps, completions): counted whether or not records are built, so it is the
   * same with and without recording. Equals the number of records when recording from the start.
   */
  get decisions(): number {
    const m = this.metrics;
    const r = this.router;
    let n =
      m.totalInjected +
      m.totalRejected +
      m.totalCompleted +
      m.preemptions +
      r.enqueued +
      r.popped +
      r.dispatched;
    for (const w of this.workers) n += w.admissions + w.steps;
    return n;
  }

  /** Records built so far (their `seq` numbers run 0 .. recordsBuilt-1). */
  get recordsBuilt(): number {
    return this.decisionCount;
  }

  done(): boolean {
    return this.events.size === this.staleEvents || this.stoppedReason !== null;
  }

  // ---- stepping -------------------------------------------------------------------------------------

  /** Process one event; false when there was none. */
  stepEvent(): boolean {
    this.pending.length = 0;
    return this.processEvent();
  }

  /**
   * Advance to and through the next decision and return its record (null when the run is over).
   * Turns recording on (a decision cannot be returned without its record).
   */
  stepDecision(): DecisionRecord | null {
    this.recordOn = true;
    if (this.pending.length > 0) return this.pending.shift()!;
    this.collecting = true;
    try {
      while (this.pending.length === 0) if (!this.processEvent()) return null;
    } finally {
      this.collecting = false;
    }
    return this.pending.shift()!;
  }

  /**
   * `stepDecision`, processing no event due after `tS`: the next decision record (one the last event
   * recorded and none has taken yet, or one of an event due by `tS`), or null when there is none by
   * then. Taken until null and followed by `runUntil(tS)`, it leaves the run as `runUntil(tS)` alone
   * would, with every decision handed out (the playground's log shows each one).
   */
  stepDecisionBy(tS: number): DecisionRecord | null {
    this.recordOn = true;
    if (this.pending.length > 0) return this.pending.shift()!;
    this.collecting = true;
    try {
      while (this.pending.length === 0) {
        const next = this.peekLive();
        if (next === undefined || next.t > tS || this.stoppedReason !== null) return null;
        this.processEvent();
      }
    } finally {
      this.collecting = false;
    }
    return this.pending.shift()!;
  }

  /** Process every event up to and including simulated time `tS`; the clock then reads `tS`. */
  runUntil(tS: number): void {
    this.pending.length = 0;
    this.cruiseOn = this.fastForward && !this.recordOn;
    try {
      for (;;) {
        const next = this.peekLive();
        if (next === undefined || next.t > tS || this.stoppedReason !== null) break;
        this.processEvent();
      }
      // quiet step ends up to and including tS belong to this call, as they would as events
      if (this.cruisers.length > 0) this.catchUp(tS, true);
    } finally {
      this.stopCruising();
    }
    if (tS > this._now && this.events.size > this.staleEvents) this._now = tS;
  }

  runToEnd(opts: RunOptions = {}): void {
    this.pending.length = 0;
    const every = opts.progressEvery ?? 65536;
    const max = opts.maxEvents ?? Number.POSITIVE_INFINITY;
    // an event limit stops at an exact event: keep every event in the heap then
    this.cruiseOn = this.fastForward && !this.recordOn && max === Number.POSITIVE_INFINITY;
    const start = this.eventCount;
    let progressAt = every;
    try {
      while (this.stoppedReason === null && this.processEvent()) {
        const n = this.eventCount - start;
        if (n >= max) {
          this.stoppedReason = `stopped after ${max} events (event limit)`;
          break;
        }
        if (opts.onProgress && n >= progressAt) {
          progressAt = (Math.floor(n / every) + 1) * every;
          const d = this.scenario.duration_s;
          const frac = d > 0 ? Math.min(0.99, this._now / d) : 0;
          if (opts.onProgress(frac) === false) {
            this.stoppedReason = 'stopped by the caller';
            break;
          }
        }
      }
    } finally {
      this.stopCruising();
    }
  }

  /** The next event that is not a stale step end or tick (stale ones are dropped from the heap). */
  private peekLive() {
    for (;;) {
      const ev = this.events.peek();
      if (ev === undefined || !this.isStale(ev)) return ev;
      this.events.release(this.events.pop()!);
      this.staleEvents--;
    }
  }

  private isStale(ev: { kind: EventKind; index: number; seq: number }): boolean {
    if (ev.kind === EV_STEP_END) return this.stepSeq[ev.index] !== ev.seq;
    return ev.kind === EV_ROUTER_TICK && ev.seq !== this.tickSeq;
  }

  private processEvent(): boolean {
    if (this.peekLive() === undefined) return false;
    const ev = this.events.pop()!;
    if (ev.kind === EV_ROUTER_TICK && this.peekLive()?.t === ev.t) {
      // ties: the periodic update runs after every other event at its instant (see syncTick)
      this.tickSeq = this.push(ev.t, EV_ROUTER_TICK, 0).seq;
      this.events.release(ev);
      return true;
    }
    if (this.cruisers.length > 0) {
      this.catchUp(ev.t, false);
      if (ev.kind === EV_STEP_END) this.endCruise(ev.index);
    }
    if (ev.t > this._now) this._now = ev.t;
    const t = this._now;
    this.eventCount++;
    switch (ev.kind) {
      case EV_ARRIVAL: {
        const name = this.clients[ev.index];
        const { submit, next } = this.workload.onArrival(name, t);
        for (const spec of submit) this.submit(spec, t);
        if (next) this.scheduleWorkloadEvent(next);
        break;
      }
      case EV_SUBMIT:
        this.submit(ev.payload as RequestSpec, t);
        break;
      case EV_STEP_END: {
        const w = this.workers[ev.index];
        w.endStep(t);
        this.metrics.flushStep(t);
        // with a policy-class queue, Dynamo's router re-examines it only at its own updates (the
        // prefill completions and frees this step reported); held requests are offered at every end
        if (this.router.queue !== null) {
          this.router.applyUpdates(t);
          if (this.router.queuedCount > 0) this.router.drain(t, false);
        } else this.router.drain(t);
        this.startStep(w, t);
        break;
      }
      case EV_ROUTER_TIMER:
        this.router.onDueTimer(t);
        break;
      case EV_ROUTER_TICK:
        this.tickSeq = -1;
        this.tickFiredK = this.tickArmedK;
        // a tick that changed nothing is invisible: no series sample is taken at it either
        this.tickIdle = !this.router.onRecheckTick(t);
        break;
      case EV_KICK: {
        const w = this.workers[ev.index];
        w.kickPending = false;
        if (!w.busy) this.startStep(w, t);
        break;
      }
    }
    const quiet = ev.kind === EV_ROUTER_TICK && this.tickIdle;
    this.syncTick(ev.kind);
    this.events.release(ev);
    if (!quiet && t >= this.series.nextT) this.sample(t);
    // a cruise's premises hold between events only while nothing is queued at the router and at
    // most one client is backlogged; otherwise every cruising worker steps through the heap again
    if (this.cruisers.length > 0 && (this.router.queuedCount > 0 || this.metrics.gap.backloggedCount > 1))
      this.endAllCruises();
    return true;
  }

  /**
   * After each event: put the next periodic-update tick in the heap when requests are stored and
   * none is there, or mark the one there stale when nothing is stored any more.
   *
   * The tick is due at the first multiple k >= 1 of the interval at or after now that has not run
   * yet: Dynamo's interval fires at router start (simulated time 0), when nothing is stored, then
   * every interval. Tie rule: at its instant the tick runs after every other event,
   * including ones scheduled at that instant after it was set (`processEvent` puts it back behind
   * them). In Dynamo the tick and the other work of that instant race for the queue actor; taking
   * the tick last keeps every decision the model took at that instant as it was, and only adds the
   * pops of a request that could leave but was left stored, which the tick then sees; an arrival at
   * exactly the tick's instant counts as before it.
   */
  private syncTick(kind: EventKind): void {
    const every = this.router.recheckS;
    const q = this.router.queue;
    if (every === null || q === null) return;
    if (kind !== EV_ROUTER_TICK) this.tickIdle = false;
    const want = q.size() > 0 && !this.tickIdle;
    if (want && this.tickSeq < 0) {
      let k = nextRecheckTick(this._now, every);
      if (k <= this.tickFiredK) k = this.tickFiredK + 1;
      this.tickArmedK = k;
      this.tickSeq = this.push(k * every, EV_ROUTER_TICK, 0).seq;
    } else if (!want && this.tickSeq >= 0) {
      this.tickSeq = -1;
      this.staleEvents++;
    }
  }

  private startStep(w: Replica, t: number): void {
    if (w.busy) return;
    const dt = w.beginStep(t);
    if (dt >= 0) {
      const k = this.cruiseOn ? this.planCruise(w, t) : 0;
      if (k > 0) {
        const times = this.cruiseTimes[w.id];
        this.pushStepEnd(times[k], w.id);
        this.cruiseNext[w.id] = 0;
        this.cruiseEnd[w.id] = k;
        this.cruisers.push(w.id);
      } else this.pushStepEnd(t + dt, w.id);
    }
    // admissions may have lowered the workers' live load: held requests may leave (the policy-class
    // queue reads the router's own record, which admissions do not change)
    if (this.router.queuedCount > 0) this.router.drain(t, this.router.queue === null);
  }

  // ---- decode fast-forward (see cruiseOn) -----------------------------------------------------------

  private push(t: number, kind: EventKind, index: number, payload: Payload | null = null) {
    if (this.cruisers.length > 0) this.clearTime(t);
    return this.events.push(t, kind, index, payload);
  }

  private pushStepEnd(t: number, wi: number): void {
    this.stepSeq[wi] = this.push(t, EV_STEP_END, wi).seq;
  }

  /** Stop the cruise of every worker that has yet to reach time `t` exactly (see cruiseOn, ties). */
  private clearTime(t: number): void {
    for (let again = true; again; ) {
      again = false;
      for (const wi of this.cruisers) {
        if (indexOfTime(this.cruiseTimes[wi], this.cruiseNext[wi], this.cruiseEnd[wi], t) >= 0) {
          // ending a cruise pushes an event, which may clear other cruises: scan again
          this.endCruise(wi);
          again = true;
          break;
        }
      }
    }
  }

  /**
   * How many quiet step ends worker `w` may skip through after the step it just planned at `t`
   * (0: none). Fills cruiseTimes[w.id] (quiet ends, then the real end at index k).
   */
  private planCruise(w: Replica, t: number): number {
    if (this.router.queuedCount > 0 || this.metrics.gap.backloggedCount > 1) return 0;
    const times = this.cruiseTimes[w.id];
    let k = w.planQuietSteps(t, this.series.nextT, CRUISE_MAX, times);
    if (k === 0) return 0;
    // ties: an event already queued at one of these times keeps its place before them (the real
    // end may fall on it: pushed now, after it, as the original push at the previous end would be);
    // another cruise's time ends this one a step earlier, so the push there sorts it out
    const heap = this.events.items();
    for (let h = 0; h < heap.length; h++) {
      const e = heap[h];
      if (this.isStale(e)) continue;
      const j = indexOfTime(times, 0, k, e.t);
      if (j >= 0 && j < k) k = j;
    }
    for (const vi of this.cruisers) {
      // merge walk over two sorted lists: the first of w's times that another cruise also reaches
      const vt = this.cruiseTimes[vi];
      const vEnd = this.cruiseEnd[vi];
      let a = 0;
      let b = this.cruiseNext[vi];
      while (a <= k && b <= vEnd) {
        if (times[a] < vt[b]) a++;
        else if (times[a] > vt[b]) b++;
        else {
          k = a - 1;
          break;
        }
      }
      if (k <= 0) return 0;
    }
    return k > 0 ? k : 0;
  }

  /** Process cruising workers' quiet step ends before `t` (or at it too, when `inclusive`). */
  private catchUp(t: number, inclusive: boolean): void {
    const list = this.cruisers;
    for (let i = 0; i < list.length; i++) {
      const wi = list[i];
      const times = this.cruiseTimes[wi];
      const end = this.cruiseEnd[wi];
      let j = this.cruiseNext[wi];
      if (j >= end || times[j] > t || (times[j] === t && !inclusive)) continue;
      const w = this.workers[wi];
      const m = this.metrics;
      while (j < end && (times[j] < t || (inclusive && times[j] === t))) {
        const at = times[j];
        this.eventCount++;
        this.fastForwardedSteps++;
        // (the flush comes after the next step's planning here: planning a quiet step touches no
        // service counter, so the flush sees what it would see between endStep and beginStep)
        const dt = w.quietStep(at);
        m.flushStep(at);
        j++;
        if (at + dt !== times[j])
          throw new Error(`internal: worker ${wi}'s fast-forward diverged at t=${at}`);
      }
      this.cruiseNext[wi] = j;
    }
  }

  /**
   * Worker `wi` steps through the heap again from its next step end (its quiet ends before now are
   * done). When that is its real end, the heap already holds it.
   */
  private endCruise(wi: number): void {
    const i = this.cruisers.indexOf(wi);
    if (i < 0) return;
    this.cruisers.splice(i, 1);
    const j = this.cruiseNext[wi];
    const end = this.cruiseEnd[wi];
    this.cruiseEnd[wi] = -1;
    if (j < end) {
      this.staleEvents++; // the real end queued at the cruise's start
      this.pushStepEnd(this.cruiseTimes[wi][j], wi);
    }
  }

  private endAllCruises(): void {
    while (this.cruisers.length > 0) this.endCruise(this.cruisers[this.cruisers.length - 1]);
  }

  private stopCruising(): void {
    this.endAllCruises();
    this.cruiseOn = false;
  }

  private scheduleWorkloadEvent(ev: WorkloadEvent): void {
    const t = Math.max(ev.t, this._now);
    if (ev.kind === 'arrival') {
      const ci = this.clientIndex.get(ev.client);
      if (ci === undefined) throw new Error(`workload: arrival for unknown client '${ev.client}'`);
      this.push(t, EV_ARRIVAL, ci);
    } else this.push(t, EV_SUBMIT, -1, ev.request);
  }

  // ---- request flow ---------------------------------------------------------------------------------

  private submit(spec: RequestSpec, t: number): void {
    const ci = this.clientIndex.get(spec.client);
    if (ci === undefined)
      throw new Error(`workload: request ${spec.id} from unknown client '${spec.client}'`);
    const r = new SimRequest(spec, ci, this.serial++, t);
    this.metrics.onSubmit(ci, t);
    this.metrics.programs.submit(spec.program, spec.id, ci, t);
    this.onRequestArrived?.(r);
    if (this.recordOn)
      this.record({
        t,
        kind: 'arrive',
        request: r.id,
        client: spec.client,
        summary: `t=${t.toFixed(3)} s  ${spec.client} submits ${r.id} (${r.promptLen} prompt tokens, ${spec.node})`,
        detail: {
          prompt_tokens: r.promptLen,
          program: spec.program,
          node: spec.node,
          slo_class: spec.sloClass,
        },
      });
    const w0 = this.workers[0];
    if (w0.lifetimeBlocks(r) + 1 > w0.kv.totalBlocks) {
      if (this.recordOn)
        this.record({
          t,
          kind: 'reject',
          request: r.id,
          client: spec.client,
          summary: `t=${t.toFixed(3)} s  ${r.id} rejected: prompt + output exceed a worker's KV cache (${w0.kv.totalBlocks} blocks)`,
          detail: { reason: 'exceeds_kv_capacity' },
        });
      this.rejectRequest(r, 'exceeds_kv_capacity');
      return;
    }
    this.router.submit(r, t);
    if (this.router.queuedCount > 0) this.router.drainAfterArrival(t);
  }

  /** @internal (EngineHooks) the router's due-time timer, at `t` */
  routerTimer(t: number): void {
    this.push(t, EV_ROUTER_TIMER, 0);
  }

  /** @internal (EngineHooks) the router chose worker `wi` */
  dispatchTo(r: SimRequest, wi: number): void {
    const w = this.workers[wi];
    if (w === undefined) throw new Error(`router chose worker ${wi}, but there are ${this.workers.length}`);
    // its waiting queue is about to change: its next step end may admit
    if (this.cruiseEnd[wi] >= 0) this.endCruise(wi);
    // the busy signal of the policy-class queue needs the overlap; otherwise skip the extra match
    w.enqueue(r, this._now, false, this.router.queue !== null ? this.router.overlap(r, wi) : 0);
    if (!w.busy && !w.kickPending) {
      w.kickPending = true;
      this.push(this._now, EV_KICK, wi);
    }
  }

  /** @internal (EngineHooks) */
  rejectRequest(r: SimRequest, reason: string): void {
    r.state = ReqState.Rejected;
    this.metrics.onReject(r.client, this._now, reason);
    this.onRequestDone?.(r);
    for (const ev of this.workload.onReject(r.id, this._now)) this.followUp(ev, r.client);
    this.metrics.programs.finish(r.spec.program, this._now, false);
    r.compact();
  }

  /** @internal (EngineHooks) a request finished: metrics, the router policy, the program's follow-ups */
  requestCompleted(r: SimRequest, t: number): void {
    this.metrics.onComplete(r.client, t, r.arrivalT, r.firstTokenT, r.outputLen, r.promptLen);
    this.onRequestDone?.(r);
    this.router.policy.onComplete?.(r, r.worker, this.router);
    for (const ev of this.workload.onComplete(r.id, t)) this.followUp(ev, r.client);
    this.metrics.programs.finish(r.spec.program, t, true);
    r.compact();
  }

  /** A follow-up from the workload: announced to the program tracker (its program stays open), then scheduled. */
  private followUp(ev: WorkloadEvent, client: number): void {
    if (ev.kind === 'submit')
      this.metrics.programs.announce(
        ev.request.program,
        ev.request.id,
        this.clientIndex.get(ev.request.client) ?? client,
        this._now,
      );
    this.scheduleWorkloadEvent(ev);
  }

  // ---- decisions ------------------------------------------------------------------------------------

  /** @internal (EngineHooks) */
  record(d: DecisionDraft): void {
    const rec: DecisionRecord = { seq: this.decisionCount++, ...d };
    if (this.recent.length < this.recentCap) this.recent.push(rec);
    else {
      this.recent[this.recentHead] = rec;
      this.recentHead = (this.recentHead + 1) % this.recentCap;
    }
    if ((rec.kind === 'admit' || rec.kind === 'dispatch') && rec.detail.algo !== undefined)
      this.latestAlgo.set(rec.detail.algo, rec);
    if (this.collecting) this.pending.push(rec);
    this.onDecision?.(rec);
  }

  /** Each algorithm's newest admission or dispatch that carries its detail, oldest first. */
  latestAlgorithmDecisions(): DecisionRecord[] {
    return [...this.latestAlgo.values()].sort((a, b) => a.seq - b.seq);
  }

  /** The last decisions, oldest first. */
  recentDecisions(): DecisionRecord[] {
    return [...this.recent.slice(this.recentHead), ...this.recent.slice(0, this.recentHead)];
  }

  // ---- series ---------------------------------------------------------------------------------------

  private seriesNames(): string[] {
    const names: string[] = [];
    for (const c of this.clients) names.push(`service:${c}`);
    for (const c of this.clients) names.push(`queued:${c}`);
    for (let i = 0; i < this.scenario.cluster.workers; i++) names.push(`kv:${i}`);
    names.push('router_queue');
    // prefix-cache hit rate so far: cached / prompt tokens over all admissions on all workers
    names.push('cache_hit');
    // Jain's index of client-perspective service since all clients became active (metrics.jainSoFar)
    names.push('jain');
    // what that index compares (metrics/jain.ts JainBasis): active clients, and those of them served
    // in its window; views show the index as n/a unless jainMeaningful
    names.push('jain_clients');
    names.push('jain_served');
    return names;
  }

  private sample(t: number): void {
    const b = this.sampleBuf;
    const n = this.clients.length;
    const m = this.metrics;
    for (let i = 0; i < n; i++) {
      b[i] = m.service[i];
      b[n + i] = m.queued[i];
    }
    for (let w = 0; w < this.workers.length; w++) {
      const kv = this.workers[w].kv;
      b[2 * n + w] = kv.totalBlocks === 0 ? 0 : kv.allocatedBlocks / kv.totalBlocks;
    }
    b[2 * n + this.workers.length] = this.router.queuedCount;
    let prompt = 0;
    let cached = 0;
    for (const w of this.workers) {
      prompt += w.admittedPromptTokens;
      cached += w.admittedCachedTokens;
    }
    b[2 * n + this.workers.length + 1] = prompt === 0 ? 0 : cached / prompt;
    b[2 * n + this.workers.length + 2] = m.jainSoFar(t);
    b[2 * n + this.workers.length + 3] = m.jainClientsSoFar;
    b[2 * n + this.workers.length + 4] = m.jainServedSoFar(t);
    this.series.sample(t, b);
    m.guarantee.sample(t);
    this.router.classService?.sample(t);
  }

  // ---- checkpoints --------------------------------------------------------------------------------

  /**
   * An independent copy of the engine as it is now: stepping either one never affects the other, and
   * the copy runs on exactly as this one would (same records, same results). The scenario and prompt
   * token buffers are shared (they never change); callbacks set on this engine (`onDecision`,
   * `onRequestDone`, `onRequestArrived`) are not carried over. `bytes` estimates what the copy added
   * to memory.
   */
  fork(): { sim: Simulation; bytes: number } {
    const { onDecision, onRequestDone, onRequestArrived } = this;
    this.onDecision = undefined;
    this.onRequestDone = undefined;
    this.onRequestArrived = undefined;
    try {
      const { value, bytes } = deepClone<Simulation>(this, { share: new Set<object>([this.scenario]) });
      return { sim: value, bytes };
    } finally {
      this.onDecision = onDecision;
      this.onRequestDone = onRequestDone;
      this.onRequestArrived = onRequestArrived;
    }
  }

  // ---- views ----------------------------------------------------------------------------------------

  snapshot(): SimSnapshot {
    return buildSnapshot(this);
  }

  result(): RunResult {
    return buildResult(this);
  }

  /** Invariant violations right now (empty when all hold). For tests and debugging. */
  checkInvariants(): string[] {
    const out: string[] = [];
    const m = this.metrics;
    let waiting = 0;
    let running = 0;
    for (const w of this.workers) {
      const p = w.check();
      if (p) out.push(p);
      waiting += w.waitingCount;
      running += w.runningCount;
      if (!w.busy && !w.kickPending && w.waitingCount > 0)
        out.push(`worker ${w.id} idles with ${w.waitingCount} waiting requests`);
      if (w.runningCount > w.maxRunning) out.push(`worker ${w.id} runs ${w.runningCount} > max_running`);
    }
    const queued = waiting + this.router.queuedCount;
    if (queued !== m.queuedTotal)
      out.push(`queued: structures hold ${queued}, metrics count ${m.queuedTotal}`);
    if (running !== m.runningTotal)
      out.push(`running: workers hold ${running}, metrics count ${m.runningTotal}`);
    if (m.totalInjected !== m.totalCompleted + queued + running + m.totalRejected)
      out.push(
        `conservation: injected ${m.totalInjected} != completed ${m.totalCompleted} + queued ${queued} + running ${running} + rejected ${m.totalRejected}`,
      );
    return out;
  }
}

/**
 * How workers and the router reach the engine. A class holding the simulation (not closures) so
 * that a deep copy of the engine, used for the playground's checkpoints, calls into the copy.
 */
class EngineHooks implements ReplicaHooks, RouterHooks {
  constructor(private readonly sim: Simulation) {}

  get recording(): boolean {
    return this.sim.recording;
  }

  record(d: DecisionDraft): void {
    this.sim.record(d);
  }

  onAdmit(r: SimRequest, t: number): void {
    this.sim.metrics.onAdmit(r.client, t, r.promptLen, r.cachedLen);
  }

  onFirstToken(r: SimRequest): void {
    this.sim.router.onPrefillDone(r);
  }

  onService(r: SimRequest, inputTokens: number, outputTokens: number): void {
    const m = this.sim.metrics;
    m.onService(r.client, inputTokens, outputTokens);
    // the client's view: the whole prompt with the first output token, each output token once
    if (outputTokens > 0 && r.generated > r.servedOutput) {
      m.onClientService(r.client, r.servedOutput === 0 ? r.promptLen : 0, r.generated - r.servedOutput);
      r.servedOutput = r.generated;
    }
  }

  onPreempt(r: SimRequest, t: number): void {
    this.sim.metrics.onPreempt(r.client, t);
  }

  onComplete(r: SimRequest, t: number): void {
    this.sim.router.onFreed(r);
    this.sim.requestCompleted(r, t);
  }

  wakeAt(t: number): void {
    this.sim.routerTimer(t);
  }

  dispatch(r: SimRequest, w: number): void {
    this.sim.dispatchTo(r, w);
  }

  reject(r: SimRequest, reason: string): void {
    this.sim.rejectRequest(r, reason);
  }
}

/** The scenario's clients and scripted requests, plus its trace replays (its own `trace:` and its trace clients'). */
function defaultWorkload(s: SimScenario, rng: Rng): Workload {
  const base = createWorkload(s, rng);
  const sources: TraceSource[] = [];
  s.clients.forEach((c, i) => {
    if (!isTraceClient(c)) return;
    if (c.trace.data === null)
      throw new SimConfigError(
        `trace file '${c.trace.file}' of client '${c.name}' was not read (the command line reads it; in the playground, drop it on the page or pick it in Import)`,
        ['clients', i, 'trace', 'file'],
      );
    const only = c.trace.select_client;
    const none = only === undefined ? null : selectClientProblem(c.trace.data, c.trace.file, only);
    if (none !== null) throw new SimConfigError(none, ['clients', i, 'trace', 'select_client']);
    sources.push(clientTraceSource(c, c.trace.data));
  });
  const tr = s.trace;
  if (tr !== undefined) {
    if (tr.data === null)
      throw new SimConfigError(
        tr.file !== undefined
          ? `trace file '${tr.file}' was not read (the command line reads it; in the playground, drop it on the page or pick it in Import)`
          : 'no trace file: give trace.file (or run --replay <file>), or drop a trace on the page',
        ['trace'],
      );
    sources.push({ table: tr.data, opts: replayOptionsOf(tr), fixed: null });
  }
  if (sources.length === 0) return base;
  try {
    return new TraceWorkload(base, sources, s.duration_s);
  } catch (err) {
    throw new SimConfigError(err instanceof Error ? err.message : String(err), ['trace', 'client']);
  }
}

/**
 * The Dynamo release whose class queue a run models: the scenario's `router.dynamo_release`, else the
 * newest release that accepts the policy file, else the newest.
 */
export function modelledRelease(r: SimScenario['router']): DynamoRelease {
  if (r.dynamo_release !== undefined) return r.dynamo_release;
  const accepted = r.policy?.releases;
  const newest = accepted !== undefined && accepted.length > 0 ? accepted[accepted.length - 1] : 'v1.6';
  return isRelease(newest) ? newest : 'v1.6';
}

function isRelease(s: string): s is DynamoRelease {
  return s === 'v1.3' || s === 'v1.4' || s === 'v1.5' || s === 'v1.6';
}

/** What the fairness bound of the Guarantees view depends on (M: one worker's KV cache, whole blocks). */
function boundSetup(s: SimScenario): BoundSetup {
  const c = s.cluster;
  return {
    policy: s.scheduler.policy,
    routing: s.router.routing,
    workers: c.workers,
    quantum: s.scheduler.policy === 'dlpm' ? s.scheduler.quantum : 0,
    workerQuantum: s.router.routing === 'doubleq' ? s.router.worker_quantum : null,
    weights: s.scheduler.weights,
    kvTokens: Math.floor(c.kv_cache_tokens / c.block_size) * c.block_size,
    quantumPerRequest: s.scheduler.policy === 'dlpm' && s.scheduler.dlpm_quantum_per_request === true,
    inputService: s.scheduler.policy === 'vtc' && s.scheduler.charge === 'input' ? 'input' : 'extend',
    outputService: s.scheduler.policy === 'vtc' ? s.scheduler.output_charge : 'token',
    clientWeighted:
      s.scheduler.policy === 'vtc' && Object.values(s.scheduler.client_weights).some((w) => w !== 1),
  };
}

/** The first reason the engine cannot run this scenario, or null. */
export function configProblem(s: SimScenario): SimConfigError | null {
  const local = localPolicyProblem(s.scheduler.policy);
  if (local) return new SimConfigError(local, ['scheduler', 'policy']);
  const routing = routerPolicyProblem(s.router.routing);
  if (routing) return new SimConfigError(routing, ['router', 'routing']);
  if (!GPUS[s.cluster.gpu]) return new SimConfigError(`unknown gpu '${s.cluster.gpu}'`, ['cluster', 'gpu']);
  if (!MODELS[s.cluster.model])
    return new SimConfigError(`unknown model '${s.cluster.model}'`, ['cluster', 'model']);
  return null;
}
