/** Number formatting shared by the views: short, unit-bearing, never "NaN". */

/** Integer-ish counts with thin grouping (12 345); `–` for missing values. */
export function fmtCount(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const r = Math.round(v);
  if (Math.abs(v - r) < 1e-9) return groupDigits(r);
  return fmtNum(v);
}

function groupDigits(n: number): string {
  const s = Math.abs(n).toString();
  const out = s.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return n < 0 ? `−${out}` : out;
}

/** A general number with about three significant digits, SI suffix above 10 000. */
export function fmtNum(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  const sign = v < 0 ? '−' : '';
  if (a >= 1e9) return `${sign}${trim(a / 1e9)}G`;
  if (a >= 1e6) return `${sign}${trim(a / 1e6)}M`;
  if (a >= 1e4) return `${sign}${trim(a / 1e3)}k`;
  if (a >= 100 || a === Math.round(a)) return `${sign}${groupDigits(Math.round(a))}`;
  if (a >= 1) return `${sign}${stripZeros(a.toFixed(2))}`;
  return `${sign}${stripZeros(a.toPrecision(2))}`;
}

/** Mantissa of an SI-suffixed number: 3 significant digits, trailing zeros after the point dropped. */
function trim(x: number): string {
  return x >= 100 ? x.toFixed(0) : stripZeros(x.toFixed(x >= 10 ? 1 : 2));
}

/** "2.50" -> "2.5", "3.00" -> "3"; integers are left alone. */
function stripZeros(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** Seconds with a unit that suits the size: 850 ms, 1.24 s, 2 min 5 s. */
export function fmtSeconds(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a < 1) return `${fmtNum(v * 1000)} ms`;
  if (a < 120) return `${v.toFixed(a < 10 ? 2 : 1)} s`;
  const m = Math.floor(a / 60);
  return `${v < 0 ? '−' : ''}${m} min ${Math.round(a - m * 60)} s`;
}

/** A fraction 0..1 as a percentage. */
export function fmtPercent(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const p = v * 100;
  return `${p >= 10 || p === 0 ? p.toFixed(0) : p.toFixed(1)} %`;
}
