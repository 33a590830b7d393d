/** A worker step's log line gives its duration in ms below a second, in seconds from a second up. */
import { describe, expect, it } from 'vitest';
import { stepDuration } from '../../../src/core/replica/replica';

describe('stepDuration', () => {
  it('writes ms below one second and seconds from one second', () => {
    expect(stepDuration(0.02145)).toBe('21.45 ms');
    expect(stepDuration(0.99949)).toBe('999.49 ms');
    expect(stepDuration(1)).toBe('1.000 s');
    // a tryout read "12751.41 ms" on a Preble run's log
    expect(stepDuration(12.75141)).toBe('12.751 s');
  });
});
