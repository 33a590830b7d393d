/**
 * The cluster router: the optional Dynamo policy-class queue in front, then worker selection by a
 * RouterPolicy, then the hand-off to a worker.
 *
 * With a policy (`router.policy`), each request is classified with `cached_tokens` = its best prefix
 * overlap among the eligible workers' radix caches (here: all workers), taken once. Up to Dynamo v1.5
 * it is queued when queueing is enabled and its class already has a backlog or its pool is busy (every
 * eligible worker's active prefill tokens above the class threshold, or enough of them with
 * `busy_worker_ratio`); otherwise it goes straight to worker selection. From v1.6 (PR #14176) every
 * arrival is stored and the engine's drain right after it pops it in the same turn when it may leave,
 * through DRR; only a class with a per-worker queue limit of 0 keeps the direct path (see
 * `drr/release.ts`). A queue limit reached at enqueue rejects the request for good. The busy rules
 * read the router's own record of each worker's load (`BookedLoad`), and the queue is drained at the
 * router's updates, as Dynamo's: a request's prefill completes or it is freed on a worker
 * (`onPrefillDone`, `onFreed`, then `applyUpdates`): DRR pops whose class heads are dispatchable go
 * to worker selection, until nothing more can leave. After an arrival v1.6 drains too; up to v1.5 it
 * pops nothing (`drainAfterArrival`), as Dynamo's scheduler then waited for the next update (or
 * its periodic one). v1.6
 * sweeps expired due times out of every class at each drain and on a timer (`onDueTimer`), which
 * then drains the queue like any update. In every release the scheduler's periodic update drains it
 * too, every 60 s from router start (`onRecheckTick`; the engine schedules the ticks). Up to v1.5
 * the record also forgets bookings older than 300 s at Dynamo's expiry checks (`expireBookings`).
 *
 * A `hold` answer from the RouterPolicy (late binding) parks the request in the router; held requests
 * are offered again on every drain, in the order of the scenario's request prioritizer (`heldOrder`:
 * Vajra keeps the pull replica set's shared queue as a priority queue under the configured
 * prioritizer — EDF, LRS, FCFS …), arrival order when the scheduler has none.
 */
import {
  BOOKING_CHECK_GATE_S,
  BOOKING_EXPIRY_S,
  BOOKING_SWEEP_S,
  bookingExpiryFaults,
  type DrrSnapshot,
  dueSweepFaults,
  expiresBookingsByAge,
  type LastPop,
  PolicyQueue,
  type WorkerLoad,
  hasLanes,
  neverQueues,
  poolBusy,
  ROUTER_QUEUE_RECHECK_S,
  recheckIntervalS,
  storesEveryArrival,
  sweepsDueTimes,
  workerBusy,
} from '../drr';
import type { ClassState, CompiledPolicy, DynamoRelease, QueuedRequest } from '../drr/types';
import type { ClassServiceCollector } from '../metrics/class-service';
import type { Rng } from '../prng';
import { ReqState, type SimRequest } from '../sim/request';
import type { EvictListener, RadixNode } from '../replica/radix-cache';
import type { DecisionDraft, Replica } from '../replica/replica';
import type { RejectDetail } from '../sim/decision';
import type { ClusterView, RouterPolicy } from './router-policy';
import { evictedBranch } from '../algorithms/shared/global-prefix-tree';
import type { Prioritizer } from '../algorithms/shared/prioritizer';
import { HeldQueue } from '../algorithms/shared/held-queue';
import type { RouteDecisionDetail } from '../algorithms/details';

export interface RouterHooks {
  readonly recording: boolean;
  record(d: DecisionDraft): void;
  /** Put the request on worker `w` (the engine enqueues it and wakes the worker). */
  dispatch(r: SimRequest, w: number): void;
  /** The request is refused for good. */
  reject(r: SimRequest, reason: string): void;
  /** Call `Router.onDueTimer` at simulated time `t` (v1.6's timer at the earliest queued due time). */
  wakeAt?(t: number): void;
}

/**
 * A worker's load as the queue's busy rules read it: the router's own record, as Dynamo's router
 * keeps it (`ActiveSequencesMultiWorker`), not the worker's live numbers. A request's prefill tokens
 * (its prompt minus the tokens cached on the worker it is sent to) are booked when the router sends
 * it and dropped whole when its prefill completes or it is freed; chunks in between change nothing.
 * (Dynamo can also let the booked tokens decay over a predicted prefill time, with a prefill-load
 * estimator configured; not modelled: no estimator.) Up to v1.5 a booking also leaves the record
 * when it grows too old (`Router.expireBookings`; `BOOKING_EXPIRY_S` in drr/release.ts).
 */
class BookedLoad implements WorkerLoad {
  activePrefillTokens = 0;
  /** When this worker's last expiry check ran (Dynamo: `last_expiry_check_time`; router start: 0). */
  lastCheck = 0;
  /** This worker's bookings in the order they were made (so by age), from `head` on. */
  bookings: { r: SimRequest; at: number }[] = [];
  head = 0;
  constructor(readonly maxBatchedTokens: number) {}
}

/** Passes one worker's radix-cache evictions on to the router policy's global prefix tree. */
class EvictForwarder implements EvictListener {
  constructor(
    private readonly policy: RouterPolicy,
    private readonly worker: number,
    private readonly blockSize: number,
  ) {}

  evicted(node: RadixNode): void {
    const { path, depth } = evictedBranch(node, this.blockSize);
    this.policy.onEvict?.(this.worker, path, depth);
  }
}

export class Router implements ClusterView {
  readonly policy: RouterPolicy;
  readonly workers: readonly Replica[];
  readonly rng: Rng;
  now = 0;
  private readonly hooks: RouterHooks;
  readonly queue: PolicyQueue<SimRequest> | null;
  /** The router's own record of each worker's load (Dynamo's), read by the queue's busy rules. */
  private readonly loads: BookedLoad[];
  /**
   * Updates the engine has reported since the last `applyUpdates` (prefill completions and frees, in
   * order), each with the worker and how many booked tokens it dropped. The record already holds
   * every drop; `applyUpdates` replays them one at a time, each followed by its drain.
   */
  private updates: { worker: number; dropped: number }[] = [];
  /** The due time the v1.6 timer is set for (Infinity: none). */
  private timerAt = Number.POSITIVE_INFINITY;
  /** Held requests (late binding), in the order of `heldOrder` (../algorithms/shared/held-queue.ts). */
  private held = new HeldQueue(null);
  private order: Prioritizer | null = null;
  private memoReq: SimRequest | null = null;
  private readonly memo: Int32Array;
  /** Service per policy class (set by the engine when the policy queue is on). */
  classService: ClassServiceCollector | null = null;
  /** Counts for snapshots. */
  dispatched = 0;
  popped = 0;
  enqueued = 0;
  /** The last recorded DRR pop (the ring's "last arbitration"); null before one, or when not recording. */
  lastPop: LastPop | null = null;
  /**
   * The model a request without its own model is served as (the cluster's model): a policy's
   * `models:` profile with this key applies to it, as Dynamo picks the profile by served model name.
   */
  defaultModel: string | null = null;
  /** The Dynamo release line whose class queue is modelled. */
  readonly release: DynamoRelease;
  /**
   * The period of the scheduler's periodic update in simulated seconds, null for none (no policy
   * queue): the engine calls `onRecheckTick` at its multiples while requests are stored.
   */
  readonly recheckS: number | null;
  /** Periodic updates that found requests stored (whether or not any could leave). */
  recheckTicks = 0;
  /** v1.6 arrivals stored since the last drain: compacted there if they are still waiting (#15.3). */
  private fresh: SimRequest[] = [];
  /** Whether bookings expire by age (up to v1.5 with a policy queue; see `expireBookings`). */
  private readonly expiry: boolean;
  /** The next expiry sweep over every worker not yet applied (multiples of `BOOKING_SWEEP_S`). */
  private nextSweep = BOOKING_SWEEP_S;
  /** Bookings dropped from the record because they grew too old (up to v1.5). */
  expiredBookings = 0;
  /** `expiredBookings` when the last periodic update ran. */
  private expiredAtTick = 0;

  constructor(
    policy: RouterPolicy,
    workers: readonly Replica[],
    compiled: CompiledPolicy | null,
    rng: Rng,
    hooks: RouterHooks,
    /** The Dynamo release whose class queue is modelled (v1.3: no exact-worker lanes). */
    release: DynamoRelease = 'v1.6',
  ) {
    this.policy = policy;
    this.workers = workers;
    this.rng = rng;
    this.hooks = hooks;
    this.memo = new Int32Array(workers.length);
    this.loads = workers.map((w) => new BookedLoad(w.maxBatchTokens));
    this.release = release;
    this.recheckS = compiled ? recheckIntervalS(release) : null;
    this.expiry = compiled !== null && expiresBookingsByAge(release);
    this.queue = compiled
      ? new PolicyQueue<SimRequest>(compiled, { workers: workers.length, lanes: hasLanes(release) })
      : null;
    if (policy.onEvict) {
      // routers with a global prefix tree hear about every eviction on every worker
      workers.forEach((wk, i) => {
        wk.radix.evictListener = new EvictForwarder(policy, i, wk.radix.blockSize);
      });
    }
  }

  get recording(): boolean {
    return this.hooks.recording;
  }

  /** The order held requests leave in (null: the order they were held). Set before the run starts. */
  get heldOrder(): Prioritizer | null {
    return this.order;
  }

  set heldOrder(o: Prioritizer | null) {
    if (this.held.size > 0) throw new Error('the held order is set before any request is held');
    this.order = o;
    this.held = new HeldQueue(o);
  }

  /**
   * A class head may leave when its pool is not busy: for a request pinned to a worker, that worker
   * alone (Dynamo checks only the pinned rank, without `busy_worker_ratio`); else every worker.
   */
  private dispatchable(head: QueuedRequest<SimRequest>, cls: ClassState): boolean {
    const w = head.worker;
    if (w >= 0) return !workerBusy(cls.config, this.loads[w]);
    return !poolBusy(cls.config, this.loads);
  }

  /** Requests waiting in the router (policy-class queue and held). */
  get queuedCount(): number {
    return (this.queue ? this.queue.size() : 0) + this.held.size;
  }

  overlap(req: SimRequest, w: number): number {
    if (this.memoReq !== req) {
      this.memoReq = req;
      this.memo.fill(-1);
    }
    let v = this.memo[w];
    if (v < 0) {
      const wk = this.workers[w];
      v = wk.prefixCaching ? wk.radix.matchLength(req.pages(wk.blockSize), wk.maxReusable(req)) : 0;
      this.memo[w] = v;
    }
    return v;
  }

  /** A new request reaches the router at `now`. */
  submit(r: SimRequest, now: number): void {
    this.now = now;
    this.memoReq = null;
    this.expireBookings(now);
    const q = this.queue;
    if (q === null) {
      this.select(r);
      return;
    }
    // updates not yet replayed came while nothing was queued (their drains would have popped
    // nothing; the record already holds their drops)
    if (q.size() === 0) this.updates.length = 0;
    let cached = 0;
    for (let w = 0; w < this.workers.length; w++) cached = Math.max(cached, this.overlap(r, w));
    r.routerCached = cached;
    const pin = r.spec.worker ?? -1;
    const facts = {
      id: r.id,
      requestedClass: r.spec.policyClass ?? null,
      model: r.spec.model ?? this.defaultModel,
      rawIsl: r.promptLen,
      cachedTokens: cached,
      priority: r.spec.priority ?? 0,
      strictPriority: r.spec.strictPriority ?? 0,
      arrivalS: r.arrivalT,
      worker: pin >= 0 ? pin : null,
      dueS: r.spec.dueInS !== undefined ? r.arrivalT + r.spec.dueInS : null,
      payload: r,
    };
    const ref = q.resolve(facts);
    r.routerClass = ref.className;
    const cls = q.profiles()[ref.profileIndex].classes[ref.classIndex];
    const backlog = q.hasBacklog(ref);
    // a pinned request queues only when its own worker is busy (Dynamo: the pinned rank's test)
    const busy = pin >= 0 ? workerBusy(cls, this.loads[pin]) : poolBusy(cls, this.loads);
    // v1.6+: every arrival is stored and drained in the same turn, except in a class that can never
    // hold an entry (a per-worker limit of 0); a cluster always has workers, the other carve-out
    const everyArrival = storesEveryArrival(this.release) && !neverQueues(cls);
    if (storesEveryArrival(this.release) && facts.dueS !== null && facts.dueS <= now) {
      // v1.6 checks the due time first, before any queue decision: one not after now is refused
      this.shedAtArrival(r, ref.className, facts.dueS, now);
      return;
    }
    if (!everyArrival && (!q.queueingEnabled() || (!backlog && !busy))) {
      this.select(r);
      return;
    }
    const res = q.enqueue(facts);
    if (!res.accepted) {
      this.classService?.onRejected(ref.className, now);
      this.refuse(
        r,
        ref.className,
        now,
        () => `router rejects ${r.id}: class ${ref.className} ${res.reason} (${res.current} >= ${res.limit})`,
        { reason: res.reason, current: res.current, limit: res.limit },
      );
      return;
    }
    this.classService?.onQueued(ref.className, now);
    if (facts.dueS !== null && facts.dueS < this.timerAt && sweepsDueTimes(this.release))
      this.armTimer(facts.dueS);
    r.state = ReqState.RouterQueued;
    // a queued request holds no prompt-sized state (#15.3): its pages are computed again at dispatch.
    // A v1.6 arrival usually leaves in the drain that follows at once: compacted there if it stays.
    if (everyArrival) this.fresh.push(r);
    else r.compact();
    if (Number.isNaN(r.enqueueT)) r.enqueueT = now;
    this.enqueued++;
    if (this.hooks.recording)
      this.hooks.record({
        t: now,
        kind: 'enqueue',
        request: r.id,
        client: r.spec.client,
        class: ref.className,
        summary: `t=${now.toFixed(3)} s  router queues ${r.id} in class ${ref.className} (cost ${ref.cost}, ${ref.cached} cached; ${everyArrival ? 'Dynamo v1.6 stores every arrival and drains at once; ' : ''}${backlog ? 'class has a backlog' : busy ? (pin >= 0 ? `its worker ${pin} is busy` : 'pool busy') : 'it may leave now'}${everyArrival ? '' : `; Dynamo ${this.release} drains its queue at a worker update or its periodic update (every ${ROUTER_QUEUE_RECHECK_S} s), not after an arrival`})${pin >= 0 && this.queue?.lanes === true ? `, in worker ${pin}'s lane` : ''}${facts.dueS !== null ? `, due at ${facts.dueS.toFixed(3)} s` : ''}`,
        detail: {
          cost: ref.cost,
          cached_tokens: ref.cached,
          raw_isl: ref.rawIsl,
          backlog,
          pool_busy: busy,
          ...(everyArrival ? { every_arrival_queued: true } : {}),
          ...(pin >= 0 ? { pinned_worker: pin } : {}),
          ...(facts.dueS !== null ? { due_s: facts.dueS } : {}),
          resolution: q.explainResolve(facts),
        },
      });
  }

  /**
   * The drain that follows an arrival. From v1.6 (PR #14176) Dynamo's scheduler drains the queue in
   * the same turn as every enqueue. Up to v1.5 it never does: an arrival either goes straight to
   * worker selection or is stored, and a stored request waits for the next update (Dynamo's router
   * drains when a worker's load drops: a request's prefill completes or a request is freed; and at
   * the scheduler's periodic update, `onRecheckTick`, every 60 s), even when it could leave now (a
   * request behind a blocked pinned head, in its own lane or the shared heap). So up to v1.5 an
   * arrival only offers held (late-binding) requests again, which are the playground's routing
   * policies, not Dynamo's queue.
   */
  drainAfterArrival(now: number): void {
    if (this.queue === null || storesEveryArrival(this.release)) this.drain(now);
    else this.drain(now, false);
  }

  /**
   * Dispatch whatever may leave now: for each profile (Dynamo keeps one queue per model) with
   * backlog, DRR pops at time `now` while a head is dispatchable, then held requests. As Dynamo's
   * scheduler does on every update, the loop ends with a pop that returns nothing, so a class's
   * carry never outlives one drain (that pop consumes it even when every head is blocked). A pop
   * sheds the queued requests of the classes it examines whose due time has passed.
   */
  drain(now: number, policyQueue = true): void {
    this.now = now;
    this.expireBookings(now);
    if (policyQueue) this.popQueue(now);
    this.drainHeld(now);
  }

  /**
   * The engine reports that `r`'s prefill completed on its worker (its first token): the router's
   * record drops the tokens booked for it, and the worker's update follows (`applyUpdates`), as
   * Dynamo's `mark_prefill_completed` → `update_worker` does.
   */
  onPrefillDone(r: SimRequest): void {
    if (this.queue === null) return;
    this.expireBookings(r.firstTokenT);
    const dropped = r.routerBooked;
    this.loads[r.worker].activePrefillTokens -= dropped;
    r.routerBooked = 0;
    this.updates.push({ worker: r.worker, dropped });
  }

  /**
   * The engine reports that `r` was freed on its worker (it finished): whatever is still booked for
   * it is dropped, and the worker's update follows (Dynamo's `free` → `update_worker`), even when
   * nothing was left booked, so a stored request that could already leave leaves now.
   */
  onFreed(r: SimRequest): void {
    if (this.queue === null) return;
    this.expireBookings(r.completionT);
    const dropped = r.routerBooked;
    this.loads[r.worker].activePrefillTokens -= dropped;
    r.routerBooked = 0;
    this.updates.push({ worker: r.worker, dropped });
  }

  /**
   * Run the updates reported since the last call, in order, at `now`: each lowers the record by its
   * own drop and then drains the queue (v1.6: after sweeping expired due times). Dynamo's update
   * rechecks only that worker's parked exact-worker lanes; here every lane head is tested at every
   * pop, which decides the same: the record only drops at these updates, so a lane blocked on its
   * worker can only become free at its own worker's update. Dynamo after PR #13718 applies coinciding
   * frees together and runs one update after them; replaying them one by one decides the same here:
   * a free drops nothing (the booked tokens went at the first token, reported first), and a second
   * drain with nothing changed pops nothing (README, release table; tests/unit/routers/release-frees).
   */
  applyUpdates(now: number): void {
    this.expireBookings(now);
    const ups = this.updates;
    if (ups.length === 0) return;
    this.updates = [];
    const q = this.queue;
    if (q === null || q.size() === 0) return;
    // the record already holds every drop: undo the later ones, then replay them one by one
    for (const u of ups) this.loads[u.worker].activePrefillTokens += u.dropped;
    for (const u of ups) {
      this.loads[u.worker].activePrefillTokens -= u.dropped;
      this.now = now;
      this.popQueue(now);
    }
  }

  /**
   * v1.6's timer, set to the earliest queued due time, fires. Dynamo's queue actor then runs a full
   * update (`handle_update` with no worker): requests whose due time is at or before `now` are swept
   * out of every class (refused, HTTP 429), every parked lane is rechecked, and the queue is drained
   * like at any other update (pops until one returns nothing). Then the timer is set to the next due
   * time. (Here that drain finds nothing that may leave: the record only drops at updates, each of
   * which drains, and a class's shared heap or lane heads all pass or fail the busy test together.)
   */
  onDueTimer(now: number): void {
    if (now >= this.timerAt) this.timerAt = Number.POSITIVE_INFINITY;
    this.now = now;
    this.expireBookings(now);
    this.popQueue(now);
    const next = this.queue?.nextDue() ?? null;
    if (next !== null && next < this.timerAt) this.armTimer(next);
  }

  /**
   * The scheduler's periodic update fires (every release; see `recheckIntervalS` in drr/release.ts).
   * Dynamo's background task sends the queue actor a full update naming no worker, the same
   * `handle_update(None)` as a batch of frees or the v1.6 timer: nothing when nothing is stored;
   * else (v1.6: after sweeping expired due times) every parked lane is rechecked and the queue popped
   * until a pop returns nothing. Up to v1.5 this is what releases a stored request that could
   * already leave when no worker update comes first (an arrival is stored without a drain); under
   * v1.6, which drains after every arrival and at every due time, it finds nothing that may leave.
   * Returns whether the queue changed (a request left or was shed): a tick that changed nothing
   * leaves the next one nothing to do until some other event changes the state.
   */
  onRecheckTick(now: number): boolean {
    const q = this.queue;
    if (q === null || q.size() === 0) return false;
    this.recheckTicks++;
    const before = q.size();
    this.now = now;
    this.expireBookings(now);
    // an expiry since the last tick lowered the record without a drain: the next tick may pop
    const expired = this.expiredBookings !== this.expiredAtTick;
    this.expiredAtTick = this.expiredBookings;
    this.popQueue(now, true);
    return q.size() !== before || expired;
  }

  /**
   * Up to v1.5: apply the expiry sweeps over every worker due at or before `now` (every
   * `BOOKING_SWEEP_S` from router start), in time order. Called at every entry into the router
   * before it does anything else, so a sweep at an instant shared with other work is applied first
   * (in Dynamo the sweep is its own task and races with them). The engine needs no event for them:
   * a sweep only lowers the record, which nothing reads before the router's next entry.
   */
  private expireBookings(now: number): void {
    if (!this.expiry) return;
    while (this.nextSweep <= now) {
      const t = this.nextSweep;
      for (let w = 0; w < this.loads.length; w++) this.checkExpiry(w, t);
      this.nextSweep += BOOKING_SWEEP_S;
    }
  }

  /**
   * One worker's expiry check at time `t` (Dynamo's `ActiveSequences::force_expiry`): skipped when the
   * worker's last check ran less than `BOOKING_CHECK_GATE_S` before; otherwise every booking made more
   * than `BOOKING_EXPIRY_S` before `t` is dropped whole from the record. No drain follows (Dynamo only
   * republishes the worker's load); a booking already dropped (its prefill completed) just leaves the
   * list. The request itself runs on: only the router forgets it. (No decision record is written:
   * the trace's record kinds are fixed; `expiredBookings` counts them.)
   */
  private checkExpiry(w: number, t: number): void {
    const load = this.loads[w];
    if (t < load.lastCheck + BOOKING_CHECK_GATE_S && !bookingExpiryFaults.noGate) return;
    load.lastCheck = t;
    const cutoff = t - BOOKING_EXPIRY_S;
    const list = load.bookings;
    let i = load.head;
    for (; i < list.length; i++) {
      const b = list[i];
      const r = b.r;
      if (r.routerBooked === 0) continue; // dropped already (its prefill completed)
      if (!(b.at < cutoff || (bookingExpiryFaults.inclusive && b.at === cutoff))) break;
      load.activePrefillTokens -= r.routerBooked;
      r.routerBooked = 0;
      this.expiredBookings++;
    }
    this.trimBookings(load, i);
  }

  /** Drop the first `head` entries of a worker's booking list (at once when they are many). */
  private trimBookings(load: BookedLoad, head: number): void {
    load.head = head;
    if (head > 64 && head * 2 > load.bookings.length) {
      load.bookings = load.bookings.slice(head);
      load.head = 0;
    }
  }

  private armTimer(t: number): void {
    if (this.hooks.wakeAt === undefined) return;
    this.timerAt = t;
    this.hooks.wakeAt(t);
  }

  /** v1.6: refuse every queued request whose due time is at or before `now`, in every class. */
  private sweepDue(now: number): void {
    const q = this.queue;
    if (q === null || !sweepsDueTimes(this.release)) return;
    const expired = q.takeExpired(now);
    if (expired.length > 0) this.shedExpired(expired, now);
  }

  /**
   * Pop the policy-class queue at `now`: for each profile with backlog (Dynamo keeps one queue per
   * model), DRR pops while a head is dispatchable, ending with the pop that returns nothing. From
   * v1.6 expired due times are swept out of every class first, as Dynamo's `handle_update` does.
   */
  /** `periodic`: the drain is the periodic update's (its pops say so in their records). */
  private popQueue(now: number, periodic = false): void {
    const q = this.queue;
    if (q !== null && q.size() > 0 && !dueSweepFaults.popFirst) this.sweepDue(now);
    if (q !== null && q.size() > 0) {
      const record = this.hooks.recording;
      // a fresh closure: a stored one would keep pointing at this router in a fork()ed copy
      const test = (h: QueuedRequest<SimRequest>, c: ClassState) => this.dispatchable(h, c);
      const profiles = q.profiles().length;
      for (let p = 0; p < profiles; p++) {
        if (q.profileSize(p) === 0) continue;
        for (;;) {
          const res = q.pop(test, { record, now, profileIndex: p });
          if (res.expired.length > 0) this.shedExpired(res.expired, now);
          const got = res.request;
          if (got === null) break;
          this.popped++;
          const r = got.payload;
          this.classService?.onPopped(got.ref.className, now);
          this.classService?.onCharged(got.ref.className, got.ref.cost);
          if (record && res.record) {
            this.lastPop = { t: now, record: res.record };
            this.hooks.record({
              t: now,
              kind: 'drr-pop',
              request: r.id,
              client: r.spec.client,
              class: got.ref.className,
              summary: `t=${now.toFixed(3)} s  DRR pop${periodic ? ' at the periodic queue update' : ''}: ${res.record.summary}`,
              detail: {
                cost: got.ref.cost,
                deficits: res.record.deficits,
                cursor: res.record.cursor_after,
                carry: res.record.carry_after,
                bulk_rounds: res.record.bulk_rounds,
                visits: res.record.visits,
                ...(periodic ? { drain: 'periodic_update' as const } : {}),
              },
            });
          }
          this.memoReq = null;
          this.select(r);
        }
      }
    }
    if (q !== null && q.size() > 0 && dueSweepFaults.popFirst) this.sweepDue(now);
    if (this.fresh.length > 0) {
      for (const r of this.fresh) if (r.state === ReqState.RouterQueued) r.compact();
      this.fresh.length = 0;
    }
  }

  /** Offer the held (late-binding) requests again, reading the workers' live load. */
  private drainHeld(now: number): void {
    // the held request that leaves first at `now`: smallest priority, then arrival, then id
    for (let r = this.held.next(now); r !== undefined; r = this.held.next(now)) {
      this.memoReq = null;
      const choice = this.policy.route(r, this);
      if ('hold' in choice) break;
      this.held.removeNext();
      this.handOff(r, choice.worker, choice.why, choice.detail);
    }
  }

  /**
   * Park `r` among the held requests. Every held request counts as router-queued from this moment
   * (a request that joins a non-empty held queue too), so its router queue time reaches the rows.
   */
  private hold(r: SimRequest): void {
    r.state = ReqState.RouterQueued;
    if (Number.isNaN(r.enqueueT)) r.enqueueT = this.now;
    this.held.push(r, this.now);
  }

  /**
   * v1.6: an arrival whose due time is not after its arrival is refused before it is stored (HTTP 429,
   * unserved, nothing charged), whatever its class and the workers' load.
   */
  private shedAtArrival(r: SimRequest, className: string, due: number, now: number): void {
    // counted among the class's shed requests (the collector counts a shed request as leaving the queue)
    this.classService?.onQueued(className, now);
    this.classService?.onShed(className, now);
    this.refuse(
      r,
      className,
      now,
      () =>
        `router refuses ${r.id} on arrival: its due time ${due.toFixed(3)} s is not after now (Dynamo v1.6 checks it before storing; unserved, no deficit charged)`,
      { reason: 'due_time_passed', due_s: due, overdue_ms: Math.trunc((now - due) * 1000) },
    );
  }

  /** Requests a pop shed because their due time had passed: refused for good (Dynamo answers HTTP 429). */
  private shedExpired(expired: readonly QueuedRequest<SimRequest>[], now: number): void {
    for (const e of expired) {
      const r = e.payload;
      this.classService?.onShed(e.ref.className, now);
      this.refuse(
        r,
        e.ref.className,
        now,
        () =>
          `router sheds ${r.id} from class ${e.ref.className}: its due time ${(e.due ?? now).toFixed(3)} s has passed (unserved, no deficit charged)`,
        {
          reason: 'due_time_passed',
          due_s: e.due ?? null,
          overdue_ms: Math.trunc((now - (e.due ?? now)) * 1000),
        },
      );
    }
  }

  /** Refuse `r` for good: its reject record (when recording; `why` follows the time) and the engine's hook. */
  private refuse(
    r: SimRequest,
    className: string,
    now: number,
    why: () => string,
    detail: RejectDetail,
  ): void {
    if (this.hooks.recording)
      this.hooks.record({
        t: now,
        kind: 'reject',
        request: r.id,
        client: r.spec.client,
        class: className,
        summary: `t=${now.toFixed(3)} s  ${why()}`,
        detail,
      });
    this.hooks.reject(r, detail.reason);
  }

  private select(r: SimRequest): void {
    const pin = r.spec.worker;
    if (pin !== undefined) {
      // a pinned request goes to its worker: worker selection has exactly one eligible rank
      this.handOff(r, pin, `pinned to worker ${pin}`);
      return;
    }
    if (this.held.size > 0) {
      this.hold(r); // earlier held requests go first or compete by priority
      return;
    }
    const choice = this.policy.route(r, this);
    if ('hold' in choice) {
      this.hold(r);
      return;
    }
    this.handOff(r, choice.worker, choice.why, choice.detail);
  }

  private handOff(r: SimRequest, w: number, why?: string, detail?: RouteDecisionDetail): void {
    this.dispatched++;
    if (this.queue !== null) {
      // up to v1.5 a new booking first runs the worker's expiry check (gated to once per 30 s)
      if (this.expiry) this.checkExpiry(w, this.now);
      // the router's record books the prefill it expects on w: the prompt minus what w has cached
      const booked = r.promptLen - Math.min(this.overlap(r, w), r.promptLen);
      r.routerBooked = booked;
      this.loads[w].activePrefillTokens += booked;
      if (this.expiry && booked > 0) {
        const load = this.loads[w];
        let i = load.head;
        while (i < load.bookings.length && load.bookings[i].r.routerBooked === 0) i++;
        this.trimBookings(load, i);
        load.bookings.push({ r, at: this.now });
      }
    }
    if (Number.isNaN(r.dispatchT)) r.dispatchT = this.now;
    if (this.classService !== null && r.routerClass !== '')
      this.classService.onDispatched(
        r.routerClass,
        this.now,
        r.promptLen - Math.min(r.routerCached, r.promptLen),
        this.now - r.arrivalT,
      );
    if (this.hooks.recording) {
      const loads = this.workers.map((wk) => [wk.waitingCount, wk.runningCount]);
      this.hooks.record({
        t: this.now,
        kind: 'dispatch',
        request: r.id,
        client: r.spec.client,
        worker: w,
        class: r.routerClass || undefined,
        summary: `t=${this.now.toFixed(3)} s  ${this.policy.name} sends ${r.id} to worker ${w}${why ? ` (${why})` : ''}; overlap ${this.overlap(r, w)}/${r.promptLen} tokens`,
        detail: {
          router: this.policy.name,
          why: why ?? null,
          overlap_tokens: this.overlap(r, w),
          prompt_tokens: r.promptLen,
          worker_loads: loads,
          ...(detail ?? {}),
        },
      });
    }
    this.policy.onDispatch?.(r, w, this);
    this.hooks.dispatch(r, w);
  }

  /** DRR state for the UI (primary profile), or undefined without a policy. */
  drrSnapshot(): DrrSnapshot | undefined {
    return this.queue ? this.queue.snapshot(undefined, (h, c) => this.dispatchable(h, c)) : undefined;
  }

  /** Held requests in the order they would leave now (first `limit`). */
  heldIds(limit: number): string[] {
    return this.held.ordered(this.now, limit).map((r) => r.id);
  }

  /** Requests in the router's queues, for invariant checks. */
  heldCount(): number {
    return this.held.size;
  }
}
