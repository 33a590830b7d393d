/**
 * The kinetic tournament tree gives its memory back when a large queue drains (#15 leftover): its
 * slots (about 90 bytes each) halve once a quarter of them hold items, so the capacity follows the
 * size down (at most four times the size, above the 16-slot floor) while every answer stays the O(n)
 * scan's. Before, the arrays stayed at the peak: 131,072 slots for a queue of one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../fast-check-seed';
import {
  type KineticOrder,
  KineticTournament,
  ROUNDOFF,
} from '../../../src/core/algorithms/shared/kinetic-tournament';

interface Item {
  id: number;
  a: number;
  b: number;
}

/** Priority a − b·t, lower first, then smaller id. */
class Linear implements KineticOrder<Item> {
  compare(x: Item, y: Item, now: number): number {
    return x.a - x.b * now - (y.a - y.b * now) || x.id - y.id;
  }
  line(x: Item, out: Float64Array): void {
    out[0] = x.a;
    out[1] = x.b;
    out[2] = 4 * ROUNDOFF * Math.abs(x.a);
    out[3] = 8 * ROUNDOFF * Math.abs(x.b);
  }
  sameMotion(x: Item, y: Item): boolean {
    return x.a === y.a && x.b === y.b;
  }
}

function first(live: Item[], now: number, order: Linear): Item | undefined {
  let best: Item | undefined;
  for (const x of live) if (best === undefined || order.compare(x, best, now) < 0) best = x;
  return best;
}

const bounded = (tree: KineticTournament<Item>) =>
  tree.capacity >= tree.size && tree.capacity <= Math.max(16, 4 * tree.size);

describe('kinetic tournament: the capacity follows the size down', () => {
  it('a queue of 100,000 drained to nothing ends with the 16-slot floor, bounded all the way', () => {
    const order = new Linear();
    const tree = new KineticTournament<Item>(order);
    const n = 100_000;
    for (let i = 0; i < n; i++) tree.insert({ id: i, a: (i * 7919) % 10_007, b: (i * 31) % 17 }, i / 1024);
    expect(tree.capacity).toBe(131_072);
    let t = n / 1024;
    let outOfBound = 0;
    while (tree.size > 0) {
      t += 1 / 1024;
      expect(tree.peek(t)).toBeDefined();
      tree.popFirst();
      if (!bounded(tree)) outOfBound++;
    }
    expect(outOfBound).toBe(0);
    expect(tree.capacity).toBe(16);
    // and it grows again as before
    for (let i = 0; i < 100; i++) tree.insert({ id: n + i, a: i, b: 1 }, t);
    expect(tree.capacity).toBe(128);
  });

  it('random inserts, pops and removals at increasing times: the same answers as a scan, capacity bounded', () => {
    const op = fc.oneof(
      {
        weight: 5,
        arbitrary: fc.record({ k: fc.constant('insert' as const), n: fc.integer({ min: 1, max: 200 }) }),
      },
      {
        weight: 5,
        arbitrary: fc.record({ k: fc.constant('pop' as const), n: fc.integer({ min: 1, max: 300 }) }),
      },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('remove' as const), n: fc.nat(1000) }) },
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), fc.nat(1000), (ops, salt) => {
        const order = new Linear();
        const tree = new KineticTournament<Item>(order);
        const live: Item[] = [];
        let id = 0;
        let t = 0;
        for (const o of ops) {
          for (let j = 0; j < (o.k === 'remove' ? 1 : o.n); j++) {
            t += ((id + salt) % 5) / 256; // times only move forward, often several ops at one time
            if (o.k === 'insert') {
              const x = { id, a: ((id + salt) * 7919) % 1009, b: ((id * 13 + salt) % 9) - 2 };
              id++;
              tree.insert(x, t);
              live.push(x);
            } else if (o.k === 'pop') {
              const want = first(live, t, order);
              expect(tree.peek(t)).toBe(want);
              if (want === undefined) break;
              expect(tree.popFirst()).toBe(want);
              live.splice(live.indexOf(want), 1);
            } else if (live.length > 0) {
              const x = live[o.n % live.length];
              tree.remove(x);
              live.splice(live.indexOf(x), 1);
            }
            expect(tree.size).toBe(live.length);
            expect(bounded(tree)).toBe(true);
          }
        }
        // insertion order survives the moves between slots
        expect(tree.inserted()).toEqual([...live].sort((x, y) => x.id - y.id));
        expect(tree.ordered(t, 5)).toEqual([...live].sort((x, y) => order.compare(x, y, t)).slice(0, 5));
      }),
      { numRuns: 60 },
    );
  });
});
