/**
 * Saturating unsigned arithmetic on JS numbers. Dynamo uses u64 with saturation; we cap at the
 * largest integer a double holds exactly, so deficits never go negative and never lose precision.
 */
export const UINT_MAX = Number.MAX_SAFE_INTEGER;

export function satAdd(a: number, b: number): number {
  const s = a + b;
  return Math.min(s, UINT_MAX);
}

/** a - b, floored at 0. */
export function satSub(a: number, b: number): number {
  return a > b ? a - b : 0;
}

/** a * b, capped (exact below the cap: products of safe integers up to 2^53 are exact doubles). */
export function satMul(a: number, b: number): number {
  const p = a * b;
  return Math.min(p, UINT_MAX);
}

/** ceil(n / d) for non-negative integers n and positive integers d, exact for all safe integers. */
export function ceilDiv(n: number, d: number): number {
  if (n <= 0) return 0;
  if (n < 2 ** 31 && d < 2 ** 31) return Math.floor((n + d - 1) / d);
  const big = (BigInt(n) + BigInt(d) - 1n) / BigInt(d);
  return Number(big);
}
