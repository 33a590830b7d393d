import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { axisRange, flatNote, isFlat, jainWindowNote } from '../../../src/ui/features/sweep-axes';

describe('sweep chart axes', () => {
  it('a series is flat when it moves by under 2 % of its magnitude', () => {
    expect(isFlat([0.519, 0.522])).toBe(true); // 0.6 %
    expect(isFlat([100, 101.9])).toBe(true);
    expect(isFlat([100, 102.1])).toBe(false); // 2.06 % of 102.1
    expect(isFlat([100, 103])).toBe(false);
    expect(isFlat([0, 0, 0])).toBe(true);
    expect(isFlat([5])).toBe(false); // one point says nothing about spread
    expect(isFlat([-10, -10.1])).toBe(true);
  });

  it("Jain's index that barely moves shows [0, 1]; one that moves is fitted", () => {
    expect(axisRange('jain', [[0.519, 0.522, 0.52]])).toEqual({ domain: [0, 1], flat: true });
    expect(axisRange('jain', [[0.5, 0.9]])).toEqual({ domain: [0.5, 0.9], flat: false });
    // Baselines (one value each) widen the range but do not decide flatness.
    expect(axisRange('jain', [[0.519, 0.522], [0.3]])).toEqual({ domain: [0, 1], flat: true });
    expect(axisRange('jain', [[0.519, 0.6], [0.3]])).toEqual({ domain: [0.3, 0.6], flat: false });
  });

  it('a flat non-negative metric starts at 0; a moving one is fitted; zero always starts at 0', () => {
    expect(axisRange('nonneg', [[1000, 1010]])).toEqual({ domain: [0, 1010], flat: true });
    expect(axisRange('nonneg', [[1000, 2000]])).toEqual({ domain: [1000, 2000], flat: false });
    expect(
      axisRange('zero', [
        [2, 3],
        [5, 9],
      ]),
    ).toEqual({ domain: [0, 9], flat: false });
    expect(
      axisRange('zero', [
        [2, 2.01],
        [5, 5.02],
      ]),
    ).toEqual({ domain: [0, 5.02], flat: true });
    expect(axisRange('nonneg', [[0, 0]])).toEqual({ domain: [0, 1], flat: true });
  });

  it('the swept parameter is fitted and never flat; empty axes get [0, 1]', () => {
    expect(axisRange('fit', [[625, 1250]])).toEqual({ domain: [625, 1250], flat: false });
    expect(axisRange('fit', [[4]])).toEqual({ domain: [3.6, 4.4], flat: false });
    expect(axisRange('nonneg', [])).toEqual({ domain: [0, 1], flat: false });
  });

  it('property: the range always covers every value', () => {
    const series = fc.array(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { maxLength: 6 }), {
      maxLength: 4,
    });
    fc.assert(
      fc.property(
        fc.constantFrom('fit', 'nonneg', 'zero') as fc.Arbitrary<'fit' | 'nonneg' | 'zero'>,
        series,
        (rule, s) => {
          const { domain } = axisRange(rule, s);
          for (const v of s.flat()) {
            expect(v).toBeGreaterThanOrEqual(domain[0]);
            expect(v).toBeLessThanOrEqual(domain[1]);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the note says how close the points are, measured, and claims no cause (tryout T3)', () => {
    expect(flatNote([])).toBeNull();
    expect(flatNote([{ name: 'throughput', series: [[79_900, 80_000, 79_950]] }])).toBe(
      'Throughput: all points within 0.1 % of each other. That is under 2 %, so its axis starts at 0.',
    );
    const two = flatNote([
      { name: 'throughput', series: [[1000, 1015]] },
      { name: "Jain's index", series: [[0.713, 0.713]] },
    ]);
    expect(two).toBe(
      "Throughput: all points within 1.5 % of each other; Jain's index: all points identical. That is under 2 %, so their axes start at 0.",
    );
    // a 600 s, 100k-request run is not "short": the note never guesses why the points agree
    expect(two).not.toMatch(/noise|short/);
    // each series on its own: a p50 and a p99 that each barely move are not 'within 50 %'
    expect(
      flatNote([
        {
          name: 'latency',
          series: [
            [2, 2.01],
            [4, 4.02],
          ],
        },
      ]),
    ).toBe('Latency: all points within 0.5 % of each other. That is under 2 %, so its axis starts at 0.');
  });

  it('Jain windows of unlike length are named, with their ends; alike ones are not (tryout T2)', () => {
    // the Fig. 1 preset's runs: Q^u = 200 000 ends its window at 113.5 s, the others at 180–189 s
    const note = jainWindowNote([
      { label: '2 240', from: 6.591, to: 180.639 },
      { label: '21 100', from: 6.591, to: 188.573 },
      { label: '200 000', from: 6.591, to: 113.543 },
    ]);
    expect(note).toContain('107.0 s (200 000: 6.6–113.5 s) to 182.0 s (21 100: 6.6–188.6 s)');
    expect(
      jainWindowNote([
        { label: 'a', from: 6, to: 180 },
        { label: 'b', from: 6, to: 188 },
      ]),
    ).toBeNull();
    expect(jainWindowNote([{ label: 'a', from: 0, to: 10 }])).toBeNull();
  });
});
