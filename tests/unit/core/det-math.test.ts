/**
 * Deterministic elementary functions (#15.6). Bit patterns are pinned (so the results cannot drift
 * with the engine or with an edit of a coefficient), accuracy is checked against the engine's Math
 * (within 1 ulp; engines themselves differ by about that much), and the special values follow IEEE.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cos, exp, log, powPositive, sin } from '../../../src/core/det-math';

const view = new DataView(new ArrayBuffer(8));
const hex = (x: number): string => {
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
};
const bits = (x: number): bigint => {
  view.setFloat64(0, x);
  return view.getBigInt64(0);
};
const ulps = (a: number, b: number): number => (a === b ? 0 : Math.abs(Number(bits(a) - bits(b))));

const PINS: Record<string, { f: (x: number) => number; at: [number, string][] }> = {
  log: {
    f: log,
    at: [
      [0.1, 'c0026bb1bbb55515'],
      [0.5, 'bfe62e42fefa39ef'],
      [0.7, 'bfd6d3c324e13f50'],
      [1.5, '3fd9f323ecbf984c'],
      [10, '40026bb1bbb55516'],
      [1e-300, 'c085963447f87fb5'],
      [3e-320, 'c086fdd43b3b8eab'],
    ],
  },
  exp: {
    f: exp,
    at: [
      [-700, '00d14f2b0fb9307f'],
      [-1, '3fd78b56362cef38'],
      [-1e-9, '3fefffffff768fa1'],
      [0.25, '3ff48b5e3c3e8186'],
      [1, '4005bf0a8b14576a'],
      [100, '48f3494a9b171bf5'],
      [709, '7fdd422d2be5dc9b'],
    ],
  },
  sin: {
    f: sin,
    at: [
      [0.5, '3fdeaee8744b05f0'],
      [2, '3fed18f6ead1b446'],
      [3, '3fc210386db6d55b'],
      [4, 'bfe837b9dddc1eae'],
      [6.283185307179586, 'bcb1a62633145c07'],
      [100000, '3fa24daa9c527e96'],
    ],
  },
  cos: {
    f: cos,
    at: [
      [0.5, '3fec1528065b7d50'],
      [2, 'bfdaa22657537205'],
      [4, 'bfe4eaa606db24c1'],
      [5, '3fd22785706b4ad9'],
      [6.283185307179586, '3ff0000000000000'],
      [100000, 'bfeffac3841b3da7'],
    ],
  },
};

describe('det-math', () => {
  for (const [name, { f, at }] of Object.entries(PINS)) {
    it(`${name}: pinned bit patterns`, () => {
      for (const [x, want] of at) expect(`${name}(${x}) = ${hex(f(x))}`).toBe(`${name}(${x}) = ${want}`);
    });
  }

  it('powPositive: pinned, and x^y = e^(y log x)', () => {
    expect(hex(powPositive(0.3, 4))).toBe('3f8096bb98c7e280');
    expect(hex(powPositive(0.77, 2.5))).toBe('3fe0a6085194b3f3');
    expect(powPositive(0, 2)).toBeNaN();
    expect(powPositive(-1, 2)).toBeNaN();
  });

  it('is within 1 ulp of the engine on the ranges the simulator uses', () => {
    const unit = fc.double({ min: Number.MIN_VALUE, max: 1, noNaN: true });
    const wide = fc.double({ min: 1e-300, max: 1e300, noNaN: true });
    const angle = fc.double({ min: 0, max: 2 * Math.PI, noNaN: true });
    const expArg = fc.double({ min: -745, max: 709.7, noNaN: true });
    fc.assert(
      fc.property(unit, wide, (u, w) => ulps(log(u), Math.log(u)) <= 1 && ulps(log(w), Math.log(w)) <= 1),
      {
        numRuns: 20_000,
      },
    );
    fc.assert(
      fc.property(expArg, (x) => ulps(exp(x), Math.exp(x)) <= 1),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(angle, (t) => ulps(sin(t), Math.sin(t)) <= 1 && ulps(cos(t), Math.cos(t)) <= 1),
      { numRuns: 20_000 },
    );
  });

  it('special values follow IEEE-754', () => {
    expect(log(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(log(-0)).toBe(Number.NEGATIVE_INFINITY);
    expect(log(-1)).toBeNaN();
    expect(log(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(log(1)).toBe(0);
    expect(exp(0)).toBe(1);
    expect(exp(Number.NEGATIVE_INFINITY)).toBe(0);
    expect(exp(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(exp(710)).toBe(Number.POSITIVE_INFINITY);
    expect(exp(-746)).toBe(0);
    expect(exp(Number.NaN)).toBeNaN();
    expect(Object.is(sin(-0), -0)).toBe(true);
    expect(cos(0)).toBe(1);
    expect(sin(Number.POSITIVE_INFINITY)).toBeNaN();
    expect(cos(Number.NaN)).toBeNaN();
  });

  it('log and exp are inverse to within rounding; sin² + cos² = 1', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -700, max: 700, noNaN: true }),
        (x) => Math.abs(log(exp(x)) - x) <= 1e-15 * Math.max(1, Math.abs(x)) * 4,
      ),
      { numRuns: 5_000 },
    );
    fc.assert(
      fc.property(
        fc.double({ min: -1e5, max: 1e5, noNaN: true }),
        (x) => Math.abs(sin(x) ** 2 + cos(x) ** 2 - 1) < 4e-16,
      ),
      { numRuns: 5_000 },
    );
  });
});
