import { describe, expect, it } from 'vitest';
import { EV_ARRIVAL, EV_STEP_END, EventQueue } from '../../../src/core/sim/event-queue';
import { KvCache } from '../../../src/core/replica/kv-cache';
import { Deque } from '../../../src/core/replica/deque';

describe('KV cache ledger', () => {
  it('allocates all or nothing and keeps allocated + free = total', () => {
    const kv = new KvCache(100, 16);
    expect(kv.totalBlocks).toBe(6);
    expect(kv.blocksFor(17)).toBe(2);
    expect(kv.blocksFor(0)).toBe(0);
    expect(kv.allocate(4)).toBe(true);
    expect(kv.allocate(3)).toBe(false);
    expect(kv.allocatedBlocks).toBe(4);
    expect(kv.allocatedBlocks + kv.freeBlocks).toBe(kv.totalBlocks);
    kv.release(4);
    expect(kv.freeBlocks).toBe(6);
    expect(() => kv.release(1)).toThrow();
    expect(kv.peakBlocks).toBe(4);
    expect(kv.check()).toBeNull();
  });
});

describe('event queue', () => {
  it('orders by time, then by scheduling order (stable)', () => {
    const q = new EventQueue<string>();
    q.push(2, EV_ARRIVAL, 0, 'c');
    q.push(1, EV_ARRIVAL, 0, 'a');
    q.push(2, EV_STEP_END, 0, 'd');
    q.push(1, EV_STEP_END, 0, 'b');
    q.push(0.5, EV_ARRIVAL, 0, 'z');
    const out: string[] = [];
    for (let e = q.pop(); e; e = q.pop()) out.push(e.payload as string);
    expect(out).toEqual(['z', 'a', 'b', 'c', 'd']);
  });

  it('pops many equal times in push order', () => {
    const q = new EventQueue<number>();
    for (let i = 0; i < 200; i++) q.push(i % 3, EV_ARRIVAL, 0, i);
    let last = -1;
    let lastT = -1;
    for (let e = q.pop(); e; e = q.pop()) {
      if (e.t === lastT) expect(e.payload as number).toBeGreaterThan(last);
      else expect(e.t).toBeGreaterThan(lastT);
      lastT = e.t;
      last = e.payload as number;
    }
  });
});

describe('deque', () => {
  it('pushes and pops at both ends across growth', () => {
    const d = new Deque<number>(4);
    for (let i = 0; i < 10; i++) d.pushBack(i);
    d.pushFront(-1);
    expect(d.toArray()).toEqual([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(d.popFront()).toBe(-1);
    expect(d.removeAt(2)).toBe(2);
    expect(d.toArray(4)).toEqual([0, 1, 3, 4]);
    expect(d.size).toBe(9);
  });
});
