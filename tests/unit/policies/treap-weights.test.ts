/**
 * The treap's optional weights (src/core/algorithms/shared/treap.ts): after random inserts and
 * removes, `firstAtMost(item, limit, second)` is the first item after `item` in order whose first
 * (or second) weight is at most `limit`, as a scan of the sorted items finds it; the order queries
 * are unchanged by the weights.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Treap } from '../../../src/core/algorithms/shared/treap';

interface Item {
  key: number;
  w: number;
  w2: number;
}

const byKey = { before: (a: Item, b: Item) => a.key < b.key };

describe('treap with subtree-minimum weights', () => {
  it('finds the first item after a given one within a weight limit', () =>
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 50 }), fc.boolean()), {
          maxLength: 200,
        }),
        fc.array(
          fc.tuple(fc.integer({ min: -1, max: 300 }), fc.integer({ min: -1, max: 55 }), fc.boolean()),
          {
            minLength: 1,
            maxLength: 40,
          },
        ),
        (ops, queries) => {
          const t = new Treap<Item>(byKey, { weight: (x) => x.w, weight2: (x) => x.w2 });
          const live = new Map<number, Item>();
          for (const [key, w, remove] of ops) {
            const had = live.get(key);
            if (had !== undefined) {
              t.remove(had);
              live.delete(key);
            }
            if (!remove) {
              const it = { key, w, w2: (w * 7) % 31 };
              t.insert(it);
              live.set(key, it);
            }
          }
          const sorted = [...live.values()].sort((a, b) => a.key - b.key);
          expect(t.size).toBe(sorted.length);
          expect(t.first(sorted.length)).toEqual(sorted);
          for (const [from, limit, second] of queries) {
            const at = from < 0 ? null : { key: from, w: 0, w2: 0 };
            const want =
              sorted.find((x) => (at === null || x.key > at.key) && (second ? x.w2 : x.w) <= limit) ?? null;
            expect(t.firstAtMost(at, limit, second)).toBe(want);
          }
        },
      ),
      { numRuns: 150 },
    ));
});
