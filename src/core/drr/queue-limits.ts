/**
 * Per-class queue limits, checked before a request is added: request count first, then summed raw
 * input tokens, then summed cached tokens. Limits are per worker and scale with the worker count.
 */
import { satMul } from './saturating';
import type { ClassConfig, RejectReason } from './types';

/** What a class currently holds. */
export interface ClassLoad {
  count: number;
  rawIsl: number;
  cached: number;
}

export type LimitVerdict = { ok: true } | { ok: false; reason: RejectReason; current: number; limit: number };

export function checkQueueLimits(cls: ClassConfig, load: ClassLoad, workers: number): LimitVerdict {
  const checks: [RejectReason, number | undefined, number][] = [
    ['request_queue_limit', cls.requestQueueLimitPerWorker, load.count],
    ['raw_isl_token_queue_limit', cls.rawIslTokenQueueLimitPerWorker, load.rawIsl],
    ['cached_token_queue_limit', cls.cachedTokenQueueLimitPerWorker, load.cached],
  ];
  for (const [reason, perWorker, current] of checks) {
    if (perWorker === undefined) continue;
    const limit = satMul(perWorker, workers);
    if (current >= limit) return { ok: false, reason, current, limit };
  }
  return { ok: true };
}
