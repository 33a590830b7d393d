/**
 * Preble's fcfs-mpq at O(log n) per step (src/core/algorithms/fcfs-mpq/live-policy.ts, #15) against
 * the reference FcfsMpqPolicy (groups as sorted arrays, every request of the served group tried in
 * turn): the same arrivals on two identical workers in lockstep; after every step the admissions,
 * every decision record (group, group sizes, rank, admitted before, passed over, hit ratio, cached)
 * and the whole waiting order must be equal, and so must the groups' sizes and the round robin's
 * cursor. Workloads as for LPM (./live-workload.ts: shared system prompts, follow-ups that extend an
 * earlier prompt, a small KV pool so that most of a group does not fit, preemptions), sglang and
 * optimistic admission, the prefix cache on and off, k = 1, 3 and 10. Each deliberately broken
 * variant fails the test.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveFcfsMpqPolicy, mpqFaults } from '../../../src/core/algorithms/fcfs-mpq/live-policy';
import { FcfsMpqPolicy } from '../../../src/core/algorithms/fcfs-mpq/policy';
import { livePrefixFaults } from '../../../src/core/algorithms/shared/live-prefix-order';
import { Harness } from './harness';
import {
  caseFields,
  clearFaults,
  type Case,
  lockstepDifference,
  workerOptions,
  workload,
} from './live-workload';

interface MpqCase extends Case {
  k: number;
  prefixCaching: boolean;
  /** Preble's prefill cap (null: its default, far above these prompts). */
  maxPrefill?: number | null;
}

function harness(c: MpqCase, reference: boolean): Harness {
  return new Harness({
    policy: 'fcfs-mpq',
    use: reference
      ? new FcfsMpqPolicy(0, c.k, c.maxPrefill ?? null)
      : new LiveFcfsMpqPolicy(0, c.k, c.maxPrefill ?? null),
    prefixCaching: c.prefixCaching,
    ...workerOptions(c),
  });
}

/** Null when the live fcfs-mpq and the reference agree at every step, else where they first differ. */
function firstDifference(c: MpqCase): string | null {
  const a = harness(c, false);
  const b = harness(c, true);
  const pa = a.policy as FcfsMpqPolicy;
  const pb = b.policy as FcfsMpqPolicy;
  return lockstepDifference(workload(c), a, b, {
    after: () => (JSON.stringify(pa.describe()) !== JSON.stringify(pb.describe()) ? 'groups differ' : null),
  });
}

/** LPM's case fields with a smaller KV pool and more running slots: most of a group does not fit. */
const fields = {
  ...caseFields(400),
  kvTokens: fc.constantFrom(2_000, 4_000, 12_000),
  maxRunning: fc.constantFrom(16, 64),
  k: fc.constantFrom(1, 3, 10),
  prefixCaching: fc.constantFrom(true, true, true, false),
  // small caps make the scan pass over long prompts (and jump over them by their uncached length)
  maxPrefill: fc.constantFrom(null, 150, 400, 1_000),
};
const cases = fc.record(fields);

/** `runs` random cases; a broken variant ends at its first failure (no shrinking). */
const property = (runs: number) =>
  fc.assert(
    fc.property(cases, (c) => {
      expect(firstDifference(c)).toBeNull();
    }),
    { numRuns: runs, endOnFailure: true },
  );

afterEach(() => {
  clearFaults(livePrefixFaults);
  clearFaults(mpqFaults);
});

describe('fcfs-mpq live groups = scan every request of the group', () => {
  it('agrees step by step on random workloads (queues of hundreds)', () => property(5), 120_000);

  // about 1,000 waiting at the peak; the reference tries ~250,000 requests that do not fit, the
  // live groups about ten
  it('agrees on a queue of a thousand under KV pressure', () => {
    expect(
      firstDifference({
        seed: 4242,
        n: 1200,
        block: 16,
        kvTokens: 2_000,
        maxRunning: 64,
        batch: 2048,
        admission: 'sglang',
        fallback: 0,
        collide: false,
        k: 10,
        prefixCaching: true,
      }),
    ).toBeNull();
  }, 120_000);

  for (const fault of ['ignoreMatch', 'staleKeys', 'ignoreCap'] as const)
    it(`fails for the broken variant ${fault}`, () => {
      mpqFaults[fault] = true;
      expect(() => property(30)).toThrow();
    }, 120_000);

  it('agrees under optimistic admission, where refused requests with a cached prefix are jumped over too', () => {
    const optimistic = fc.record({
      ...fields,
      prefixCaching: fc.constant(true),
      admission: fc.constant('optimistic' as const),
    });
    fc.assert(
      fc.property(optimistic, (c) => {
        expect(firstDifference(c)).toBeNull();
      }),
      { numRuns: 5 },
    );
  }, 120_000);

  it('fails under optimistic admission when the key is one block too eager (skips requests that fit)', () => {
    const optimistic = fc.record({
      ...fields,
      prefixCaching: fc.constant(true),
      admission: fc.constant('optimistic' as const),
    });
    expect(() =>
      fc.assert(
        fc.property(optimistic, (c) => {
          const a = harness(c, false);
          const w = a.w;
          w.refusalKey = (r, match) => w.kv.blocksFor(r.promptLen - match) + 1;
          expect(lockstepDifference(workload(c), a, harness(c, true))).toBeNull();
        }),
        { numRuns: 30, endOnFailure: true },
      ),
    ).toThrow();
  }, 120_000);

  it('fails when the live order ignores new leaves (keys too high after a match grew)', () => {
    livePrefixFaults.ignoreInsert = true;
    expect(() => property(30)).toThrow();
  }, 120_000);
});
