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

  it('lists the first k items, skipping some, exactly as the full sort does', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ tier: fc.integer({ min: 0, max: 2 }), score: fc.integer({ min: -4, max: 4 }) }),
          {
            maxLength: 200,
          },
        ),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 60 }),
        (keys, limit, every, pops) => {
          const heap = new ClassHeap<OrderKey>();
          const items = keys.map((k, i) => ({ strictPriority: k.tier, score: k.score / 2, seq: i }));
          for (const it of items) heap.push(it);
          for (let i = 0; i < pops; i++) heap.pop();
          // a view skips some (the swept ones): here every `every`-th by enqueue order
          const skip = (e: OrderKey) => e.seq % every === 0 && every > 1;
          const full = heap.ordered().filter((e) => !skip(e));
          expect(heap.ordered(limit, skip)).toEqual(full.slice(0, limit));
          expect(heap.ordered(limit)).toEqual(heap.ordered().slice(0, limit));
        },
      ),
      { numRuns: 300 },
    );
  });
});
