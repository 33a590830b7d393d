/**
 * Longest-prefix-match ordering shared by LPM and DLPM: each waiting request's cached prefix in this
 * worker's radix cache, and the queue sorted by it, longest first, ties in queue order.
 *
 * Cost per batch step: every waiting request's match is re-read (about O(1) each: ./matched-queue.ts
 * remembers where it ended and only looks at what changed), then the queue is sorted (O(n log n)).
 * The tree changes on almost every busy step (a finished prefill inserts its prompt, allocation
 * evicts leaves), so the order is rebuilt each step rather than kept sorted. The
 * `lpm_fcfs_fallback` option skips the sort above that many waiting requests (SGLang's fallback at
 * 128 exists for the same cost reason). LPM keeps this same order live instead (./live-prefix-order.ts,
 * O(log n) per change); the re-read and sort here is DLPM's, and the reference LPM's tests compare with.
 */
import type { SimRequest } from '../../sim/request';
import type { WorkerView } from '../../replica/local-policy';
import { int } from '../../zod-fields';
import type { MatchedQueue } from './matched-queue';
import { headKey, IN_BATCH_PREFIX_TOKENS, sameHead } from '../../replica/sglang';

/** The most prompt tokens a request may reuse: whole pages, keeping at least one token to compute. */
export function reusableLimit(req: SimRequest, blockSize: number): number {
  return Math.floor((req.promptLen - 1) / blockSize) * blockSize;
}

/** Prompt tokens of `req` already in the worker's radix cache (what admission would reuse). */
export function cachedPrefix(req: SimRequest, worker: WorkerView): number {
  const radix = worker.radix;
  return radix.matchLength(req.pages(radix.blockSize), reusableLimit(req, radix.blockSize));
}

/** The scheduler key LPM and DLPM share: the FCFS fallback threshold (0 = never fall back). */
export const fcfsFallbackShape = {
  lpm_fcfs_fallback: int('lpm_fcfs_fallback', 0, 1_000_000).default(0).meta({
    description:
      'lpm/dlpm: order by arrival instead of prefix match when more requests than this wait (SGLang uses 128); 0 = never (default, the paper’s LPM).',
  }),
};

export interface PrefixOrder {
  /** Queue indexes in scan order. */
  order: Int32Array;
  /** Cached prefix of each queue index (0 for all when `fallback`). */
  match: Int32Array;
  /** The queue was longer than the fallback threshold: scan order = queue order. */
  fallback: boolean;
  /** 1 for the requests put last as shared-prefix duplicates (null when deferral is off). */
  deferred: Uint8Array | null;
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
  if (fallbackAbove > 0 && n > fallbackAbove) return { order, match, fallback: true, deferred: null };
  const radix = worker.radix;
  for (let i = 0; i < n; i++) match[i] = queue.matchLength(i, radix);
  const deferred = worker.deferSharedPrefixes === true ? sharedPrefixDuplicates(queue, match) : null;
  // deferred requests keep queue order among themselves: SGLang sorts them all under one key (+inf)
  if (deferred !== null)
    order.sort((a, b) => deferred[a] - deferred[b] || (deferred[a] === 1 ? 0 : match[b] - match[a]) || a - b);
  else order.sort((a, b) => match[b] - match[a] || a - b);
  return { order, match, fallback: false, deferred };
}

/**
 * SGLang's in-batch prefix caching (`_compute_prefix_matches`): walking the queue in order, a request
 * with at most IN_BATCH_PREFIX_TOKENS tokens cached is compared with the earlier such requests; when
 * it shares at least IN_BATCH_PREFIX_TOKENS leading tokens with one of them it is marked (it goes
 * after every unmarked request, so the first one prefills the shared part and the rest find it
 * cached), else it is remembered. Sharing that many leading tokens is having the same first
 * IN_BATCH_PREFIX_TOKENS tokens, so a hash of them (checked token by token) stands in for SGLang's
 * second radix tree over the waiting queue.
 */
function sharedPrefixDuplicates(queue: MatchedQueue, match: Int32Array): Uint8Array | null {
  const items = queue.items;
  const n = items.length;
  let out: Uint8Array | null = null;
  const seen = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (match[i] > IN_BATCH_PREFIX_TOKENS) continue;
    const r = items[i];
    // (the first ids only: a waiting request holds no prompt-sized array, #15.3)
    if (r.headKey === -2) r.headKey = headKey(r.promptHead(IN_BATCH_PREFIX_TOKENS));
    if (r.headKey < 0) continue;
    const first = seen.get(r.headKey);
    if (first === undefined) seen.set(r.headKey, i);
    else if (
      sameHead(items[first].promptHead(IN_BATCH_PREFIX_TOKENS), r.promptHead(IN_BATCH_PREFIX_TOKENS))
    ) {
      if (out === null) out = new Uint8Array(n);
      out[i] = 1;
    }
  }
  return out;
}
