import { describe, expect, it } from 'vitest';
import { clickPoint, labelLeft } from '../../../src/ui/views/time-seek';

describe('click-to-seek position', () => {
  it("takes the pointer's fractional position when the click is that spot rounded to whole pixels", () => {
    // Chromium: pointermove at 510.3, the click that follows reports 510
    expect(clickPoint({ x: 510.3, y: 403.09 }, { x: 510, y: 403 })).toEqual({ x: 510.3, y: 403.09 });
    expect(clickPoint({ x: 509.6, y: 402.5 }, { x: 510, y: 403 })).toEqual({ x: 509.6, y: 402.5 });
  });
  it("takes the click's own position when no pointer event came first or the pointer was elsewhere", () => {
    expect(clickPoint(null, { x: 510, y: 403 })).toEqual({ x: 510, y: 403 });
    expect(clickPoint({ x: 420.5, y: 403 }, { x: 510, y: 403 })).toEqual({ x: 510, y: 403 });
    expect(clickPoint({ x: 510.2, y: 380 }, { x: 510, y: 403 })).toEqual({ x: 510, y: 403 });
  });
});

describe('the seek label stays inside its chart (#13)', () => {
  it('goes beside the guide on the side it fits, right first', () => {
    expect(labelLeft(20, 100, 300)).toBe(24);
    expect(labelLeft(250, 100, 300)).toBe(146);
  });
  it('is pushed in from the edge when it fits on neither side', () => {
    // a 190-wide label in a 260-wide chart, hovered mid-way: clamped to end at 258
    expect(labelLeft(130, 190, 260)).toBe(68);
    expect(labelLeft(60, 190, 260)).toBe(64);
    // wider than the chart: starts at the margin
    expect(labelLeft(60, 300, 260)).toBe(2);
  });
});
