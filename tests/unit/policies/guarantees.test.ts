/**
 * Property tests of the fairness guarantees over random prefix-heavy workloads on one worker:
 * DLPM's Theorems 4.1 and 4.2 (seed 002) and VTC's bound, with service counted by the harness from
 * the worker's own hooks (w_e · uncached prompt at admission + w_q per output token).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Arrival, concat, Harness, range } from './harness';

interface Workload {
  kvTokens: number;
  blockSize: number;
  maxBatchTokens: number;
  quantum: number;
  arrivals: Arrival[];
  clients: string[];
}

const clientArb = fc.record({
  prefix: fc.integer({ min: 0, max: 300 }),
  requests: fc.array(
    fc.record({
      t: fc.double({ min: 0, max: 0.5, noNaN: true }),
      suffix: fc.integer({ min: 1, max: 100 }),
      out: fc.integer({ min: 1, max: 128 }),
    }),
    { minLength: 3, maxLength: 60 },
  ),
});

const workloadArb: fc.Arbitrary<Workload> = fc
  .record({
    clients: fc.array(clientArb, { minLength: 2, maxLength: 4 }),
    kvTokens: fc.integer({ min: 1024, max: 3072 }),
    blockSize: fc.constantFrom(1, 16),
    maxBatchTokens: fc.constantFrom(256, 2048),
    quantum: fc.integer({ min: 16, max: 1500 }),
  })
  .map((w) => {
    const names = w.clients.map((_, i) => `c${i}`);
    const arrivals: Arrival[] = [];
    w.clients.forEach((c, ci) => {
      const doc = range(ci * 1_000_000, c.prefix);
      c.requests.forEach((r, k) => {
        arrivals.push({
          t: r.t,
          id: `c${ci}-${k}`,
          client: names[ci],
          tokens: concat(doc, range(ci * 1_000_000 + 500_000 + k * 1000, r.suffix)),
          out: r.out,
        });
      });
    });
    return {
      kvTokens: w.kvTokens,
      blockSize: w.blockSize,
      maxBatchTokens: w.maxBatchTokens,
      quantum: w.quantum,
      arrivals,
      clients: names,
    };
  });

function run(policy: string, w: Workload): Harness {
  const h = new Harness({
    policy,
    clients: w.clients,
    kvTokens: w.kvTokens,
    blockSize: w.blockSize,
    maxBatchTokens: w.maxBatchTokens,
    quantum: w.quantum,
    recording: false,
  });
  h.run(w.arrivals);
  expect(h.completed.length).toBe(w.arrivals.length);
  return h;
}

const maxPrompt = (w: Workload) => Math.max(...w.arrivals.map((a) => a.tokens.length));
/** M: the most tokens a running batch can hold (the KV pool, whole blocks). */
const kvCap = (w: Workload) => Math.floor(w.kvTokens / w.blockSize) * w.blockSize;

describe('fairness guarantees (property tests)', () => {
  it('DLPM Theorem 4.1 and 4.2: service gaps of backlogged clients stay within 2·(U + Q^u)', () => {
    fc.assert(
      fc.property(workloadArb, (w) => {
        const h = run('dlpm', w);
        const u = 1 * maxPrompt(w) + 2 * kvCap(w); // U = w_e·L_input + w_q·M
        const bound = 2 * (u + w.quantum);
        expect(h.maxGap).toBeLessThanOrEqual(bound);
        expect(h.maxRise).toBeLessThanOrEqual(bound);
        const described = h.policy.describe?.() as { bound: number };
        expect(described.bound).toBe(bound);
      }),
      { numRuns: 60, seed: 4242 },
    );
  });

  it('VTC: service gap of backlogged clients stays within 2·max(w_e·L_input, w_q·M)', () => {
    fc.assert(
      fc.property(workloadArb, (w) => {
        const h = run('vtc', w);
        const bound = 2 * Math.max(1 * maxPrompt(w), 2 * kvCap(w));
        expect(h.maxGap).toBeLessThanOrEqual(bound);
      }),
      { numRuns: 60, seed: 4243 },
    );
  });

  it('the bound can fail: on a misbehaving prefix-heavy workload LPM exceeds it, DLPM does not', () => {
    // c0 has a cached 300-token document and sends 300 requests; c1 sends 40 unrelated ones
    const doc = range(0, 300);
    const arrivals: Arrival[] = [];
    for (let k = 0; k < 300; k++)
      arrivals.push({
        t: 0,
        id: `c0-${k}`,
        client: 'c0',
        tokens: concat(doc, range(100_000 + k * 100, 40)),
        out: 64,
      });
    for (let k = 0; k < 40; k++)
      arrivals.push({ t: 0, id: `c1-${k}`, client: 'c1', tokens: range(900_000 + k * 1000, 80), out: 64 });
    const w: Workload = {
      kvTokens: 1024,
      blockSize: 16,
      maxBatchTokens: 512,
      quantum: 200,
      arrivals,
      clients: ['c0', 'c1'],
    };
    const bound = 2 * (maxPrompt(w) + 2 * kvCap(w) + w.quantum);
    const lpm = run('lpm', w);
    const dlpm = run('dlpm', w);
    expect(lpm.maxGap).toBeGreaterThan(bound);
    expect(dlpm.maxGap).toBeLessThanOrEqual(bound);
    expect(dlpm.maxGap).toBeLessThan(lpm.maxGap / 4);
  });
});
