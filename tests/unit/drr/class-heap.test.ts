/** The class heap pops in exactly the order of a full sort by (tier desc, score desc, seq asc). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClassHeap, goesFirst, type OrderKey } from '../../../src/core/drr';

describe('ClassHeap', () => {
  it('matches a sort under interleaved pushes and pops', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ tier: fc.integer({ min: 0, max: 3 }), score: fc.integer({ min: -5, max: 5 }) }),
            fc.constant(null),
          ),
          { maxLength: 300 },
        ),
        (ops) => {
          const heap = new ClassHeap<OrderKey>();
          const model: OrderKey[] = [];
          let seq = 0;
          for (const op of ops) {
            if (op) {
              const item = { strictPriority: op.tier, score: op.score / 2, seq: seq++ };
              heap.push(item);
              model.push(item);
            } else {
              model.sort((a, b) => (goesFirst(a, b) ? -1 : 1));
              expect(heap.pop()).toBe(model.shift());
            }
            expect(heap.size).toBe(model.length);
          }
          model.sort((a, b) => (goesFirst(a, b) ? -1 : 1));
          expect(heap.ordered()).toEqual(model);
          for (const m of model) expect(heap.pop()).toBe(m);
          expect(heap.pop()).toBeUndefined();
          expect(heap.peek()).toBeUndefined();
        },
      ),
      { numRuns: 200 },
    );
  });
});
