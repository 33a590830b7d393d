/**
 * LPM's live order (src/core/algorithms/shared/live-prefix-order.ts, #15.3) against the reference
 * that re-reads and sorts the whole queue every step (`createLpmReference`): the same arrivals on two
 * identical workers, stepped in lockstep; after every step the admissions so far, every decision
 * record (reason and detail) and the whole waiting order must be equal. Workloads: families of
 * shared system prompts, multi-turn follow-ups that extend an earlier prompt, user parts from a small
 * vocabulary (so edges split at many depths), a small KV pool (evictions, preemptions), block sizes
 * 1/4/16, sglang admission (in-batch deferral on, retracted requests at the back) and optimistic
 * admission (deferral off, preempted requests first), the FCFS fallback threshold, and forced head-
 * hash collisions (the deferral's re-check path). Each deliberately broken variant fails the test.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createLpmReference, LpmPolicy } from '../../../src/core/algorithms/lpm/policy';
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

function harness(c: Case, reference: boolean): Harness {
  return new Harness({
    policy: 'lpm',
    use: reference ? createLpmReference(c.fallback) : new LpmPolicy(c.fallback),
    ...workerOptions(c),
  });
}

/** Null when the live order and the reference agree at every step, else where they first differ. */
function firstDifference(c: Case): string | null {
  return lockstepDifference(workload(c), harness(c, false), harness(c, true), { heads: true });
}

const cases = fc.record({
  ...caseFields(900),
});

/** `endOnFailure`: stop at the first difference, without shrinking it (the broken variants' tests). */
const property = (runs: number, endOnFailure = false) =>
  fc.assert(
    fc.property(cases, (c) => {
      expect(firstDifference(c)).toBeNull();
    }),
    { numRuns: runs, endOnFailure },
  );

afterEach(() => {
  clearFaults(livePrefixFaults);
});

describe('LPM live order = re-read and sort every step', () => {
  it('agrees step by step on random workloads (queues of hundreds)', () => property(14), 240_000);

  it('agrees on a queue of two thousand', () => {
    for (const admission of ['sglang', 'optimistic'] as const)
      expect(
        firstDifference({
          seed: 77,
          n: 2000,
          block: 4,
          kvTokens: 12_000,
          maxRunning: 16,
          batch: 2048,
          admission,
          fallback: 0,
          collide: true,
        }),
      ).toBeNull();
  }, 240_000);

  for (const fault of [
    'ignoreEvict',
    'ignoreInsert',
    'ignoreSplit',
    'ignoreNextKey',
    'noDefer',
    'trustHeadHash',
    'preemptedLast',
    'lpmTiesByPosition',
    'lpmTiesInverted',
  ] as const)
    it(`fails for the broken variant ${fault}`, () => {
      livePrefixFaults[fault] = true;
      expect(() => property(40, true)).toThrow();
    }, 240_000);
});
