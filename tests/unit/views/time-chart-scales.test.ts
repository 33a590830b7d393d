import { describe, expect, test } from 'vitest';
import { CHART_W, plotScales } from '../../../src/ui/views/TimeChart';

describe('TimeChart plot scales (shared by the SVG axes and the dense canvas)', () => {
  test('the x range follows the measured width, not the pre-measure default', () => {
    const { x, y } = plotScales(700, 220, [0, 10], [0, 100]);
    // Margins: 54 left, 12 right, 10 top, 34 bottom.
    expect(x(0)).toBe(54);
    expect(x(10)).toBe(688);
    expect(x(5)).toBe(371);
    expect(y(0)).toBe(186);
    expect(y(100)).toBe(10);
  });
  test('a narrow panel ends its lines at its own right edge', () => {
    const { x } = plotScales(300, 220, [2, 4], [0, 1]);
    expect(x(4)).toBe(288);
    expect(x(4)).not.toBe(CHART_W - 12);
  });
});
