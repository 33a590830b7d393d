import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimRequest } from '../../../src/core/sim/request';
import { MatchedQueue } from '../../../src/core/algorithms/shared/matched-queue';
import { reusableLimit } from '../../../src/core/algorithms/shared/prefix-order';
import { RadixCache } from '../../../src/core/replica/radix-cache';

const seq = fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 24 });

const op = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), tokens: seq }),
  fc.record({ kind: fc.constant('evict' as const), blocks: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('acquire' as const), tokens: seq }),
  fc.record({ kind: fc.constant('release' as const) }),
);

describe('MatchedQueue (remembered prefix matches)', () => {
  it('always agrees with a fresh radix match while the tree grows, splits and shrinks', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2),
        fc.array(seq, { minLength: 1, maxLength: 8 }),
        fc.array(op, { maxLength: 40 }),
        (b, waiting, ops) => {
          const radix = new RadixCache(b);
          const q = new MatchedQueue();
          const reqs = waiting.map(
            (t, i) =>
              new SimRequest(
                {
                  id: `w${i}`,
                  client: 'a',
                  tokens: Int32Array.from(t),
                  outputTokens: 1,
                  sloClass: 'standard',
                  program: 'p',
                  node: 'n',
                },
                0,
                i,
                0,
              ),
          );
          for (const r of reqs) q.push(r);
          const held: ReturnType<RadixCache['acquire']>[] = [];
          let now = 0;
          const check = () => {
            for (let i = 0; i < reqs.length; i++) {
              const r = reqs[i];
              const fresh = radix.match(r.tokens, reusableLimit(r, b));
              expect(q.matchLength(i, radix)).toBe(fresh.length);
              const end = q.matchEnd(i, radix);
              expect(end.length).toBe(fresh.length);
              expect(end.node).toBe(fresh.node);
              expect(end.within).toBe(fresh.within);
            }
          };
          check();
          for (const o of ops) {
            now++;
            if (o.kind === 'insert') radix.insert(Int32Array.from(o.tokens), o.tokens.length, now);
            else if (o.kind === 'evict') radix.evict(o.blocks);
            else if (o.kind === 'acquire')
              held.push(radix.acquire(Int32Array.from(o.tokens), o.tokens.length, now));
            else {
              const h = held.shift();
              if (h) radix.unlock(h.node, now);
            }
            check();
          }
        },
      ),
      { numRuns: 150, seed: 77 },
    );
  });
});
