/** Invariants of the DRR arbitration, checked on random rings with fast-check. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ClassState, PolicyQueue, type QueuedRequest } from '../../../src/core/drr';
import { explicitPolicy } from './helpers';

function fill(q: PolicyQueue<null>, ids: string[], requests: { cls: number; cost: number }[]): void {
  requests.forEach((r, k) => {
    q.enqueue({
      id: `r${k}`,
      requestedClass: ids[r.cls % ids.length],
      rawIsl: r.cost,
      cachedTokens: 0,
      payload: null,
    });
  });
}

const names = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);

describe('DRR properties', () => {
  it('(a) long unit-cost backlogs: every prefix gives each class its quantum share within one quantum', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 2, maxLength: 6 }),
        fc.constantFrom<'v1' | 'v2'>('v1', 'v2'),
        (quanta, variant) => {
          const ids = names(quanta.length);
          const total = quanta.reduce((a, b) => a + b, 0);
          const rounds = 6;
          const q = new PolicyQueue<null>(explicitPolicy(ids.map((n, i) => [n, quanta[i]])), { variant });
          ids.forEach((n, i) => {
            for (let k = 0; k < quanta[i] * (rounds + 1); k++)
              q.enqueue({ id: `${n}-${k}`, requestedClass: n, rawIsl: 1, cachedTokens: 0, payload: null });
          });
          const served = new Array(quanta.length).fill(0);
          for (let pops = 1; pops <= total * rounds; pops++) {
            const r = q.pop(() => true, { record: false });
            expect(r.request).not.toBeNull();
            served[r.request!.ref.classIndex]++;
            quanta.forEach((qi, i) => {
              expect(Math.abs(served[i] - (pops * qi) / total)).toBeLessThanOrEqual(qi);
            });
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  const ringArb = fc.record({
    quanta: fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 8 }),
    requests: fc.array(
      fc.record({
        cls: fc.nat(7),
        cost: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 1e12 })),
      }),
      { maxLength: 40 },
    ),
    pops: fc.array(fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), { minLength: 1, maxLength: 60 }),
    variant: fc.constantFrom<'v1' | 'v2'>('v1', 'v2'),
  });

  it('(b) blocked classes never gain credit; a fully blocked ring dispatches nothing and changes no deficit', () => {
    fc.assert(
      fc.property(ringArb, ({ quanta, requests, pops, variant }) => {
        const ids = names(quanta.length);
        const q = new PolicyQueue<null>(explicitPolicy(ids.map((n, i) => [n, quanta[i]])), { variant });
        fill(q, ids, requests);
        for (const blockedMask of pops) {
          const blocked = (_h: QueuedRequest<null>, c: ClassState) => blockedMask[c.index];
          const before = q.snapshot(0);
          const res = q.pop((h, c) => !blocked(h, c));
          const after = q.snapshot(0);
          const withWork = before.classes.filter((c) => c.queued > 0);
          const allBlocked = withWork.every((c) => blockedMask[ids.indexOf(c.name)]);
          before.classes.forEach((c, i) => {
            if (blockedMask[i] && c.queued > 0)
              expect(after.classes[i].deficit).toBeLessThanOrEqual(c.deficit);
            expect(Number.isInteger(after.classes[i].deficit) && after.classes[i].deficit >= 0).toBe(true);
          });
          if (allBlocked) {
            expect(res.request).toBeNull();
            before.classes.forEach((c, i) => {
              if (c.queued > 0) expect(after.classes[i].deficit).toBe(c.deficit);
            });
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('(c) one pop touches at most 2·C class heads, whatever the costs and quanta', () => {
    fc.assert(
      fc.property(ringArb, ({ quanta, requests, pops, variant }) => {
        const ids = names(quanta.length);
        const q = new PolicyQueue<null>(explicitPolicy(ids.map((n, i) => [n, quanta[i]])), { variant });
        fill(q, ids, requests);
        for (const mask of pops) {
          const res = q.pop((_h, c) => !mask[c.index], { record: pops.length % 2 === 0 });
          expect(res.headsTouched).toBeLessThanOrEqual(2 * quanta.length);
          if (res.record) expect(res.record.heads_touched).toBe(res.headsTouched);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a dispatchable backlog always yields a request (work conservation)', () => {
    fc.assert(
      fc.property(ringArb, ({ quanta, requests, variant }) => {
        const ids = names(quanta.length);
        const q = new PolicyQueue<null>(explicitPolicy(ids.map((n, i) => [n, quanta[i]])), { variant });
        fill(q, ids, requests);
        for (let k = 0; k < requests.length; k++)
          expect(q.pop(() => true, { record: false }).request).not.toBeNull();
        expect(q.size()).toBe(0);
        expect(q.pop(() => true).request).toBeNull();
      }),
      { numRuns: 100 },
    );
  });

  it('V1 and V2 give the same sequence when nothing arrives between pops', () => {
    fc.assert(
      fc.property(ringArb, ({ quanta, requests }) => {
        const ids = names(quanta.length);
        const run = (variant: 'v1' | 'v2') => {
          const q = new PolicyQueue<null>(explicitPolicy(ids.map((n, i) => [n, quanta[i]])), { variant });
          fill(q, ids, requests);
          const out: string[] = [];
          for (let r = q.pop(() => true); r.request; r = q.pop(() => true)) out.push(r.request.id);
          return out;
        };
        expect(run('v1')).toEqual(run('v2'));
      }),
      { numRuns: 100 },
    );
  });
});
