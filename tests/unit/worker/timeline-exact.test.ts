import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/worker/timeline';

describe('the time index keeps the exact time of every decision the run has stepped through', () => {
  it('answers the time of a decision and the first decision at or after a time', () => {
    const c = new Checkpoints(4);
    const times = [0, 0.5, 0.5, 1, 2.25, 2.25, 3];
    for (let d = 1; d < times.length; d++) c.note(d, times[d]);
    expect(c.exactTimeOf(0)).toBe(0);
    expect(c.exactTimeOf(4)).toBe(2.25);
    expect(c.exactTimeOf(7)).toBeNull();
    expect(c.exactTimeOf(1.5)).toBeNull();
    expect(c.firstAtOrAfterTime(0)).toBe(0);
    expect(c.firstAtOrAfterTime(0.5)).toBe(1);
    expect(c.firstAtOrAfterTime(0.6)).toBe(3);
    expect(c.firstAtOrAfterTime(2.25)).toBe(4);
    expect(c.firstAtOrAfterTime(3)).toBe(6);
    // past anything run so far: not known
    expect(c.firstAtOrAfterTime(3.01)).toBeNull();
  });

  it('a replay noting the same decisions again changes nothing; decisions skipped unseen have no time', () => {
    const c = new Checkpoints(4);
    for (let d = 1; d <= 5; d++) c.note(d, d);
    for (let d = 1; d <= 3; d++) c.note(d, d);
    expect(c.exactTimeOf(5)).toBe(5);
    // decisions 6 … 8 were taken without a note (a run to a time), then 9
    c.note(9, 9);
    expect(c.exactTimeOf(7)).toBeNull();
    expect(c.exactTimeOf(9)).toBe(9);
    // the decision a time lands on is not known when it may lie in the gap
    expect(c.firstAtOrAfterTime(8.5)).toBeNull();
  });

  it('grows past its first buffer', () => {
    const c = new Checkpoints();
    for (let d = 1; d <= 5000; d++) c.note(d, d / 10);
    expect(c.exactTimeOf(4321)).toBe(432.1);
    expect(c.firstAtOrAfterTime(432.05)).toBe(4321);
  });
});
