/**
 * The ordered set with subtree minima (src/core/algorithms/shared/min-treap.ts) against a sorted
 * array: after random inserts and removals, `firstAtMost` (the first item after a given one whose
 * value is within a bound), `after`, `rank`, `first` and `size` must agree with a linear scan.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MinTreap } from '../../../src/core/algorithms/shared/min-treap';

interface Item {
  key: number;
  value: number;
}

const byKey = { before: (a: Item, b: Item) => a.key < b.key };

describe('MinTreap', () => {
  it('answers as a scan of the sorted items does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 50 }), fc.boolean()), {
          minLength: 1,
          maxLength: 300,
        }),
        fc.array(fc.tuple(fc.integer({ min: -1, max: 300 }), fc.integer({ min: -1, max: 51 })), {
          minLength: 1,
          maxLength: 30,
        }),
        (ops, queries) => {
          const set = new MinTreap<Item>(byKey);
          const model = new Map<number, Item>();
          for (const [key, value, drop] of ops) {
            const old = model.get(key);
            if (old !== undefined) {
              set.remove(old);
              model.delete(key);
            }
            if (drop) continue;
            const item = { key, value };
            set.insert(item, value);
            model.set(key, item);
          }
          const sorted = [...model.values()].sort((a, b) => a.key - b.key);
          expect(set.size).toBe(sorted.length);
          expect(set.first(7)).toEqual(sorted.slice(0, 7));
          for (const [from, bound] of queries) {
            const at = from < 0 ? null : { key: from + 0.5, value: 0 };
            const after = sorted.filter((x) => at === null || x.key > at.key);
            expect(set.after(at)).toBe(after[0] ?? null);
            expect(set.firstAtMost(at, bound)).toBe(after.find((x) => x.value <= bound) ?? null);
            if (at !== null) expect(set.rank(at)).toBe(sorted.length - after.length);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
