import { describe, expect, it } from 'vitest';
import { BAhead } from '../../../src/ui/compare/ahead';

describe("Compare's queue of B's decisions after A's end", () => {
  it('keeps a Step apart from a slice of Play, so the slice keeps its wall limit (first-time user)', () => {
    // a Step queued behind a slice, and a slice queued behind a Step: neither budget loses its limit
    for (const order of ['slice first', 'step first'] as const) {
      const q = new BAhead();
      if (order === 'slice first') q.addSlice(1_000_000, 8);
      q.addSteps(1);
      if (order === 'step first') q.addSlice(1_000_000, 8);
      expect(q.take(120), order).toEqual({ decisions: 1 });
      expect(q.take(120), order).toEqual({ decisions: 1_000_000, maxWallMs: 8, snapshotEveryMs: 120 });
      expect(q.take(120), order).toBeNull();
      expect(q.empty).toBe(true);
    }
  });

  it('adds up Steps, merges slices under the tighter limit, and Pause drops the slice only', () => {
    const q = new BAhead();
    q.addSteps(1);
    q.addSteps(2);
    q.addSlice(5, 40);
    q.addSlice(7, 8);
    q.dropSlice();
    expect(q.empty).toBe(false);
    expect(q.take(120)).toEqual({ decisions: 3 });
    expect(q.empty).toBe(true);
    q.addSlice(5, 40);
    q.addSlice(7, 8);
    expect(q.take(120)).toEqual({ decisions: 12, maxWallMs: 8, snapshotEveryMs: 120 });
    q.addSteps(4);
    q.clear();
    expect(q.take(120)).toBeNull();
  });
});
