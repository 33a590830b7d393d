/**
 * Dynamo v1.6's sweep of expired due times (`PolicyQueue.takeExpired`, `nextDue`): every queued
 * request whose due time is at or before now leaves its class (shared heap or exact-worker lane),
 * whatever its place, nothing is charged, and the rest of the queue pops exactly as if the swept
 * requests had never been stored. Checked against a plain filter on random queues.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PolicyQueue } from '../../../src/core/drr';
import { explicitPolicy } from './helpers';

interface Req {
  cls: number;
  cost: number;
  due: number | null;
  worker: number;
}

const ids = ['a', 'b', 'c'];

function build(reqs: Req[], keep: (k: number) => boolean): PolicyQueue<number> {
  const q = new PolicyQueue<number>(explicitPolicy(ids.map((n, i) => [n, 3 + 2 * i])), { workers: 2 });
  reqs.forEach((r, k) => {
    if (!keep(k)) return;
    q.enqueue({
      id: `r${k}`,
      requestedClass: ids[r.cls],
      rawIsl: r.cost,
      cachedTokens: 0,
      arrivalS: k,
      worker: r.worker >= 0 ? r.worker : null,
      dueS: r.due,
      payload: k,
    });
  });
  return q;
}

function drain(q: PolicyQueue<number>): string[] {
  const out: string[] = [];
  for (let g = q.popRequest(() => true); g !== null; g = q.popRequest(() => true)) out.push(g.id);
  return out;
}

const req = fc.record({
  cls: fc.integer({ min: 0, max: 2 }),
  cost: fc.integer({ min: 1, max: 9 }),
  due: fc.option(fc.integer({ min: 0, max: 10 }), { nil: null }),
  worker: fc.integer({ min: -1, max: 1 }),
});

describe('the v1.6 due-time sweep', () => {
  it('takes exactly the requests due at or before now, earliest first, and leaves the rest as if never stored', () => {
    fc.assert(
      fc.property(fc.array(req, { maxLength: 30 }), fc.integer({ min: -1, max: 11 }), (reqs, now) => {
        const q = build(reqs, () => true);
        const gone = reqs
          .map((r, k) => ({ k, due: r.due }))
          .filter((x) => x.due !== null && x.due <= now)
          .sort((x, y) => (x.due as number) - (y.due as number) || x.k - y.k)
          .map((x) => `r${x.k}`);
        expect(q.takeExpired(now).map((e) => e.id)).toEqual(gone);
        expect(q.size()).toBe(reqs.length - gone.length);
        expect(q.takeExpired(now)).toEqual([]);
        const live = reqs.map((r) => r.due).filter((d): d is number => d !== null && d > now);
        expect(q.nextDue()).toBe(live.length > 0 ? Math.min(...live) : null);
        const never = build(reqs, (k) => !gone.includes(`r${k}`));
        expect(drain(q)).toEqual(drain(never));
      }),
      { numRuns: 300 },
    );
  });

  it('a due time equal to now counts as passed; nextDue skips requests that already left', () => {
    const q = build(
      [
        { cls: 0, cost: 1, due: 5, worker: -1 },
        { cls: 1, cost: 1, due: 2, worker: 1 },
        { cls: 2, cost: 1, due: null, worker: -1 },
      ],
      () => true,
    );
    expect(q.nextDue()).toBe(2);
    expect(q.popRequest(() => true)?.id).toBe('r0'); // r0 leaves by a pop, due 5
    expect(q.nextDue()).toBe(2);
    expect(q.takeExpired(2).map((e) => e.id)).toEqual(['r1']); // in worker 1's lane
    expect(q.nextDue()).toBe(null);
    expect(q.takeExpired(100)).toEqual([]);
    expect(drain(q)).toEqual(['r2']);
  });

  /**
   * Dynamo's sweep (`take_expired`, through `take_if_entry_in_class`) sets a class's deficit to 0 as
   * soon as it removes that class's last request, as every removal path of the policy queue does; it
   * does not wait for a later pop to find the class empty. Classes x and y, quantum 10 each:
   *   pop            x1 (cost 4, due 1) leaves: x keeps 6, x2 stays → carry x, cursor on y.
   *   pop            x2 blocked, y empty: nothing leaves; x, blocked, keeps its 6.
   *   sweep at 5     x2 (due 5) is taken out; x is empty → its deficit is 0.
   *   enqueue        x3 (6), x4 (4), y1 (15); every head may leave from now on.
   *   pops           y first (cursor): 10 < 15. x: 0 + 10 → x3, x keeps 4 → carry x → x4 from
   *                  the carry (4 ≤ 4) → then y1 (20 ≥ 15): x3, x4, y1.
   * With the credit left at 6 (reset only by a pop that visits x while empty), x3 was taken on the
   * stale 6 without a quantum, leaving 0, and y1 went before x4: x3, y1, x4.
   */
  it('a class the sweep empties loses its credit at once', () => {
    const q = new PolicyQueue<number>(
      explicitPolicy([
        ['x', 10],
        ['y', 10],
      ]),
      { workers: 1 },
    );
    const add = (id: string, cls: string, cost: number, due: number | null = null) =>
      q.enqueue({
        id,
        requestedClass: cls,
        rawIsl: cost,
        cachedTokens: 0,
        arrivalS: 0,
        dueS: due,
        payload: 0,
      });
    add('x1', 'x', 4, 1);
    add('x2', 'x', 5, 5);
    expect(q.popRequest(() => true)?.id).toBe('x1');
    expect(q.snapshot().classes.find((c) => c.name === 'x')?.deficit).toBe(6);
    expect(q.popRequest((h) => h.id !== 'x2')).toBe(null);
    expect(q.snapshot().classes.find((c) => c.name === 'x')?.deficit).toBe(6);
    expect(q.takeExpired(5).map((e) => e.id)).toEqual(['x2']);
    expect(q.snapshot().classes.find((c) => c.name === 'x')?.deficit).toBe(0);
    add('x3', 'x', 6);
    add('x4', 'x', 4);
    add('y1', 'y', 15);
    expect(drain(q)).toEqual(['x3', 'x4', 'y1']);
  });
});
