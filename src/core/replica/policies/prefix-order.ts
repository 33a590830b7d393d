/**
 * Longest-prefix-match ordering shared by LPM and DLPM: each waiting request's cached prefix in this
 * worker's radix cache, and the queue sorted by it, longest first, ties in queue order.
 *
 * Cost per batch step: every waiting request's match is re-read (about O(1) each: ./matched-queue.ts
 * remembers where it ended and only looks at what changed), then the queue is sorted (O(n log n)).
 * The tree changes on almost every busy step (a finished prefill inserts its prompt, allocation
 * evicts leaves), so the order is rebuilt each step rather than kept sorted. The
 * `lpm_fcfs_fallback` option skips the sort above that many waiting requests (SGLang's fallback at
 * 128 exists for the same cost reason).
 */
import type { SimRequest } from '../../sim/request';
import type { WorkerView } from '../local-policy';
import type { MatchedQueue } from './matched-queue';

/** The most prompt tokens a request may reuse: whole pages, keeping at least one token to compute. */
export function reusableLimit(req: SimRequest, blockSize: number): number {
  return Math.floor((req.promptLen - 1) / blockSize) * blockSize;
}

/** Prompt tokens of `req` already in the worker's radix cache (what admission would reuse). */
export function cachedPrefix(req: SimRequest, worker: WorkerView): number {
  const radix = worker.radix;
  return radix.matchLength(req.tokens, reusableLimit(req, radix.blockSize));
}

/** The `lpm_fcfs_fallback` threshold of the scheduler section (0 = never fall back). */
export function fcfsFallback(scheduler: Readonly<Record<string, unknown>>): number {
  const v = scheduler.lpm_fcfs_fallback;
  return typeof v === 'number' && v > 0 ? v : 0;
}

export interface PrefixOrder {
  /** Queue indexes in scan order. */
  order: Int32Array;
  /** Cached prefix of each queue index (0 for all when `fallback`). */
  match: Int32Array;
  /** The queue was longer than the fallback threshold: scan order = queue order. */
  fallback: boolean;
}

/**
 * Order `queue` longest cached prefix first (ties keep queue order), or in queue order when it holds
 * more than `fallbackAbove` requests (0 = never).
 */
export function prefixOrder(queue: MatchedQueue, worker: WorkerView, fallbackAbove: number): PrefixOrder {
  const n = queue.length;
  const order = new Int32Array(n);
  const match = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (fallbackAbove > 0 && n > fallbackAbove) return { order, match, fallback: true };
  const radix = worker.radix;
  for (let i = 0; i < n; i++) match[i] = queue.matchLength(i, radix);
  order.sort((a, b) => match[b] - match[a] || a - b);
  return { order, match, fallback: false };
}
