/**
 * DLPM with its order kept live (src/core/algorithms/dlpm/live-policy.ts, #15.3) against the
 * reference DlpmPolicy (re-read, sort and scan of the whole queue every step): the same arrivals on two
 * identical workers in lockstep; after every step the admissions, every decision record (the scan
 * order's first 24 entries with their outcomes and deficits, skipped clients, refills, scan position,
 * pass) and the whole waiting order must be equal, and so must the deficits. Workloads as for LPM
 * (./live-workload.ts) with 2, 4 or 40 clients (more than the 32 notes a record keeps), small and
 * large quanta (many CHECKREFILL rounds, multi-pass steps), the quantum-per-request variant, KV
 * pressure (`cannotFit`), the fallback threshold. Each deliberately broken variant fails the test.
 *
 * Under KV pressure the live scan passes over, in bulk, the requests whose uncached prompt at the
 * step's start already needs more blocks than are free or evictable; the `pressure` workloads (a
 * small KV cache, optimistic admission and 64 running slots, so most steps end on a KV failure with
 * hundreds waiting) exercise that skip: a client losing its credit after a bulk skip, later passes,
 * records whose first 24 entries include skipped requests; under sglang admission, the skip by the
 * output reservation. Its four broken variants fail them.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveDlpmPolicy } from '../../../src/core/algorithms/dlpm/live-policy';
import { DlpmPolicy } from '../../../src/core/algorithms/dlpm/policy';
import { livePrefixFaults } from '../../../src/core/algorithms/shared/live-prefix-order';
import type { LocalPolicy } from '../../../src/core/replica/local-policy';
import { Harness } from './harness';
import {
  caseFields,
  clearFaults,
  type Case,
  lockstepDifference,
  workerOptions,
  workload,
} from './live-workload';

interface DlpmCase extends Case {
  clients: number;
  quantum: number;
  perRequest: boolean;
}

function harness(c: DlpmCase, reference: boolean, recording = true): Harness {
  const clients = Array.from({ length: c.clients }, (_, i) => `c${i}`);
  const cfg = {
    workerId: 0,
    clients,
    weights: { input: 1, output: 2 },
    params: {
      quantum: c.quantum,
      lpm_fcfs_fallback: c.fallback,
      dlpm_quantum_per_request: c.perRequest,
    },
  };
  const use: LocalPolicy = reference ? new DlpmPolicy(cfg) : new LiveDlpmPolicy(cfg);
  return new Harness({
    policy: 'dlpm',
    use,
    clients,
    recording,
    ...workerOptions(c),
  });
}

/** Null when the live DLPM and the reference agree at every step (deficits too), else where they first differ. */
function firstDifference(c: DlpmCase): string | null {
  const a = harness(c, false);
  const b = harness(c, true);
  const pa = a.policy as DlpmPolicy;
  const pb = b.policy as DlpmPolicy;
  return lockstepDifference(workload(c), a, b, {
    heads: true,
    client: (j) => `c${j.client}`,
    after: () => (JSON.stringify(pa.describe()) !== JSON.stringify(pb.describe()) ? 'deficits differ' : null),
  });
}

const cases = fc.record({
  ...caseFields(700),
  clients: fc.constantFrom(2, 4, 4, 40),
  quantum: fc.constantFrom(50, 500, 2500),
  perRequest: fc.constantFrom(false, false, false, true),
});

/** Real KV pressure: most steps' scans run with little room left, hundreds waiting per client. */
const pressure = fc.record({
  ...caseFields(350),
  kvTokens: fc.constantFrom(4_000, 6_000),
  maxRunning: fc.constant(64),
  admission: fc.constantFrom('optimistic' as const, 'optimistic' as const, 'sglang' as const),
  fallback: fc.constantFrom(0, 0, 0, 150),
  clients: fc.constantFrom(2, 4, 4, 40),
  quantum: fc.constantFrom(50, 50, 500),
  perRequest: fc.constantFrom(false, false, false, true),
});

/** `endOnFailure`: stop at the first difference, without shrinking it (the broken variants' tests). */
const property = (runs: number, arb: fc.Arbitrary<DlpmCase> = cases, endOnFailure = false) =>
  fc.assert(
    fc.property(arb, (c) => {
      expect(firstDifference(c)).toBeNull();
    }),
    { numRuns: runs, endOnFailure },
  );

afterEach(() => {
  clearFaults(livePrefixFaults);
});

describe('DLPM live order = re-read, sort and scan every step', () => {
  it('agrees step by step on random workloads (queues of hundreds)', () => property(12), 300_000);

  it('agrees on a queue of a few thousand', () => {
    // one small quantum (many CHECKREFILL rounds, clients often without credit); the reference's
    // sort per step makes this run quadratic (~10 s of CPU), so the large quantum is left to the
    // random workloads
    for (const quantum of [200])
      expect(
        firstDifference({
          seed: 91,
          n: 2500,
          block: 4,
          kvTokens: 12_000,
          maxRunning: 16,
          batch: 2048,
          admission: 'sglang',
          fallback: 0,
          collide: true,
          clients: 4,
          quantum,
          perRequest: false,
        }),
      ).toBeNull();
  }, 300_000);

  it('agrees under KV pressure, passing over most requests without a check', () => {
    property(6, pressure);
    // pressured runs, without records (as the command line runs them) and with: the reference checks
    // every request its scan reaches against the room (or tries it), the live scan only those within
    // the bound — the room's (optimistic admission) or the output reservation's (sglang)
    for (const [admission, recording, factor] of [
      ['optimistic', false, 10],
      ['sglang', false, 10],
      // recording: the same passing over (a refused try writes no record and keeps the notes)
      ['sglang', true, 10],
    ] as const) {
      const c: DlpmCase = {
        seed: 5,
        n: 400,
        block: 4,
        kvTokens: 6_000,
        maxRunning: 64,
        batch: 2048,
        admission,
        fallback: 0,
        collide: false,
        clients: 4,
        quantum: 50,
        perRequest: false,
      };
      const a = harness(c, false, recording);
      const b = harness(c, true, recording);
      const pa = a.policy as DlpmPolicy;
      const pb = b.policy as DlpmPolicy;
      expect(
        lockstepDifference(workload(c), a, b, {
          client: (j) => `c${j.client}`,
          after: () =>
            JSON.stringify(pa.describe()) !== JSON.stringify(pb.describe()) ? 'deficits differ' : null,
        }),
      ).toBeNull();
      expect(pb.roomChecks, admission).toBeGreaterThan(5_000);
      expect(pa.roomChecks * factor, admission).toBeLessThan(pb.roomChecks);
    }
  }, 300_000);

  for (const fault of ['ignoreEvict', 'ignoreInsert', 'ignoreSplit', 'noDefer', 'dlpmNoCreditStop'] as const)
    it(`fails for the broken variant ${fault}`, () => {
      livePrefixFaults[fault] = true;
      expect(() => property(40, cases, true)).toThrow();
    }, 300_000);

  for (const fault of ['dlpmSkipAtRoom', 'dlpmStaleBound', 'dlpmNoSweep', 'dlpmTryClearsNotes'] as const)
    it(`fails under KV pressure for the broken variant ${fault}`, () => {
      livePrefixFaults[fault] = true;
      expect(() => property(20, pressure, true)).toThrow();
    }, 300_000);
});
