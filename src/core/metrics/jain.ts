/**
 * Jain's fairness index of non-negative rates: (Σx)² / (n · Σx²). 1 when all are equal, 1/n when one
 * client gets everything. By convention 1 for an empty list or when every rate is 0.
 */
export function jainIndex(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n === 0) return 1;
  let s = 0;
  let s2 = 0;
  for (let i = 0; i < n; i++) {
    s += xs[i];
    s2 += xs[i] * xs[i];
  }
  return s2 === 0 ? 1 : (s * s) / (n * s2);
}
