import { describe, expect, it } from 'vitest';
import { seekGoalText, timelineView } from '../../../src/ui/seek-words';

const nb = (s: string) => s.replace(/\u202f/g, ' ');

describe('the timeline’s words', () => {
  it('at rest: the playhead and the run so far', () => {
    const v = timelineView({ count: 2845, reach: 6012, drag: null, seek: null, unit: 'decision' });
    expect(nb(v.text)).toBe('decision 2 845 / 6 012');
    expect([v.value, v.max, v.title]).toEqual([2845, 6012, null]);
  });

  it('at the end of a run that is over: the words say so; not before its end, nor while dragging', () => {
    const end = timelineView({
      count: 6012,
      reach: 6012,
      drag: null,
      seek: null,
      unit: 'decision',
      over: true,
    });
    expect(nb(end.text)).toBe('decision 6 012 / 6 012 · end');
    expect(end.valueText).toBe('decision 6012 of 6012, the end of the run');
    expect(end.title).toMatch(/^The run is over/);
    const back = timelineView({ count: 5000, reach: 6012, drag: null, seek: null, unit: 'step', over: true });
    expect(nb(back.text)).toBe('step 5 000 / 6 012');
    const dragging = timelineView({
      count: 6012,
      reach: 6012,
      drag: 10,
      seek: null,
      unit: 'step',
      over: true,
    });
    expect(dragging.text).not.toMatch(/end/);
    const going = timelineView({ count: 6012, reach: 6012, drag: null, seek: null, unit: 'step' });
    expect(going.title).toBeNull();
  });

  it('a link replaying to its playhead: where the replay is, and the target, on a slider that reaches it', () => {
    const v = timelineView({
      count: 640,
      reach: 640,
      drag: null,
      seek: {
        at: 640,
        target: 30_000,
        goal: { decision: 30_000 },
        landing: { decision: 30_000, time: null },
      },
      unit: 'decision',
    });
    expect(nb(v.text)).toBe('decision 640 → 30 000');
    expect([v.value, v.max]).toEqual([640, 30_000]);
    expect(nb(v.title ?? '')).toBe('Replaying: the run is at decision 640, on its way to decision 30 000');
    expect(v.valueText).toBe('decision 640 of 30000, replaying: at decision 640, going to decision 30000');
  });

  it('a scrub replaying: the thumb stays where it was dropped, the words say where the run is', () => {
    const v = timelineView({
      count: 1200,
      reach: 31_424,
      drag: 20_000,
      seek: { at: 1200, target: 20_000, goal: { decision: 20_000 }, landing: { decision: 20_000, time: 80 } },
      unit: 'decision',
    });
    expect(nb(v.text)).toBe('decision 1 200 → 20 000');
    expect([v.value, v.max]).toEqual([20_000, 31_424]);
  });

  it('a time seek names its time', () => {
    const v = timelineView({
      count: 10,
      reach: 900,
      drag: null,
      seek: { at: 10, target: 300, goal: { time: 12.5 }, landing: { decision: null, time: null } },
      unit: 'decision',
    });
    expect(nb(v.text)).toBe('decision 10 → t = 12.500 s');
  });
});

describe('the seeking hint’s target', () => {
  it('adds the other half where the run has been there', () => {
    expect(nb(seekGoalText({ decision: 30_000 }, 'decision'))).toBe('decision 30 000');
    expect(nb(seekGoalText({ decision: 30_000 }, 'decision', { decision: 30_000, time: null }))).toBe(
      'decision 30 000',
    );
    expect(nb(seekGoalText({ decision: 29_999 }, 'decision', { decision: 29_999, time: 261.0801 }))).toBe(
      'decision 29 999 (t = 261.080 s)',
    );
    expect(nb(seekGoalText({ time: 12.5 }, 'decision', { decision: 2048, time: 12.51 }))).toBe(
      't = 12.500 s (decision 2 048)',
    );
    expect(nb(seekGoalText({ time: 12.5 }, 'decision', { decision: null, time: null }))).toBe('t = 12.500 s');
    // a sandbox step has no simulated time to add
    expect(seekGoalText({ decision: 12 }, 'step', { decision: 12, time: 12 })).toBe('step 12');
  });
});
