import { describe, expect, it } from 'vitest';
import { balanced } from '../../../src/ui/features/charts';

describe('chart names for Export', () => {
  it('close a parenthesis that cutting the title at ";" left open', () => {
    expect(balanced('DLPM deficit per client (service units')).toBe(
      'DLPM deficit per client (service units)',
    );
    expect(balanced('Throughput (units/s)')).toBe('Throughput (units/s)');
    expect(balanced('a (b (c')).toBe('a (b (c))');
  });
});
