/**
 * The pair tracker behind the Guarantees view and max_backlogged_service_gap: hand-checked vectors for
 * the theorem's definition (every sub-interval of a joint backlog counts), current gaps, samples and
 * bound crossings, and a property test against a brute-force check of every interval.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_VIOLATIONS, PairGaps } from '../../../src/core/metrics/pair-gaps';

describe('PairGaps', () => {
  it('takes the largest gap over every sub-interval of a joint backlog, not only from its start', () => {
    const s = new Float64Array(2);
    const g = new PairGaps(s);
    g.setBacklogged(0, true, 0);
    s[0] = 100; // only client 0 backlogged: no pair yet
    g.touch(0);
    g.flush(1);
    expect(g.max).toBe(0);
    expect(g.currentGap(0, 1)).toBeNull();
    g.setBacklogged(1, true, 2); // joint interval opens at D = 100
    s[0] += 30; // D = 130
    g.touch(0);
    g.flush(3);
    expect(g.max).toBe(30);
    expect(g.currentGap(0, 1)).toBe(30);
    s[1] += 50; // D = 80: over [3, 4] a got 0 and b got 50
    g.touch(1);
    g.flush(4);
    expect(g.max).toBe(50);
    expect(g.maxAt).toBe(4);
    expect(g.maxPair).toEqual([0, 1]);
    expect(g.currentGap(1, 0)).toBe(50); // max(130 − 80, 80 − 80)
    s[0] += 20; // D = 100: largest interval ending now is [3, 5]... = 20, or [2, 5] = 0; from the peak 130: 30
    g.touch(0);
    g.flush(5);
    expect(g.currentGap(0, 1)).toBe(30);
    expect(g.max).toBe(50);
    g.setBacklogged(1, false, 6);
    s[0] += 1000; // b not backlogged: does not count
    g.touch(0);
    g.flush(7);
    expect(g.max).toBe(50);
    expect(g.currentGap(0, 1)).toBeNull();
    g.setBacklogged(1, true, 8); // a fresh joint interval starts from the current difference
    s[1] += 10;
    g.touch(1);
    g.flush(9);
    expect(g.currentGap(0, 1)).toBe(10);
    expect(g.maxGapOf(1, 0)).toBe(50);
  });

  it('flags the first crossing of the bound in each joint interval, with its time', () => {
    const s = new Float64Array(3);
    const g = new PairGaps(s);
    g.bound = 100;
    for (const c of [0, 1, 2]) g.setBacklogged(c, true, 0);
    s[0] = 60;
    g.touch(0);
    g.flush(1);
    expect(g.violationCount).toBe(0);
    s[0] = 101; // 0–1 and 0–2 both at 101
    g.touch(0);
    g.flush(2);
    s[0] = 150; // still over: no new entry
    g.touch(0);
    g.flush(3);
    expect(g.violations).toEqual([
      { t: 2, a: 0, b: 1, gap: 101, bound: 100 },
      { t: 2, a: 0, b: 2, gap: 101, bound: 100 },
    ]);
    expect(g.violatedAt[0 * 3 + 1]).toBe(2);
    expect(Number.isNaN(g.violatedAt[1 * 3 + 2])).toBe(true);
    // client 2 leaves and comes back: its pairs get a new interval, and a new crossing counts again
    g.setBacklogged(2, false, 4);
    g.setBacklogged(2, true, 5);
    s[2] = 120; // D(0,2) from 150 to 30, D(1,2) from 0 to −120
    g.touch(2);
    g.flush(6);
    expect(g.violationCount).toBe(4); // 0–2 again, and 1–2 for the first time
    expect(g.violations.slice(2).map((v) => [v.t, v.a, v.b, v.gap])).toEqual([
      [6, 0, 2, 120],
      [6, 1, 2, 120],
    ]);
    expect(g.violatedAt[0 * 3 + 2]).toBe(2); // first time ever
    expect(g.violatedAt[1 * 3 + 2]).toBe(6);
  });

  it('keeps at most MAX_VIOLATIONS entries but counts them all', () => {
    const s = new Float64Array(2);
    const g = new PairGaps(s);
    g.bound = 1;
    for (let k = 0; k < MAX_VIOLATIONS + 7; k++) {
      g.setBacklogged(0, true, k);
      g.setBacklogged(1, true, k);
      s[0] += 5;
      g.touch(0);
      g.flush(k + 0.5);
      g.setBacklogged(1, false, k + 0.75);
    }
    expect(g.violations).toHaveLength(MAX_VIOLATIONS);
    expect(g.violationCount).toBe(MAX_VIOLATIONS + 7);
  });

  it('samples the peak current gap since the last sample per pair, NaN when not backlogged together', () => {
    const s = new Float64Array(3);
    const g = new PairGaps(s);
    const out = new Float64Array(3); // pairs 0–1, 0–2, 1–2
    g.takeSample(out);
    expect(Array.from(out).every(Number.isNaN)).toBe(true);
    g.setBacklogged(0, true, 0);
    g.setBacklogged(1, true, 0);
    s[0] = 40;
    g.touch(0);
    g.flush(1);
    s[1] = 40; // back to D = 0: the current gap is 40 (from the peak), ...
    g.touch(1);
    g.flush(2);
    s[1] = 70; // ... then D = −30: current max(40 + 30, −30 − (−30)) = 70
    g.touch(1);
    g.flush(3);
    g.takeSample(out);
    expect(out[0]).toBe(70);
    expect(Number.isNaN(out[1])).toBe(true);
    expect(Number.isNaN(out[2])).toBe(true);
    g.setBacklogged(1, false, 4); // the pair closes: its last peak still shows once
    g.takeSample(out);
    expect(out[0]).toBe(70);
    g.takeSample(out);
    expect(Number.isNaN(out[0])).toBe(true);
  });
});

/** A random history: service bumps and backlog switches for n clients. */
type Op = { kind: 'serve'; c: number; amount: number } | { kind: 'backlog'; c: number; on: boolean };

const opsArb = (n: number) =>
  fc.array(
    fc.oneof(
      fc.record({
        kind: fc.constant('serve' as const),
        c: fc.integer({ min: 0, max: n - 1 }),
        amount: fc.integer({ min: 1, max: 50 }),
      }),
      fc.record({
        kind: fc.constant('backlog' as const),
        c: fc.integer({ min: 0, max: n - 1 }),
        on: fc.boolean(),
      }),
    ),
    { maxLength: 80 },
  );

/**
 * Brute force: record the cumulative service after every op; for every pair and every two moments
 * t1 ≤ t2 with both backlogged throughout [t1, t2], |ΔS_a − ΔS_b|.
 */
function bruteForce(n: number, ops: Op[]): number {
  const s = new Array<number>(n).fill(0);
  const bl = new Array<boolean>(n).fill(false);
  const hist: { s: number[]; bl: boolean[] }[] = [{ s: [...s], bl: [...bl] }];
  for (const op of ops) {
    if (op.kind === 'serve') s[op.c] += op.amount;
    else bl[op.c] = op.on;
    hist.push({ s: [...s], bl: [...bl] });
  }
  let best = 0;
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let i = 0; i < hist.length; i++) {
        if (!hist[i].bl[a] || !hist[i].bl[b]) continue;
        for (let j = i; j < hist.length && hist[j].bl[a] && hist[j].bl[b]; j++) {
          const gap = Math.abs(hist[j].s[a] - hist[i].s[a] - (hist[j].s[b] - hist[i].s[b]));
          if (gap > best) best = gap;
        }
      }
  return best;
}

describe('PairGaps against brute force', () => {
  it('max equals the largest gap over every interval of every joint backlog', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 4 }), fc.integer({ min: 0, max: 1000 }), (n, seed) => {
        const ops = fc.sample(opsArb(n), { numRuns: 1, seed })[0];
        const s = new Float64Array(n);
        const g = new PairGaps(s);
        ops.forEach((op, k) => {
          if (op.kind === 'serve') {
            s[op.c] += op.amount;
            g.touch(op.c);
            g.flush(k); // the engine flushes at every step end
          } else g.setBacklogged(op.c, op.on, k);
        });
        g.flush(ops.length);
        expect(g.max).toBe(bruteForce(n, ops));
      }),
      { numRuns: 200, seed: 77 },
    );
  });
});
