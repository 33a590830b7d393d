/**
 * The pop on plain numbers and the exact BigInt pop are one algorithm: on random rings, blocked
 * sets, pins and V1/V2, forcing every pop onto BigInt gives the same requests, deficits, cursor and
 * carry. Costs reach 1e12 with quanta down to 1, so bulk rounds are large and the number path hands
 * over to the exact one part-way through some runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PolicyQueue } from '../../../src/core/drr';
import { explicitPolicy } from './helpers';

describe('exact (BigInt) and number pops agree', () => {
  it('same decisions and state on random rings', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 2 ** 40 })), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.array(
          fc.record({
            cls: fc.nat(5),
            cost: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 1e12 })),
            worker: fc.option(fc.nat(1), { nil: null }),
          }),
          { maxLength: 30 },
        ),
        fc.array(fc.tuple(fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), fc.nat(2)), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.constantFrom<'v1' | 'v2'>('v1', 'v2'),
        (quanta, requests, pops, variant) => {
          const ids = quanta.map((_, i) => `c${i}`);
          const policy = explicitPolicy(ids.map((n, i) => [n, quanta[i]]));
          const make = (exact: boolean) => {
            const q = new PolicyQueue<null>(policy, { variant, exact });
            requests.forEach((r, k) => {
              q.enqueue({
                id: `r${k}`,
                requestedClass: ids[r.cls % ids.length],
                rawIsl: r.cost,
                cachedTokens: 0,
                worker: r.worker,
                payload: null,
              });
            });
            return q;
          };
          const fast = make(false);
          const exact = make(true);
          for (const [blocked, busyWorker] of pops) {
            const test = (h: { worker: number }, cls: { index: number }) =>
              !blocked[cls.index] && h.worker !== busyWorker;
            const a = fast.pop(test, { record: false }).request;
            const b = exact.pop(test, { record: false }).request;
            expect(a?.id ?? null).toBe(b?.id ?? null);
            const sa = fast.snapshot(0);
            const sb = exact.snapshot(0);
            expect(sa).toEqual(sb);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
