/**
 * Seeded pseudo-random numbers for the simulator. Every random draw in `src/core` comes from here,
 * so the same seed gives the same run in Node, in the worker and in tests.
 *
 * Generator: sfc32 (small fast counter), seeded through splitmix32 so that nearby seeds give
 * unrelated streams. All arithmetic is 32-bit integer, so results are identical on every engine; the
 * continuous distributions use the deterministic log/exp/sin/cos of ./det-math, never Math's
 * engine-dependent ones.
 */
import { cos, exp, log, powPositive, sin } from './det-math';

function splitmix32(state: number): [number, number] {
  const s = (state + 0x9e3779b9) | 0;
  let z = s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  z ^= z >>> 16;
  return [z >>> 0, s];
}

/** FNV-1a hash of a string, used to derive independent sub-streams by name. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | null = null;

  constructor(seed: number) {
    let s = seed >>> 0;
    const out: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [v, next] = splitmix32(s);
      out.push(v);
      s = next;
    }
    [this.a, this.b, this.c, this.d] = out as [number, number, number, number];
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  /** An independent stream for a named purpose (e.g. one per client), stable for a given seed. */
  fork(label: string): Rng {
    return new Rng((this.peekSeed() ^ hashString(label)) >>> 0);
  }

  private peekSeed(): number {
    return (this.a ^ Math.imul(this.b, 31) ^ Math.imul(this.c, 17) ^ this.d) >>> 0;
  }

  /** Uniform 32-bit unsigned integer. */
  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** Uniform in [min, max). */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Uniform integer in [0, n), n ≥ 1. */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal (Box–Muller, the second value kept for the next call). */
  normal(mean = 0, std = 1): number {
    if (this.spareNormal !== null) {
      const z = this.spareNormal;
      this.spareNormal = null;
      return mean + std * z;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * log(u));
    this.spareNormal = r * sin(2 * Math.PI * v);
    return mean + std * r * cos(2 * Math.PI * v);
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    let u = 0;
    while (u === 0) u = this.next();
    return -mean * log(u);
  }

  /** Gamma(shape k, scale θ) by Marsaglia–Tsang; mean kθ. */
  gamma(shape: number, scale: number): number {
    if (shape < 1) {
      const u = this.next();
      return this.gamma(shape + 1, scale) * powPositive(u, 1 / shape);
    }
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = this.next();
      if (u < 1 - 0.0331 * x * x * x * x) return d * v * scale;
      if (log(u) < 0.5 * x * x + d * (1 - v + log(v))) return d * v * scale;
    }
  }

  /** Lognormal with the given mean and standard deviation of the variable itself (not of its log). */
  lognormal(mean: number, std: number): number {
    const sigma2 = log(1 + (std * std) / (mean * mean));
    const mu = log(mean) - sigma2 / 2;
    return exp(this.normal(mu, Math.sqrt(sigma2)));
  }
}
