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
  const count = limitHit('request_queue_limit', cls.requestQueueLimitPerWorker, load.count, workers);
  if (count) return count;
  const raw = limitHit('raw_isl_token_queue_limit', cls.rawIslTokenQueueLimitPerWorker, load.rawIsl, workers);
  if (raw) return raw;
  const cached = limitHit(
    'cached_token_queue_limit',
    cls.cachedTokenQueueLimitPerWorker,
    load.cached,
    workers,
  );
  return cached ?? OK;
}

const OK: LimitVerdict = { ok: true };

function limitHit(
  reason: RejectReason,
  perWorker: number | undefined,
  current: number,
  workers: number,
): LimitVerdict | null {
  if (perWorker === undefined) return null;
  const limit = satMul(perWorker, workers);
  return current >= limit ? { ok: false, reason, current, limit } : null;
}
