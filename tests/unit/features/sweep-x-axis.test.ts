import { describe, expect, it } from 'vitest';
import { axisTitle, thin } from '../../../src/ui/features/SweepCharts';

describe("the swept parameter's axis", () => {
  it('names the unit unless the unit only repeats the name', () => {
    expect(axisTitle('Workers', 'workers', false)).toBe('Workers');
    expect(axisTitle('Workers', 'workers', true)).toBe('Workers (log scale)');
    expect(axisTitle('Arrival rate of client a', 'requests/s', false)).toBe(
      'Arrival rate of client a (requests/s)',
    );
    expect(axisTitle('Quantum Q^u', 'tokens', true)).toBe('Quantum Q^u (tokens, log scale)');
  });

  it('ticks a log axis at swept values, thinned evenly, keeping both ends', () => {
    const swept = [625, 1250, 2500, 5000, 10000];
    expect(thin(swept, 6)).toEqual(swept);
    expect(thin(swept, 3)).toEqual([625, 2500, 10000]);
    expect(thin(swept, 2)).toEqual([625, 10000]);
    expect(thin([0.5, 1, 2, 4, 8, 16, 32], 4)).toEqual([0.5, 2, 8, 32]);
    expect(thin([], 3)).toEqual([]);
  });
});
