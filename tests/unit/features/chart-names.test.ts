import { describe, expect, it } from 'vitest';
import { balanced, isChart } from '../../../src/ui/features/charts';

describe('chart names for Export', () => {
  it('close a parenthesis that cutting the title at ";" left open', () => {
    expect(balanced('DLPM deficit per client (service units')).toBe(
      'DLPM deficit per client (service units)',
    );
    expect(balanced('Throughput (units/s)')).toBe('Throughput (units/s)');
    expect(balanced('a (b (c')).toBe('a (b (c))');
  });
});

describe('which drawings Export offers', () => {
  const svg = { nested: false, viewBox: true, width: 300, height: 20 };
  it('every view drawn on screen, however small (a radix tree of one row is 20 px high)', () => {
    expect(isChart(svg)).toBe(true);
    expect(isChart({ ...svg, width: 60, height: 40 })).toBe(true);
  });
  it('no icon (no viewBox), nothing inside another drawing, nothing not laid out', () => {
    expect(isChart({ ...svg, viewBox: false, width: 14, height: 12 })).toBe(false);
    expect(isChart({ ...svg, nested: true })).toBe(false);
    expect(isChart({ ...svg, width: 0, height: 0 })).toBe(false);
  });
});
