import { describe, expect, test } from 'vitest';
import { CHART_W, isolatedIndexes, plotScales } from '../../../src/ui/views/TimeChart';

describe('TimeChart plot scales (shared by the SVG axes and the dense canvas)', () => {
  test('the x range follows the measured width, not the pre-measure default', () => {
    const { x, y } = plotScales(700, 220, [0, 10], [0, 100]);
    // Margins: 40 left (the least; the SVG widens it for the y title and labels), 12 right, 10 top, 34 bottom.
    expect(x(0)).toBe(40);
    expect(x(10)).toBe(688);
    expect(x(5)).toBe(364);
    expect(y(0)).toBe(186);
    expect(y(100)).toBe(10);
  });
  test('the dense canvas starts its lines at the left edge the SVG axes chose', () => {
    const { x } = plotScales(700, 220, [0, 10], [0, 100], 70);
    expect(x(0)).toBe(70);
    expect(x(10)).toBe(688);
  });
  test('a narrow panel ends its lines at its own right edge', () => {
    const { x } = plotScales(300, 220, [2, 4], [0, 1]);
    expect(x(4)).toBe(288);
    expect(x(4)).not.toBe(CHART_W - 12);
  });
});

describe('isolatedIndexes', () => {
  test('finds samples whose neighbours are undefined (a line would draw nothing there)', () => {
    const N = Number.NaN;
    expect(isolatedIndexes([N, 5, N, 1, 2, N, 7], [0, 1, 2, 3, 4, 5, 6])).toEqual([1, 6]);
    expect(isolatedIndexes([3], [0])).toEqual([0]);
    expect(isolatedIndexes([1, 2, 3], [0, 1, 2])).toEqual([]);
    // an undefined time counts as a gap too
    expect(isolatedIndexes([1, 2, 3], [0, N, 2])).toEqual([0, 2]);
  });
});
