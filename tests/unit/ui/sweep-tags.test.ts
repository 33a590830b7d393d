/**
 * Sweep chart value tags (#13): coinciding points share one tag, and no tag overlaps another tag or
 * any marker, or leaves the plot. The default scenario's Q^u sweep put five runs on one point and
 * stacked their five tags into each other.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { groupText, placeTags, type TagPoint, valueTags } from '../../../src/ui/features/sweep-tags';

const PLOT = { x0: 58, y0: 2, x1: 338, y1: 188 };
const width = (t: string) => 5.6 * t.length + 2;
const LINE = 12;

const overlap = (a: { x0: number; y0: number; x1: number; y1: number }, b: typeof a) =>
  a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

describe('sweep value tags', () => {
  test("the default scenario's Q^u sweep: five runs on one point get one tag", () => {
    const tags = valueTags([625, 1250, 2500, 5000, 10000]);
    const pts: TagPoint[] = tags.map((text, i) => ({ x: 300 + i * 0.4, y: 90 - i * 0.3, text, point: i }));
    const placed = placeTags(pts, pts, PLOT, width, LINE);
    expect(placed).toHaveLength(1);
    expect(placed[0].text).toBe('625 … 10\u202f000: 5 runs here');
    expect(placed[0].points).toEqual([0, 1, 2, 3, 4]);
  });

  test('the same value said once; two runs named both', () => {
    expect(groupText(['LPM'])).toBe('LPM');
    expect(groupText(['2', '2', '2'])).toBe('2 (3 runs)');
    expect(groupText(['1', '2'])).toBe('1, 2');
  });

  test('points close together but apart keep a tag each, none overlapping', () => {
    const pts: TagPoint[] = [0, 1, 2, 3].map((i) => ({ x: 200, y: 80 + i * 9, text: `${i + 1}`, point: i }));
    const placed = placeTags(pts, pts, PLOT, width, LINE);
    expect(placed).toHaveLength(4);
    for (let i = 0; i < placed.length; i++)
      for (let j = i + 1; j < placed.length; j++) expect(overlap(placed[i].box, placed[j].box)).toBe(false);
  });

  test('property: no tag overlaps another tag or a marker, and every tag lies in the plot', () => {
    const pt = fc.record({
      x: fc.integer({ min: PLOT.x0, max: PLOT.x1 }),
      y: fc.integer({ min: PLOT.y0, max: PLOT.y1 }),
      text: fc.constantFrom('625', '1250', '2500', '5000', '10k', 'LPM', 'round-robin'),
    });
    fc.assert(
      fc.property(fc.array(pt, { minLength: 1, maxLength: 10 }), (raw) => {
        const pts = raw.map((p, i) => ({ ...p, point: i }));
        const placed = placeTags(pts, pts, PLOT, width, LINE);
        for (const t of placed) {
          const b = t.box;
          if (b.x0 < PLOT.x0 || b.x1 > PLOT.x1 || b.y0 < PLOT.y0 || b.y1 > PLOT.y1) return false;
          for (const m of pts)
            if (overlap(b, { x0: m.x - 5, y0: m.y - 5, x1: m.x + 5, y1: m.y + 5 })) return false;
        }
        for (let i = 0; i < placed.length; i++)
          for (let j = i + 1; j < placed.length; j++) if (overlap(placed[i].box, placed[j].box)) return false;
        // not vacuous: with a few points the first group always finds a place
        return pts.length > 3 || placed.length >= 1;
      }),
      { numRuns: 400 },
    );
  });
});

describe("the swept values' tags use one number format", () => {
  // Tryout: DoubleQ's Q^w swept 2 000 … 80 000 grouped three coinciding runs as "2 000 … 18.3k: 3 runs
  // here", grouped digits at one end and a k suffix at the other.
  const unitOf = (t: string) => (/[kMG]$/.exec(t)?.[0] ?? '') as string;
  for (const values of [
    [2000, 5030, 12600, 18300, 31800, 80000],
    [625, 1250, 2500, 5000, 10000],
    [0.5, 1, 2, 4, 8],
    [20000, 45000, 100000],
    [100000, 447000, 2000000],
  ])
    test(`${values.join(', ')}`, () => {
      const tags = valueTags(values);
      expect(new Set(tags.map(unitOf)).size, tags.join(' | ')).toBe(1);
      // different values never print equal
      expect(new Set(tags).size).toBe(values.length);
    });

  test('a group of coinciding runs reads in one unit, first … last', () => {
    const tags = valueTags([2000, 5030, 12600, 18300]);
    const pts: TagPoint[] = tags.map((text, i) => ({ x: 300 + i * 0.4, y: 90, text, point: i }));
    const [placed] = placeTags(pts, pts, PLOT, width, LINE);
    expect(placed.text).toBe('2\u202f000 … 18\u202f300: 4 runs here');
  });

  test('values under 10 000 are unchanged, grouped digits as everywhere in the UI', () => {
    expect(valueTags([625, 1250, 2500, 5000])).toEqual(['625', '1\u202f250', '2\u202f500', '5\u202f000']);
  });
});
