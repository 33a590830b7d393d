/**
 * The DRR ring's centre label stays inside the ring's hole (tester finding: on a phone
 * "bulk" / "_uncached" wrapped under the hub and its second line ran into the "#2" segment label).
 */
import { describe, expect, it } from 'vitest';
import { splitCenterName } from '../../../src/ui/views/DrrRing';
import { centreLabel, lineBox, textWidth } from '../../../src/ui/views/ring-labels';

/** How far (viewBox units) each line's box reaches from the centre; the hole is 60, the ring beyond. */
function reach(c: ReturnType<typeof centreLabel>): number[] {
  const lines = c.lines.map((text, i) => ({ text, weight: 700 as 400 | 700, y: c.nameY[i] }));
  if (c.kY !== null) lines.unshift({ text: 'next scan', weight: 400, y: c.kY });
  return lines.map((l) => {
    const b = lineBox(textWidth(l.text, c.size, l.weight), c.size, l.y);
    return Math.hypot(b.width / 2, Math.max(Math.abs(b.top), Math.abs(b.bottom)));
  });
}

describe('centreLabel', () => {
  it('keeps a short name whole, at full size, under the hub with "next scan"', () => {
    const c = centreLabel('A', splitCenterName('A'), 10, false);
    expect(c).toMatchObject({ lines: ['A'], size: 15, shortened: false });
    expect(c.kY).not.toBeNull();
    expect(c.kY ?? 0).toBeGreaterThan(7);
  });

  it('the old layout of bulk_uncached (two lines at 34 and 51) reached into the ring', () => {
    const old = { lines: ['bulk', '_uncached'], size: 15, kY: 20, nameY: [34, 51.25], shortened: false };
    expect(Math.max(...reach(old))).toBeGreaterThan(60);
  });

  for (const name of ['bulk_uncached', 'interactive_cached', 'interactive_uncached', 'averyveryverylongname'])
    for (const above of [false, true])
      for (const minSize of [9, 12, 14.7, 15])
        it(`${name}, ${above ? 'above' : 'below'} the hub, at least ${minSize} units: inside the hole`, () => {
          const c = centreLabel(name, splitCenterName(name), minSize, above);
          expect(c.size).toBeGreaterThanOrEqual(Math.min(15, minSize));
          for (const r of reach(c)) expect(r).toBeLessThanOrEqual(58);
          // lines below the hub start below it, lines above it end above it
          for (const y of c.nameY) expect(above ? y < 0 : y > 7).toBe(true);
          // whole unless no size allowed fits it
          if (!c.shortened) expect(c.lines.join('').replace(/ /g, '')).toBe(name);
        });

  it('shortens with … only when no allowed size fits, and then says so', () => {
    const c = centreLabel('averyveryverylongname_and_more', ['averyveryverylongname', '_and_more'], 15, true);
    expect(c.shortened).toBe(true);
    expect(c.lines.some((l) => l.endsWith('…'))).toBe(true);
  });
});
