/**
 * Exact percentiles by the nearest-rank method: the p-th percentile of n sorted values is the value
 * at rank ceil(p/100 · n) (1-based), so it is always one of the observed values and p = 100 is the
 * maximum. An empty sample has no percentile (null).
 */
export function nearestRank(sortedAsc: ArrayLike<number>, p: number): number | null {
  const n = sortedAsc.length;
  if (n === 0) return null;
  const rank = Math.min(n, Math.max(1, Math.ceil((p / 100) * n)));
  return sortedAsc[rank - 1];
}
