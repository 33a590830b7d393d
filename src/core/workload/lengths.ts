/** Sampling the scenario's lengths: whole tokens ≥ 1 for token lengths, seconds ≥ 0 for durations. */
import type { Rng } from '../prng';
import type { Length } from '../input';

function draw(rng: Rng, length: Length): number {
  if (typeof length === 'number') return length;
  switch (length.dist) {
    case 'uniform':
      return rng.uniform(length.min, length.max);
    case 'normal':
      return Math.min(length.max, Math.max(length.min, rng.normal(length.mean, length.std)));
    case 'exponential':
      return Math.min(length.max, rng.exponential(length.mean));
    case 'lognormal':
      return Math.min(length.max, length.std === 0 ? length.mean : rng.lognormal(length.mean, length.std));
  }
}

/**
 * A token count: rounded to a whole number and at least 1. A uniform length draws a whole number in
 * [min, max] with equal chances; every other distribution is rounded to the nearest token after clipping.
 * A constant consumes no randomness.
 */
export function sampleTokens(rng: Rng, length: Length): number {
  if (typeof length !== 'number' && length.dist === 'uniform') {
    const lo = Math.ceil(length.min);
    const hi = Math.floor(length.max);
    // No whole number inside [min, max] (e.g. [2.2, 2.7]): the nearest one to the interval.
    if (hi < lo) return Math.max(1, Math.round((length.min + length.max) / 2));
    return Math.max(1, lo + rng.int(hi - lo + 1));
  }
  return Math.max(1, Math.round(draw(rng, length)));
}

/** A duration in seconds, ≥ 0 (not rounded). */
export function sampleSeconds(rng: Rng, length: Length): number {
  return Math.max(0, draw(rng, length));
}

/** Mean of a length (after clipping, approximately): used for size estimates and limits. */
export function meanOf(l: Length): number {
  if (typeof l === 'number') return l;
  switch (l.dist) {
    case 'uniform':
      return (l.min + l.max) / 2;
    case 'normal':
      return Math.min(l.max, Math.max(l.min, l.mean));
    case 'exponential':
    case 'lognormal':
      return Math.min(l.max, l.mean);
  }
}

/** Largest value a length can take. */
export function maxOf(l: Length): number {
  return typeof l === 'number' ? l : l.max;
}
