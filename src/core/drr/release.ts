/**
 * What differs between the released Dynamo lines in the router's policy-class queue, as far as the
 * playground models it (see the README's table of release differences).
 *
 * - v1.3: one heap per class (no exact-worker lanes).
 * - v1.4, v1.5: exact-worker lanes. An arrival is stored only when its class queues at all (it has a
 *   busy threshold) and the class already holds work or its pool is busy; otherwise it goes straight
 *   to worker selection, without a DRR turn.
 * - v1.3 – v1.5: storing an arrival does not drain the queue; a stored request waits for the next
 *   update (a worker's load drops, or the periodic update below) even when it could leave now
 *   (`Router.drainAfterArrival`).
 * - v1.6 (PR #14176): every arrival is stored in its class's queue and the scheduler drains the queue
 *   in the same turn, so an uncontended arrival still leaves at once, but through a DRR pop (its class
 *   is charged, the cursor moves past it, a pending carry is spent or dropped). Carve-outs keep the
 *   old direct path: a class with any per-worker queue limit of 0 (it can never hold an entry), and a
 *   moment with no discovered workers (never the case in a cluster run, which has at least one).
 *   A request whose due time is not after its arrival is refused before it is stored. Queued
 *   requests whose due time has passed (a due time equal to now counts as passed) are swept out of
 *   every class at the start of each drain and when a timer set to the earliest queued due time
 *   fires, the timer then draining the queue like any update (`sweepsDueTimes`); a class the sweep
 *   empties loses its credit at once.
 * - Every release: the queue is drained when the router's own record of a worker's load changes (a
 *   request's prefill completes, or a request is freed on it), reading that record: prefill tokens
 *   booked when the router sends a request, dropped whole at its prefill completion or its free
 *   (`Router.onPrefillDone`, `Router.onFreed`).
 * - Every release: the scheduler also runs a periodic update, a full one naming no worker, every
 *   `ROUTER_QUEUE_RECHECK_S` seconds from router start (`Router.onRecheckTick`; see
 *   `recheckIntervalS` for where it was read and which variant is not modelled).
 */
import type { ClassConfig, DynamoRelease } from './types';

/** Release lines in order, oldest first. */
export const DYNAMO_RELEASE_ORDER: readonly DynamoRelease[] = ['v1.3', 'v1.4', 'v1.5', 'v1.6'];

/** Whether `release` is `since` or newer. */
export function releaseAtLeast(release: DynamoRelease, since: DynamoRelease): boolean {
  return DYNAMO_RELEASE_ORDER.indexOf(release) >= DYNAMO_RELEASE_ORDER.indexOf(since);
}

/** Exact-worker lanes per class (v1.4+). */
export function hasLanes(release: DynamoRelease): boolean {
  return releaseAtLeast(release, 'v1.4');
}

/** Every arrival is stored and drained in the same scheduler turn (v1.6+, PR #14176). */
export function storesEveryArrival(release: DynamoRelease): boolean {
  return releaseAtLeast(release, 'v1.6');
}

/** Expired due times are swept from every class at each update and on a timer (v1.6+, PR #14176). */
export function sweepsDueTimes(release: DynamoRelease): boolean {
  return releaseAtLeast(release, 'v1.6');
}

/**
 * A class with a per-worker queue limit of 0 can never hold a queued entry: from v1.6 it keeps the
 * direct path (admitted while its pool has room, refused with limit 0 when it would have to queue).
 */
export function neverQueues(cls: ClassConfig): boolean {
  return (
    cls.requestQueueLimitPerWorker === 0 ||
    cls.rawIslTokenQueueLimitPerWorker === 0 ||
    cls.cachedTokenQueueLimitPerWorker === 0
  );
}

/**
 * The period of the scheduler's periodic queue update, in simulated seconds. Dynamo's scheduler keeps
 * a background task on a tokio interval that, at every tick, sends the queue actor a full update
 * naming no worker (`handle_update(None)`: every parked lane rechecked, then pops until nothing may
 * leave), the same drain as a worker update. Read in mainline's `LocalScheduler` construction
 * (`lib/kv-router/src/scheduling/local.rs`) and `KvRouterConfig::router_queue_recheck_interval`: 60 s
 * by default, 100 ms when a prefill-load model (AIC) is enabled together with a queue threshold or a
 * policy file. The playground has no prefill-load model, so only the 60 s default is modelled.
 * History read in the public index (release tags not readable): a 1 s constant in the first router
 * queue (PR #6010, Feb 2026), a hard-coded 60 s by March 2026 (after PR #7260), the config method
 * since, unchanged in every mainline version read through Aug 2026; every modelled release (v1.3.0,
 * July 2026, onward) was cut from that line, so all of them tick every 60 s.
 */
export const ROUTER_QUEUE_RECHECK_S = 60;

/**
 * The periodic update's interval for `release`, in simulated seconds (null: none). Every modelled
 * release has it (see `ROUTER_QUEUE_RECHECK_S`). A tokio interval fires its first tick at once, at
 * router start, when nothing can be queued yet; so the first tick that can find work is at one
 * interval, then every interval (simulated time 0 is router start).
 */
export function recheckIntervalS(_release: DynamoRelease): number | null {
  return recheckFaults.noTick ? null : ROUTER_QUEUE_RECHECK_S;
}

/**
 * The index k >= 1 of the first periodic-update tick at or after `now` (its time is k * `every`):
 * the interval's tick at router start (0) finds nothing stored, and a tick at an instant shared with
 * other events runs after them, so a request stored at exactly k * `every` is seen by that tick.
 * The simulation schedules its tick with this, and the explainer says when a stored request's
 * periodic update comes.
 */
export function nextRecheckTick(now: number, every: number): number {
  return Math.max(1, Math.ceil(now / every));
}

/**
 * Deliberately broken variants, for tests only: each must make a test fail (never set outside tests).
 */
export const recheckFaults = {
  /** No periodic update at all (the model before the tick was modelled). */
  noTick: false,
};

/**
 * Deliberately broken variants of v1.6's due-time sweep, for tests only (never set outside tests).
 * The sweep that starts every drain counts a due time equal to now as passed, so at an instant where
 * a due time, its timer and a worker's update coincide the request is refused whichever of the two
 * events runs first (tests/unit/routers/due-at-step-end.test.ts).
 */
export const dueSweepFaults = {
  /** A due time equal to now counts as live (the flat/SLO line's rule for its lazy shedding). */
  strict: false,
  /** A drain pops before it sweeps, so the update at the due time could still send the request. */
  popFirst: false,
};

/**
 * Up to v1.5 the router's record of a worker's load forgets a booking by its age alone: a request
 * booked more than `BOOKING_EXPIRY_S` seconds before a check is dropped whole from the record, whether
 * or not the worker has started it. Read in mainline's `lib/kv-router/src/sequences/single.rs`
 * (`ActiveSequences::force_expiry`, its constants and `add_request_with_prefill_tracking`) and
 * `multi_worker.rs` (`force_expire_requests_across_all_workers`, its periodic task, started with every
 * router's sequence tracker), from PR #7340 (March 2026) until PR #13718 (merged after 24 Aug 2026)
 * moved the embedded router to a lease scan (below); PR #11303 (July 2026) made the age settable
 * (`DYN_ROUTER_ACTIVE_REQUEST_EXPIRY_SECS`) with the same 300 s default. The release tags could not
 * be read: v1.3 and v1.4 were cut from that line; v1.5 is taken as before PR #13718, as elsewhere in
 * the model (the README's release table), not verified.
 *
 * - The age is counted from the booking (the request's registration with its worker's tracker, when
 *   the router sends it), not from its last sign of progress; it expires when the age is strictly
 *   more than 300 s at a check.
 * - A worker's check runs at most once per `BOOKING_CHECK_GATE_S` (30 s, counted from router start
 *   and then from that worker's last check that ran): before every new booking on that worker, and
 *   at a sweep over every worker every `BOOKING_SWEEP_S` (60 s from router start; the sweep at start
 *   is gated out).
 * - A check drops the expired bookings and republishes the worker's load, but sends the queue no
 *   update: the lowered record is read at the queue's next drain.
 *
 * v1.6 (PR #13718, as taken in the README) replaces this, for the router embedded in the frontend,
 * with a second-chance scan of request leases every 300 s that drops a request one to two scans
 * after its last output progress and then drains the queue like a free; its code was not read (only
 * the PR's description), so it is not modelled: under v1.6 no booking expires.
 */
export const BOOKING_EXPIRY_S = 300;
/** The least time between two expiry checks of one worker (Dynamo's `CHECK_EXPIRY_FREQUENCY`). */
export const BOOKING_CHECK_GATE_S = 30;
/** The period of the expiry sweep over every worker (`FORCE_EXPIRE_REQUESTS_ACROSS_ALL_WORKERS_INTERVAL`). */
export const BOOKING_SWEEP_S = 60;

/** Whether `release` expires the router's bookings by age (v1.3 – v1.5; see `BOOKING_EXPIRY_S`). */
export function expiresBookingsByAge(release: DynamoRelease): boolean {
  return !releaseAtLeast(release, 'v1.6') && !bookingExpiryFaults.never;
}

/**
 * Deliberately broken variants of the booking expiry, for tests only (never set outside tests).
 */
export const bookingExpiryFaults = {
  /** No booking ever expires (the model before the expiry was modelled). */
  never: false,
  /** A booking whose age equals the limit exactly expires too (Dynamo compares strictly). */
  inclusive: false,
  /** Every check runs, without the 30 s gate between two checks of one worker. */
  noGate: false,
};
