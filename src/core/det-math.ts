/**
 * Deterministic elementary functions for the core: `log`, `exp`, `sin`, `cos` and `powPositive`.
 *
 * JavaScript leaves `Math.log`, `Math.exp`, `Math.sin`, `Math.pow`, … implementation-defined ("an
 * implementation-approximated value"), and engines differ: V8 versions switch between an fdlibm port
 * and the C library's trig functions, other engines use their own. The simulator promises
 * byte-identical results in Node and in every browser, so every transcendental function the core
 * uses is computed here with plain IEEE-754 double arithmetic (+, −, ×, ÷, which every engine rounds
 * identically) and bit manipulation. The algorithms follow Sun's fdlibm (argument reduction to a small
 * interval, then a minimax polynomial); the constants are the mathematical ones fdlibm documents.
 * Accuracy: under 1 ulp for `log` and `exp`, and for `sin`/`cos` of |x| ≤ 2^19·π/2; beyond that the
 * three-step Cody–Waite reduction loses accuracy (still deterministic; the core only takes sines of
 * angles in [0, 2π)). `Math.sqrt` is correctly rounded by IEEE-754 and needs no replacement.
 *
 * A lint test (tests/unit/core/det-math-lint.test.ts) fails if src/core calls an engine-dependent
 * Math function or raises to a non-integer power with `**`.
 */

const view = new DataView(new ArrayBuffer(8));

function hiWord(x: number): number {
  view.setFloat64(0, x);
  return view.getInt32(0);
}

function loWord(x: number): number {
  view.setFloat64(0, x);
  return view.getUint32(4);
}

function withHiWord(x: number, hi: number): number {
  view.setFloat64(0, x);
  view.setInt32(0, hi | 0);
  return view.getFloat64(0);
}

function fromWords(hi: number, lo: number): number {
  view.setInt32(0, hi | 0);
  view.setUint32(4, lo >>> 0);
  return view.getFloat64(0);
}

const TWO54 = 18014398509481984; // 2^54
const LN2_HI = 0.6931471803691238; // high 32 bits of ln 2
const LN2_LO = 1.9082149292705877e-10; // ln 2 − LN2_HI

// log: minimax polynomial for R(z) on [0, 0.1716], z = s², s = f/(2+f).
const LG1 = 0.6666666666666735;
const LG2 = 0.3999999999940942;
const LG3 = 0.2857142874366239;
const LG4 = 0.22222198432149784;
const LG5 = 0.1818357216161805;
const LG6 = 0.15313837699209373;
const LG7 = 0.14798198605116586;

/** Natural logarithm. log(0) = −∞, log(x < 0) = NaN, log(∞) = ∞. */
export function log(x: number): number {
  let hx = hiWord(x);
  const lx = loWord(x);
  let k = 0;
  if (hx < 0x00100000) {
    // x < 2^-1022: zero, negative or subnormal
    if (((hx & 0x7fffffff) | lx) === 0) return Number.NEGATIVE_INFINITY;
    if (hx < 0) return Number.NaN;
    k -= 54;
    x *= TWO54;
    hx = hiWord(x);
  }
  if (hx >= 0x7ff00000) return x + x; // ∞ or NaN
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i0 = (hx + 0x95f64) & 0x100000;
  x = withHiWord(x, hx | (i0 ^ 0x3ff00000)); // x or x/2, in [√2/2, √2)
  k += i0 >> 20;
  const f = x - 1;
  const dk = k;
  if ((0x000fffff & (2 + hx)) < 3) {
    // |f| < 2^-20
    if (f === 0) return k === 0 ? 0 : dk * LN2_HI + dk * LN2_LO;
    const r = f * f * (0.5 - 0.3333333333333333 * f);
    return k === 0 ? f - r : dk * LN2_HI - (r - dk * LN2_LO - f);
  }
  const s = f / (2 + f);
  const z = s * s;
  let i = hx - 0x6147a;
  const w = z * z;
  const j = 0x6b851 - hx;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  i |= j;
  const r = t2 + t1;
  if (i > 0) {
    const hfsq = 0.5 * f * f;
    if (k === 0) return f - (hfsq - s * (hfsq + r));
    return dk * LN2_HI - (hfsq - (s * (hfsq + r) + dk * LN2_LO) - f);
  }
  if (k === 0) return f - s * (f - r);
  return dk * LN2_HI - (s * (f - r) - dk * LN2_LO - f);
}

// exp: minimax polynomial for the Remez-fitted R(r²) on [−0.3466, 0.3466].
const P1 = 0.16666666666666602;
const P2 = -0.0027777777777015593;
const P3 = 0.00006613756321437934;
const P4 = -0.0000016533902205465252;
const P5 = 4.1381367970572385e-8;
const INV_LN2 = Math.LOG2E; // 1/ln 2
const O_THRESHOLD = 709.782712893384;
const U_THRESHOLD = -745.1332191019411;
const TWO_M1000 = 9.332636185032189e-302; // 2^-1000

/** e^x. Overflows to ∞ above ~709.78, underflows to 0 below ~−745.13. */
export function exp(x: number): number {
  let hx = hiWord(x);
  const negative = hx < 0;
  hx &= 0x7fffffff;
  if (hx >= 0x40862e42) {
    // |x| ≥ 709.78
    if (hx >= 0x7ff00000) {
      if (((hx & 0xfffff) | loWord(x)) !== 0) return x + x; // NaN
      return negative ? 0 : x; // exp(±∞)
    }
    if (x > O_THRESHOLD) return Number.POSITIVE_INFINITY;
    if (x < U_THRESHOLD) return 0;
  }
  let hi = 0;
  let lo = 0;
  let k = 0;
  if (hx > 0x3fd62e42) {
    // |x| > ln2/2: x = k·ln2 + r, |r| ≤ ln2/2
    if (hx < 0x3ff0a2b2) {
      // |x| < 1.5·ln2
      hi = negative ? x + LN2_HI : x - LN2_HI;
      lo = negative ? -LN2_LO : LN2_LO;
      k = negative ? -1 : 1;
    } else {
      k = Math.trunc(INV_LN2 * x + (negative ? -0.5 : 0.5));
      hi = x - k * LN2_HI; // exact: k has at most 11 bits
      lo = k * LN2_LO;
    }
    x = hi - lo;
  } else if (hx < 0x3e300000) {
    // |x| < 2^-28
    return 1 + x;
  }
  const t = x * x;
  const c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k === 0) return 1 - ((x * c) / (c - 2) - x);
  const y = 1 - (lo - (x * c) / (2 - c) - hi);
  if (k >= -1021) return withHiWord(y, hiWord(y) + (k << 20));
  return withHiWord(y, hiWord(y) + ((k + 1000) << 20)) * TWO_M1000;
}

/**
 * x^y for x > 0 as e^(y·log x): deterministic, within a few ulp of the exact power for the moderate
 * exponents the core uses (x ≤ 0 gives NaN; use integer powers by repeated multiplication instead).
 */
export function powPositive(x: number, y: number): number {
  if (!(x > 0)) return Number.NaN;
  return exp(y * log(x));
}

// sin and cos on [−π/4, π/4] (x + y, y the tail of the reduced argument).
const S1 = -0.16666666666666632;
const S2 = 0.00833333333332249;
const S3 = -0.0001984126982985795;
const S4 = 0.0000027557313707070068;
const S5 = -2.5050760253406863e-8;
const S6 = 1.58969099521155e-10;
const C1 = 0.0416666666666666;
const C2 = -0.001388888888887411;
const C3 = 0.00002480158728947673;
const C4 = -2.7557314351390663e-7;
const C5 = 2.087572321298175e-9;
const C6 = -1.1359647557788195e-11;

function kernelSin(x: number, y: number, tail: boolean): number {
  const ix = hiWord(x) & 0x7fffffff;
  if (ix < 0x3e400000 && Math.trunc(x) === 0) return x; // |x| < 2^-27
  const z = x * x;
  const v = z * x;
  const r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  if (!tail) return x + v * (S1 + z * r);
  return x - (z * (0.5 * y - v * r) - y - v * S1);
}

function kernelCos(x: number, y: number): number {
  const ix = hiWord(x) & 0x7fffffff;
  if (ix < 0x3e400000 && Math.trunc(x) === 0) return 1; // |x| < 2^-27
  const z = x * x;
  const r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  if (ix < 0x3fd33333) return 1 - (0.5 * z - (z * r - x * y)); // |x| < 0.3
  const qx = ix > 0x3fe90000 ? 0.28125 : fromWords(ix - 0x00200000, 0); // |x|/4, low word cleared
  const hz = 0.5 * z - qx;
  const a = 1 - qx;
  return a - (hz - (z * r - x * y));
}

// π/2 in three 33-bit pieces and their tails, and 2/π.
const INV_PIO2 = 0.6366197723675814;
const PIO2_1 = 1.5707963267341256;
const PIO2_1T = 6.077100506506192e-11;
const PIO2_2 = 6.077100506303966e-11;
const PIO2_2T = 2.0222662487959506e-21;
const PIO2_3 = 2.0222662487111665e-21;
const PIO2_3T = 8.4784276603689e-32;

/** x − n·π/2 as a head and tail, and n mod 4. */
const reduced = { y0: 0, y1: 0 };
function remPio2(x: number): number {
  const hx = hiWord(x);
  const ix = hx & 0x7fffffff;
  if (ix < 0x4002d97c) {
    // |x| < 3π/4: n = ±1
    if (hx > 0) {
      let z = x - PIO2_1;
      if (ix !== 0x3ff921fb) {
        reduced.y0 = z - PIO2_1T;
        reduced.y1 = z - reduced.y0 - PIO2_1T;
      } else {
        z -= PIO2_2;
        reduced.y0 = z - PIO2_2T;
        reduced.y1 = z - reduced.y0 - PIO2_2T;
      }
      return 1;
    }
    let z = x + PIO2_1;
    if (ix !== 0x3ff921fb) {
      reduced.y0 = z + PIO2_1T;
      reduced.y1 = z - reduced.y0 + PIO2_1T;
    } else {
      z += PIO2_2;
      reduced.y0 = z + PIO2_2T;
      reduced.y1 = z - reduced.y0 + PIO2_2T;
    }
    return 3;
  }
  const t = Math.abs(x);
  const n = Math.trunc(t * INV_PIO2 + 0.5);
  const fn = n;
  let r = t - fn * PIO2_1;
  let w = fn * PIO2_1T;
  const j = ix >> 20;
  let y0 = r - w;
  let i = j - ((hiWord(y0) >> 20) & 0x7ff);
  if (i > 16) {
    // second step: 118 bits of π/2
    let tt = r;
    w = fn * PIO2_2;
    r = tt - w;
    w = fn * PIO2_2T - (tt - r - w);
    y0 = r - w;
    i = j - ((hiWord(y0) >> 20) & 0x7ff);
    if (i > 49) {
      // third step: 151 bits
      tt = r;
      w = fn * PIO2_3;
      r = tt - w;
      w = fn * PIO2_3T - (tt - r - w);
      y0 = r - w;
    }
  }
  const y1 = r - y0 - w;
  const q = n % 4;
  if (hx < 0) {
    reduced.y0 = -y0;
    reduced.y1 = -y1;
    return (4 - q) % 4;
  }
  reduced.y0 = y0;
  reduced.y1 = y1;
  return q;
}

/** Sine (radians). */
export function sin(x: number): number {
  const ix = hiWord(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelSin(x, 0, false); // |x| ≤ π/4
  if (ix >= 0x7ff00000) return Number.NaN;
  switch (remPio2(x)) {
    case 0:
      return kernelSin(reduced.y0, reduced.y1, true);
    case 1:
      return kernelCos(reduced.y0, reduced.y1);
    case 2:
      return -kernelSin(reduced.y0, reduced.y1, true);
    default:
      return -kernelCos(reduced.y0, reduced.y1);
  }
}

/** Cosine (radians). */
export function cos(x: number): number {
  const ix = hiWord(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelCos(x, 0); // |x| ≤ π/4
  if (ix >= 0x7ff00000) return Number.NaN;
  switch (remPio2(x)) {
    case 0:
      return kernelCos(reduced.y0, reduced.y1);
    case 1:
      return -kernelSin(reduced.y0, reduced.y1, true);
    case 2:
      return -kernelCos(reduced.y0, reduced.y1);
    default:
      return kernelSin(reduced.y0, reduced.y1, true);
  }
}
