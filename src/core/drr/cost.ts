/**
 * The immutable cost snapshot a request gets when it is enqueued: cached tokens are capped at the
 * input length, the rest is uncached work, and the scheduling cost is never below one token.
 */
import type { RequestCost } from './types';

export function requestCost(rawIsl: number, cachedTokens: number): RequestCost {
  const raw = Math.max(0, Math.floor(rawIsl));
  const cached = Math.min(Math.max(0, Math.floor(cachedTokens)), raw);
  const uncached = raw - cached;
  return { rawIsl: raw, cached, uncached, cost: Math.max(1, uncached) };
}
