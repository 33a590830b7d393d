/**
 * DFS-weight's live order (src/core/algorithms/dfs-weight/live-policy.ts, #15.3) against the
 * reference that re-reads every match and walks the radix tree every step (`createDfsWeightReference`):
 * the same arrivals on two identical workers, stepped in lockstep; after every step the admissions so
 * far, every decision record (reason and detail) and the whole waiting order must be equal. The
 * workloads (./live-workload.ts) share system prompts in families, extend earlier prompts (multi-turn)
 * and draw user parts from a small vocabulary, so edges split at many depths and many branches tie in
 * weight; a small KV pool evicts and preempts; block sizes 1/4/16; preempted requests first
 * (optimistic admission) or at the back (sglang). Each deliberately broken variant fails the test.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { liveDfsFaults, LiveDfsWeightPolicy } from '../../../src/core/algorithms/dfs-weight/live-policy';
import { createDfsWeightReference } from '../../../src/core/algorithms/dfs-weight/policy';
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
    policy: 'dfs-weight',
    use: reference ? createDfsWeightReference() : new LiveDfsWeightPolicy(),
    ...workerOptions(c),
  });
}

/** Null when the live order and the reference agree at every step, else where they first differ. */
function firstDifference(c: Case): string | null {
  return lockstepDifference(workload(c), harness(c, false), harness(c, true));
}

const cases = fc.record({
  ...caseFields(500),
  fallback: fc.constant(0),
  collide: fc.constant(false),
});

const property = (runs: number) =>
  fc.assert(
    fc.property(cases, (c) => {
      expect(firstDifference(c)).toBeNull();
    }),
    { numRuns: runs },
  );

afterEach(() => {
  clearFaults(livePrefixFaults);
  clearFaults(liveDfsFaults);
});

describe('DFS-weight live order = re-read and walk every step', () => {
  it('agrees step by step on random workloads (queues of hundreds)', () => property(8), 240_000);

  for (const fault of ['ignoreEvict', 'ignoreInsert', 'ignoreSplit'] as const)
    it(`fails for the broken variant ${fault}`, () => {
      livePrefixFaults[fault] = true;
      expect(() => property(30)).toThrow();
    }, 240_000);
  /** Found by fast-check: a split's new upper node gains requests of its own beside a sibling. */
  const splitCase: Case = {
    seed: 38058773,
    n: 100,
    block: 1,
    kvTokens: 6000,
    maxRunning: 4,
    batch: 512,
    admission: 'optimistic',
    fallback: 0,
    collide: false,
  };
  it('agrees on a queue of a couple of thousand, and on a pinned split case', () => {
    expect(firstDifference(splitCase)).toBeNull();
    expect(
      firstDifference({
        ...splitCase,
        seed: 77,
        n: 2000,
        block: 4,
        kvTokens: 12_000,
        maxRunning: 16,
        batch: 2048,
      }),
    ).toBeNull();
  }, 240_000);
  it('fails for the broken variant ignoreSplitNode', () => {
    liveDfsFaults.ignoreSplitNode = true;
    expect(firstDifference(splitCase)).not.toBeNull();
  });

  for (const fault of ['tieByWeightOnly', 'ownByPosition'] as const)
    it(`fails for the broken variant ${fault}`, () => {
      liveDfsFaults[fault] = true;
      expect(() => property(30)).toThrow();
    }, 240_000);
});
