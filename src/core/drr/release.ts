/**
 * What differs between the released Dynamo lines in the router's policy-class queue, as far as the
 * playground models it (see the README's table of release differences).
 *
 * - v1.3: one heap per class (no exact-worker lanes).
 * - v1.4, v1.5: exact-worker lanes. An arrival is stored only when its class queues at all (it has a
 *   busy threshold) and the class already holds work or its pool is busy; otherwise it goes straight
 *   to worker selection, without a DRR turn.
 * - v1.3 – v1.5: storing an arrival does not drain the queue; a stored request waits for the next
 *   update (a worker's load drops) even when it could leave now (`Router.drainAfterArrival`).
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
