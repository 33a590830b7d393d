import { describe, expect, it } from 'vitest';
import { RestorePoints } from '../../src/worker/restore-points';
import type { Session, SessionSnapshot } from '../../src/worker/session';

/** A session that is only a playhead, a clock and a copy cost. */
function fakeSession(decision: number, time: number, bytes = 1000): Session {
  const s = {
    kind: 'cluster',
    name: 'fake',
    description: '',
    step: () => null,
    stepBy: () => null,
    runUntil: () => {},
    time: () => time,
    decisions: () => decision,
    done: () => false,
    totalSteps: () => null,
    snapshot: (): SessionSnapshot => {
      throw new Error(`a fake session at decision ${decision} has no snapshot`);
    },
    fork: () => ({ session: fakeSession(decision, time, bytes), bytes }),
  } satisfies Session;
  return s;
}

describe('RestorePoints', () => {
  it("spaces points by what a copy costs: at most the given share of the worker's time", () => {
    let clock = 0;
    const copyMs = 20;
    const points = new RestorePoints({ clock: () => clock, overhead: 0.1, minGap: 10 });
    const take = (d: number) => {
      const s = fakeSession(d, d / 10);
      s.fork = () => {
        clock += copyMs;
        return { session: fakeSession(d, d / 10), bytes: 1 };
      };
      points.take(s, []);
    };
    expect(points.due(10)).toBe(true);
    take(10);
    // 20 ms per copy at 10 % overhead: due 200 ms after the copy ended, and not before
    clock += 150;
    expect(points.due(100)).toBe(false);
    clock += 50;
    expect(points.due(100)).toBe(true);
    expect(points.due(15)).toBe(false); // closer than minGap to the newest point
    take(100);
    expect(points.decisions()).toEqual([10, 100]);
  });

  it('fills gaps behind the newest point (replays after a seek back) with the same spacing', () => {
    const points = new RestorePoints({ clock: () => 0, minGap: 10 });
    points.take(fakeSession(10, 1), []);
    points.take(fakeSession(100, 9), []);
    expect(points.due(50)).toBe(true);
    points.take(fakeSession(50, 5), []);
    expect(points.decisions()).toEqual([10, 50, 100]);
    expect(points.due(95)).toBe(false);
    expect(points.due(55)).toBe(false);
    expect(points.due(75)).toBe(true);
    expect(points.best({ decision: 60 })?.decision).toBe(50);
  });

  it('thins to every other point and doubles the spacing when memory runs out', () => {
    const points = new RestorePoints({ clock: () => 0, minGap: 10, maxBytes: 5500 });
    for (let d = 10; d <= 60; d += 10) {
      expect(points.due(d)).toBe(true);
      points.take(fakeSession(d, d, 1000), []);
    }
    // 6 kB > 5.5 kB: the 1st, 3rd and 5th went, the newest stayed
    expect(points.decisions()).toEqual([20, 40, 60]);
    expect(points.bytes()).toBe(3000);
    expect(points.due(70)).toBe(false);
    expect(points.due(80)).toBe(true);
  });

  it('finds the newest point at or before a playhead, or strictly before a time', () => {
    const points = new RestorePoints({ clock: () => 0, minGap: 1 });
    for (const [d, t] of [
      [10, 1],
      [20, 2],
      [30, 2],
      [40, 5],
    ])
      points.take(fakeSession(d, t), []);
    expect(points.best({ decision: 9 })).toBeNull();
    expect(points.best({ decision: 30 })?.decision).toBe(30);
    expect(points.best({ decision: 39 })?.decision).toBe(30);
    // the points at t = 2 may be past the first decision at t = 2
    expect(points.best({ time: 2 })?.decision).toBe(10);
    expect(points.best({ time: 4.5 })?.decision).toBe(30);
    expect(points.best({ time: 1 })).toBeNull();
  });

  it('turns itself off, without throwing, when a session cannot be copied', () => {
    const points = new RestorePoints({ clock: () => 0, minGap: 1 });
    const s = fakeSession(5, 1);
    s.fork = () => {
      throw new Error('cannot copy');
    };
    points.take(s, []);
    expect(points.failed).toBe('cannot copy');
    expect(points.due(100)).toBe(false);
    expect(points.count()).toBe(0);
  });

  it('restores a fresh copy each time and keeps the point pristine', () => {
    const points = new RestorePoints({ clock: () => 0, minGap: 1 });
    points.take(fakeSession(7, 3), [{ seq: 6, t: 3, kind: 'admit', summary: 'six' }]);
    const p = points.best({ decision: 8 });
    expect(p?.log.map((d) => d.seq)).toEqual([6]);
    const a = points.restore(p!);
    const b = points.restore(p!);
    expect(a).not.toBe(b);
    expect(a).not.toBe(p?.session);
    expect(a.decisions()).toBe(7);
  });
});
