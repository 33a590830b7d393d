/**
 * DFS-weight's ties fall as SGLang's do. Its scheduler rebuilds one waiting list from the walk at
 * every step (`_sort_by_dfs_weight` in schedule_policy.py) and the next step starts from that list:
 *   - requests that hang at one node come in the list's order, not in arrival order: a request
 *     whose match shrinks to a node where earlier arrivals wait stays ahead of them (the last walk
 *     emitted its branch first);
 *   - requests whose match shrank from two branches keep the order the last walk gave the
 *     branches (the heavier one then first), whatever their slots or arrival;
 *   - children of equal weight come in the order they entered their parent's children dict: a
 *     split's upper node keeps the place of the node it cut (so a younger node can come first), an
 *     evicted child that comes back goes last.
 * Hand-made cases on a real radix cache, for the live order and for the reference that keeps the
 * list literally; every admission is refused, so the list is rebuilt and stays whole.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { liveDfsFaults, LiveDfsWeightPolicy } from '../../../src/core/algorithms/dfs-weight/live-policy';
import {
  createDfsWeightReference,
  dfsWeightImplementation,
} from '../../../src/core/algorithms/dfs-weight/policy';
import type { LocalPolicy } from '../../../src/core/replica/local-policy';
import { concat, range } from './harness';
import { refusingRig } from './refusing-rig';
import { clearFaults } from './live-workload';

const P = range(0, 32);
const A = range(100, 16);
const B = range(200, 16);
const tail = (k: number) => range(10_000 + 100 * k, 8);

/** Case 1: b's match shrinks to P, where a (an earlier arrival) waits; the list has b first. */
function shrinkToTie(make: () => LocalPolicy) {
  const r = refusingRig(make());
  r.cache(P);
  r.cache(concat(P, A));
  r.add('a', concat(P, tail(1))); // hangs at P
  r.add('b', concat(P, A, tail(2))); // hangs at A, under P
  r.step();
  expect(r.tried).toEqual(['b']);
  expect(r.order()).toEqual(['b', 'a']);
  r.evict(A.length); // A leaves the cache: b hangs at P, as a does
  return r;
}

/** Case 2: the upper node of a split keeps its place before an older sibling of equal weight. */
function splitKeepsPlace(make: () => LocalPolicy) {
  const r = refusingRig(make());
  const C = range(300, 16);
  const first = r.cache(concat(C, A)); // root: [C A]
  const second = r.cache(B); // root: [C A], [B]
  const upper = r.cache(concat(C, tail(3))); // [C A] is cut: root: [C] → {A, tail}, [B]
  expect(upper.parent?.id).toBeGreaterThan(second.id); // the upper node is younger than [B] …
  expect(upper.parent?.slot).toBeLessThan(second.slot); // … but holds [C A]'s place in the dict
  expect(first.parent).toBe(upper.parent);
  r.add('y', concat(B, tail(4))); // hangs at [B]
  r.add('x', concat(C, A, tail(5))); // hangs at A, under [C]
  return r;
}

/** Case 3: an evicted child that comes back goes after its siblings (SGLang pops and re-adds it). */
function reinsertedGoesLast(make: () => LocalPolicy) {
  const r = refusingRig(make());
  r.cache(A);
  r.cache(B);
  r.evict(A.length); // the older leaf, [A]
  r.cache(A); // back, with the same first page: our map reuses the old entry, SGLang's dict does not
  r.add('x', concat(A, tail(6)));
  r.add('y', concat(B, tail(7)));
  return r;
}

/** Case 4: matches shrink from two branches of P: the branch the last walk took first goes first. */
function shrinkFromTwoBranches(make: () => LocalPolicy) {
  const r = refusingRig(make());
  r.cache(concat(P, B)); // one leaf [P B]
  r.cache(concat(P, A)); // cut at P: P → {B (earlier slot), A}
  r.add('b1', concat(P, B, tail(1)));
  r.add('p1', concat(P, tail(2)));
  r.add('a1', concat(P, A, tail(3)));
  r.add('a2', concat(P, A, tail(4)));
  r.step();
  // A weighs 2, B 1: A's branch, then B's, then P's own
  expect(r.order()).toEqual(['a1', 'a2', 'b1', 'p1']);
  r.evict(A.length + B.length); // both leaves: all four hang at P now
  return r;
}

const implementations = [
  ['live', () => new LiveDfsWeightPolicy()],
  ['reference', () => createDfsWeightReference()],
] as const;

afterEach(() => {
  clearFaults(liveDfsFaults);
  dfsWeightImplementation.rebuildFromArrival = false;
});

for (const [name, make] of implementations)
  describe(`DFS-weight ties follow SGLang's list and dict (${name})`, () => {
    it('a request whose match shrinks to a tie stays ahead of earlier arrivals', () => {
      const r = shrinkToTie(make);
      expect(r.order()).toEqual(['b', 'a']); // by arrival it would be a, b
      r.step();
      expect(r.tried).toEqual(['b', 'b']);
      r.add('c', concat(P, tail(8)));
      expect(r.order()).toEqual(['b', 'a', 'c']); // a new arrival at the end of the list
      r.step();
      expect(r.order()).toEqual(['b', 'a', 'c']);
    });

    it('equal-weight children: a split keeps the cut node’s place (not the older node first)', () => {
      const r = splitKeepsPlace(make);
      expect(r.order()).toEqual(['x', 'y']); // by node id (age) it would be y, x
      r.step();
      expect(r.tried).toEqual(['x']);
    });

    it('equal-weight children: an evicted child that comes back goes last', () => {
      const r = reinsertedGoesLast(make);
      expect(r.order()).toEqual(['y', 'x']); // the map's entry order (and arrival) would say x, y
    });

    it('matches that shrink from two branches keep the last walk’s branch order', () => {
      const r = shrinkFromTwoBranches(make);
      // by arrival: b1 p1 a1 a2; by slot alone: b1 a1 a2 p1
      expect(r.order()).toEqual(['a1', 'a2', 'b1', 'p1']);
      r.step();
      expect(r.order()).toEqual(['a1', 'a2', 'b1', 'p1']);
    });
  });

describe('the broken variants fail these cases', () => {
  it('live, ties by arrival', () => {
    liveDfsFaults.tiesByArrival = true;
    expect(shrinkToTie(() => new LiveDfsWeightPolicy()).order()).toEqual(['a', 'b']);
  });

  it('reference, the list rebuilt from arrival order every step', () => {
    dfsWeightImplementation.rebuildFromArrival = true;
    expect(shrinkToTie(() => createDfsWeightReference()).order()).toEqual(['a', 'b']);
  });

  it('live, equal-weight children by node id', () => {
    liveDfsFaults.kidsById = true;
    expect(splitKeepsPlace(() => new LiveDfsWeightPolicy()).order()).toEqual(['y', 'x']);
  });

  it('live, equal-weight children in the order their Hangs were made (not the dict’s)', () => {
    liveDfsFaults.tieByWeightOnly = true;
    expect(reinsertedGoesLast(() => new LiveDfsWeightPolicy()).order()).toEqual(['x', 'y']);
  });

  it('live, shrunk matches by branch slot alone, or by arrival', () => {
    liveDfsFaults.shrunkBySlot = true;
    expect(shrinkFromTwoBranches(() => new LiveDfsWeightPolicy()).order()).toEqual(['b1', 'a1', 'a2', 'p1']);
    liveDfsFaults.shrunkBySlot = false;
    liveDfsFaults.shrunkByArrival = true;
    expect(shrinkFromTwoBranches(() => new LiveDfsWeightPolicy()).order()).toEqual(['b1', 'a1', 'a2', 'p1']);
  });
});
