/**
 * The one number format of the UI (src/ui/views/format.ts): every view, the Compare panel, the sweep charts and every chart
 * tick format through here, so the same quantity reads the same everywhere.
 *
 * - Negative numbers carry the true minus sign U+2212 ("−3.4"), never the hyphen.
 * - A number that rounds to zero in print has no sign ("0.0 %", never "−0.0 %" or "+0.0 %").
 * - Thousands are grouped with a narrow no-break space U+202F ("12 345"), never a comma.
 * - From 10 000 up, k / M / G with about three significant digits. A set of numbers read together
 *   (an axis's ticks: `tickFormatter`; a table row's A and B: `fmtPair`) shares one suffix, and the
 *   pair gets enough digits that two different values never print equal.
 * - Missing or non-finite values print as "–".
 */

export const MINUS = '\u2212';
export const GROUP = '\u202f';
const MISSING = '–';

type Maybe = number | null | undefined;

function missing(v: Maybe): v is null | undefined {
  return v === null || v === undefined || !Number.isFinite(v);
}

/** Prefix the sign of `v` to `abs` (the formatted |v|) — none when the print reads as zero. */
function withSign(v: number, abs: string, plus: boolean): string {
  if (!/[1-9]/.test(abs)) return abs;
  if (v < 0) return MINUS + abs;
  return plus && v > 0 ? `+${abs}` : abs;
}

/** "12345.6" -> "12 345.6": the integer part grouped by three. */
function groupDigits(s: string): string {
  const [int, frac] = s.split('.');
  const g = (int ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, GROUP);
  return frac === undefined ? g : `${g}.${frac}`;
}

/** "2.50" -> "2.5", "3.00" -> "3"; integers are left alone. */
function stripZeros(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

interface Scale {
  div: number;
  suffix: string;
}

const PLAIN: Scale = { div: 1, suffix: '' };

/** The suffix for a magnitude: k from 10 000 (below that, grouped digits read fine), M, G. */
function scaleFor(a: number): Scale {
  if (a >= 1e9) return { div: 1e9, suffix: 'G' };
  if (a >= 1e6) return { div: 1e6, suffix: 'M' };
  if (a >= 1e4) return { div: 1e3, suffix: 'k' };
  return PLAIN;
}

/** Decimals for about three significant digits of `x` (already divided by its scale). */
function sigDecimals(x: number): number {
  if (x >= 100) return 0;
  if (x >= 10) return 1;
  if (x >= 1) return 2;
  if (x === 0) return 0;
  // below 1: two significant digits (0.0013 -> 4 decimals)
  return Math.min(12, 1 - Math.floor(Math.log10(x)));
}

function fixed(a: number, s: Scale, decimals: number): string {
  return groupDigits((a / s.div).toFixed(decimals)) + s.suffix;
}

export interface SignOpt {
  /** Print "+" before positive values (a difference). */
  signed?: boolean;
}

/** Integer-ish counts with grouping (12 345); fractional values as `fmtNum`. */
export function fmtCount(v: Maybe, opt: SignOpt = {}): string {
  if (missing(v)) return MISSING;
  const r = Math.round(v);
  if (Math.abs(v - r) < 1e-9) return withSign(r, groupDigits(Math.abs(r).toString()), !!opt.signed);
  return fmtNum(v, opt);
}

/**
 * A number as written in a formula whose arithmetic the reader checks: every digit of the integer
 * part (grouped, no k/M), up to three decimals ("12 600", "0.25", "1 234.5").
 */
export function fmtExact(v: Maybe): string {
  if (missing(v)) return MISSING;
  const abs = stripZeros(Math.abs(v).toFixed(3));
  return withSign(v, groupDigits(abs), false);
}

/** A general number with about three significant digits, k/M/G from 10 000. */
export function fmtNum(v: Maybe, opt: SignOpt = {}): string {
  if (missing(v)) return MISSING;
  const a = Math.abs(v);
  const s = scaleFor(a);
  let abs: string;
  if (s !== PLAIN) abs = stripZeros((a / s.div).toFixed(sigDecimals(a / s.div))) + s.suffix;
  else if (a >= 100 || a === Math.round(a)) abs = groupDigits(Math.round(a).toString());
  else abs = stripZeros(a.toFixed(sigDecimals(a)));
  return withSign(v, abs, !!opt.signed);
}

/** Seconds with a unit that suits the size: 850 ms, 1.24 s, 2 min 5 s. */
export function fmtSeconds(v: Maybe, opt: SignOpt = {}): string {
  if (missing(v)) return MISSING;
  const a = Math.abs(v);
  let abs: string;
  // below 1 s in ms, unless it rounds to 1 000 ms (999.6 ms is "1.00 s")
  if (a < 1 && Math.round(a * 1000) < 1000) abs = `${fmtNum(a * 1000)} ms`;
  else if (a < 120) abs = `${a.toFixed(a < 10 ? 2 : 1)} s`;
  else {
    const m = Math.floor(a / 60);
    const sec = Math.round(a - m * 60);
    abs = sec === 60 ? `${m + 1} min 0 s` : `${m} min ${sec} s`;
  }
  return withSign(v, abs, !!opt.signed);
}

/**
 * A worker's batch step, given in ms by the engine (`last_step_ms`), as `fmtSeconds` words it: ms
 * below 1 s ("11.3 ms"), seconds from 1 s ("15.6 s", never "15.6k ms").
 */
export function fmtStepMs(ms: Maybe): string {
  return missing(ms) ? MISSING : fmtSeconds(ms / 1000);
}

/**
 * One format for a column of durations read together (the latency table's TTFT or e2e column, p50 and
 * p99 of every client): one unit (ms below 1 s, s below 2 min, chosen by the largest value) and one
 * number of decimals, about three significant digits of the largest — "31.3 ms" beside "27.1 ms" and
 * "4.0 ms", never "31.28 ms" beside "27.1 ms". From 2 min, minutes and seconds as `fmtSeconds`.
 */
export function secondsColumn(values: readonly Maybe[]): (v: Maybe) => string {
  const finite = values.filter((v): v is number => !missing(v));
  const big = Math.max(0, ...finite.map((v) => Math.abs(v)));
  if (big >= 120) return (v) => fmtSeconds(v);
  const ms = big < 1;
  const mult = ms ? 1000 : 1;
  const unit = ms ? ' ms' : ' s';
  const decimals = big === 0 ? 0 : Math.min(6, sigDecimals(big * mult));
  return (v) => {
    if (missing(v)) return MISSING;
    return withSign(v, `${groupDigits((Math.abs(v) * mult).toFixed(decimals))}${unit}`, false);
  };
}

/**
 * The unit `secondsColumn` prints `values` in, in words, for a caption that must agree with the
 * cells: "milliseconds", "seconds", or from 2 min "minutes and seconds".
 */
export function secondsColumnUnit(values: readonly Maybe[]): string {
  const big = Math.max(0, ...values.filter((v): v is number => !missing(v)).map((v) => Math.abs(v)));
  return big >= 120 ? 'minutes and seconds' : big < 1 ? 'milliseconds' : 'seconds';
}

/** A fraction 0..1 as a percentage: whole percent from 10 %, one decimal below. */
export function fmtPercent(v: Maybe, opt: SignOpt = {}): string {
  if (missing(v)) return MISSING;
  const p = Math.abs(v * 100);
  const abs = p >= 10 || p === 0 ? p.toFixed(0) : p.toFixed(1);
  return withSign(v, `${abs} %`, !!opt.signed);
}

/**
 * A column of fractions as percentages in one number of decimals: one when some non-zero value is
 * under 10 % (as `fmtPercent` would print it), else none — "0.9 %" beside "14.0 %", never "14 %".
 */
export function percentColumn(values: readonly Maybe[]): (v: Maybe) => string {
  const small = values.some((v) => !missing(v) && v !== 0 && Math.abs(v * 100) < 10);
  return (v) => {
    if (missing(v)) return MISSING;
    return withSign(v, `${Math.abs(v * 100).toFixed(small ? 1 : 0)} %`, false);
  };
}

/**
 * A difference of two fractions in percentage points ("pp": 6.6 % → 4.7 % is −1.9 pp, not −1.9 %,
 * which would read as a relative change), with two significant digits when small.
 */
export function fmtPercentDelta(v: Maybe): string {
  if (missing(v)) return MISSING;
  return `${fmtNum(v * 100, { signed: true })} pp`;
}

/** How a pair of values is printed (`fmtPair`): plain numbers, seconds, percentages of a fraction, or fixed decimals. */
export type PairKind = 'num' | 's' | '%' | { decimals: number };

/**
 * Two values read side by side (A and B of a Compare row): one scale and one number of decimals
 * for both, at least the usual precision, and more (up to four more digits) while two different
 * values would still print the same — "995k" against "1M" becomes "0.995M" against "1.001M".
 */
export function fmtPair(a: Maybe, b: Maybe, kind: PairKind = 'num'): [string, string] {
  if (missing(a) || missing(b)) {
    const one = (v: Maybe) => (kind === 's' ? fmtSeconds(v) : kind === '%' ? fmtPercent(v) : fmtNum(v));
    return [one(a), one(b)];
  }
  let mult = 1;
  let unit = '';
  let scale: Scale;
  let d0: number;
  const big = Math.max(Math.abs(a), Math.abs(b));
  if (kind === '%') {
    mult = 100;
    unit = ' %';
    scale = PLAIN;
    d0 = big * 100 >= 10 || big === 0 ? 0 : 1;
  } else if (kind === 's') {
    if (big >= 1) {
      unit = ' s';
      scale = PLAIN;
      d0 = big < 10 ? 2 : 1;
    } else {
      mult = 1000;
      unit = ' ms';
      scale = PLAIN;
      d0 = big * 1000 >= 100 ? 0 : sigDecimals(big * 1000);
    }
  } else if (typeof kind === 'object') {
    scale = PLAIN;
    d0 = kind.decimals;
  } else {
    scale = scaleFor(big);
    const x = big / scale.div;
    d0 = scale === PLAIN && Number.isInteger(a) && Number.isInteger(b) ? 0 : sigDecimals(x);
  }
  const print = (v: number, d: number) => withSign(v, fixed(Math.abs(v) * mult, scale, d) + unit, false);
  let d = d0;
  while (d < d0 + 4 && a !== b && print(a, d) === print(b, d)) d++;
  return [print(a, d), print(b, d)];
}

/**
 * One format for a set of values read as one list (a sweep's swept values, in its tags and their
 * groups' "first … last"): one k/M/G suffix for all of them, chosen by the smallest nonzero value so
 * none prints as a fraction of its unit ("625 … 10 000", "2 000 … 18 300", "12.6k … 80k"), and each
 * value exact in that unit, up to six decimals ("100k … 2 000k"). fmtNum alone gave
 * "2 000 … 18.3k": grouped digits at one end, a suffix at the other.
 */
export function setFormatter(values: readonly number[]): (v: number) => string {
  const sizes = values.filter((v) => Number.isFinite(v) && v !== 0).map((v) => Math.abs(v));
  const scale = sizes.length === 0 ? PLAIN : scaleFor(Math.min(...sizes));
  return (v: number) => {
    if (!Number.isFinite(v)) return MISSING;
    const x = Math.abs(v) / scale.div;
    let d = 0;
    while (d < 6 && Math.abs(x * 10 ** d - Math.round(x * 10 ** d)) > 1e-6 * Math.max(1, x * 10 ** d)) d++;
    return withSign(v, groupDigits(stripZeros(x.toFixed(d))) + scale.suffix, false);
  };
}

/**
 * One label format for a whole axis (d3's `scale.ticks()`, linear or log): one k/M/G suffix chosen
 * by the largest tick and one number of decimals, the fewest that print every tick exactly —
 * "0, 5k, 10k, 15k", never "5 000" next to "10k"; "0.0 … 1.0"; "0.519, 0.520" on a narrow range.
 */
export function tickFormatter(ticks: readonly number[]): (v: number) => string {
  const finite = ticks.filter((t) => Number.isFinite(t));
  const big = Math.max(0, ...finite.map((t) => Math.abs(t)));
  const scale = scaleFor(big);
  let decimals = 0;
  for (const t of finite) {
    const x = Math.abs(t) / scale.div;
    while (decimals < 8 && Math.abs(x * 10 ** decimals - Math.round(x * 10 ** decimals)) > 1e-6) decimals++;
  }
  return (v: number) => {
    if (!Number.isFinite(v)) return MISSING;
    if (v === 0 && scale !== PLAIN) return '0';
    return withSign(v, fixed(Math.abs(v), scale, decimals), false);
  };
}
