/** Small wording helpers shared by the explainers: numbers, counts and lists in plain text. */

/**
 * A number as a person reads it: integers as they are, other values rounded to at most three
 * decimals (trailing zeros dropped); NaN and infinities spelled out.
 */
export function num(x: number): string {
  if (Number.isNaN(x)) return 'n/a';
  if (x === Number.POSITIVE_INFINITY) return '∞';
  if (x === Number.NEGATIVE_INFINITY) return '-∞';
  if (Number.isInteger(x)) return String(x);
  const s = x.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

/** "1 token", "7 tokens". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${num(n)} ${n === 1 ? one : many}`;
}

/** "a", "a and b", "a, b and c". */
export function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A fraction in [0, 1] as a whole percentage ("62%"); one decimal below 1%. */
export function percent(f: number): string {
  const p = f * 100;
  if (p > 0 && p < 1) return `${p.toFixed(1)}%`;
  return `${Math.round(p)}%`;
}

/**
 * A whole number with its digits grouped by three, as the page prints counts ("1 000", "12 345",
 * the narrow no-break space U+202F between groups: src/ui/views/format.ts `fmtCount`, which the core
 * cannot import). Non-integers fall back to `num`.
 */
export function grouped(n: number): string {
  if (!Number.isInteger(n)) return num(n);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return n < 0 ? `\u2212${digits}` : digits;
}

/** How late a request shed past its due time was: "1 000 ms late"; "under 1 ms late" for 0 (truncated). */
export function lateText(overdueMs: number): string {
  return overdueMs < 1 ? 'under 1 ms late' : `${grouped(overdueMs)} ms late`;
}
