/**
 * DFS-weight's live order (src/core/algorithms/dfs-weight/live-policy.ts, #15.3) against the
 * reference that re-reads every match and walks the radix tree every step, keeping each step's
 * output as the list the next one starts from, as SGLang does (`createDfsWeightReference`): the same
 * arrivals on two identical workers, stepped in lockstep; after every step the admissions so far,
 * every decision record (reason and detail) and the whole waiting order must be equal. The
 * workloads (./live-workload.ts) share system prompts in families, extend earlier prompts
 * (multi-turn) and draw user parts from a small vocabulary, so edges split at many depths and many
 * branches and requests tie; a small KV pool evicts (matches shrink, nodes come back in new dict
 * slots) and preempts; block sizes 1/4/16; preempted requests first (optimistic admission) or at
 * the back (sglang). Each deliberately broken variant fails the test, among them ties at a node by
 * arrival (the order before SGLang's kept list was modelled) and children ties by node id.
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
  clearFaults(liveDfsFaults);
});

describe('DFS-weight live order = re-read and walk every step', () => {
  it('agrees step by step on random workloads (queues of hundreds)', () => property(16), 240_000);

  for (const fault of ['ignoreEvict', 'ignoreInsert', 'ignoreSplit'] as const)
    it(`fails for the broken variant ${fault}`, () => {
      livePrefixFaults[fault] = true;
      expect(() => property(30, true)).toThrow();
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

  /**
   * Found by fast-check with the shrunkBySlot variant (1 case in 80): matches shrink from two
   * branches of unequal weight at the last sort, to one node, in one step. Requests whose match
   * shrank tie rarely enough (a few cases in 30) that their variants are checked here, not by the
   * property, which other FC_SEEDs could let pass.
   */
  const twoBranchCase: Case = {
    seed: 8,
    n: 399,
    block: 1,
    kvTokens: 6000,
    maxRunning: 4,
    batch: 512,
    admission: 'sglang',
    fallback: 0,
    collide: false,
  };
  it('agrees on a pinned case where matches shrink from two branches', () => {
    expect(firstDifference(twoBranchCase)).toBeNull();
  }, 120_000);
  for (const fault of ['shrunkBySlot', 'shrunkByArrival'] as const)
    it(`fails for the broken variant ${fault} on that case`, () => {
      liveDfsFaults[fault] = true;
      expect(firstDifference(twoBranchCase)).not.toBeNull();
    }, 120_000);

  for (const fault of ['tieByWeightOnly', 'ownByPosition', 'tiesByArrival', 'kidsById'] as const)
    it(`fails for the broken variant ${fault}`, () => {
      liveDfsFaults[fault] = true;
      expect(() => property(30, true)).toThrow();
    }, 240_000);
});
