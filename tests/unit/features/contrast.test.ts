/**
 * The label colour exported charts use on a fill (src/ui/features/contrast.ts): a label keeps its
 * colour where it reads at WCAG AA (4.5:1) and is otherwise written black or white by the fill's
 * luminance. Checked over every colour of the theme in both modes, the canvas fallback palette and
 * a grid of the whole sRGB cube.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AA_TEXT,
  BLACK,
  contrast,
  labelColorOn,
  over,
  parseColor,
  type Rgba,
  readableOn,
  WHITE,
} from '../../../src/ui/features/contrast';
import { PALETTE_FALLBACK } from '../../../src/ui/views/palette';

const theme = readFileSync(join(__dirname, '../../../src/ui/theme.css'), 'utf8');

/** Every `--name: #hex` of the theme (light and dark blocks alike), as name → colours. */
function themeColours(): [string, Rgba][] {
  const out: [string, Rgba][] = [];
  for (const m of theme.matchAll(/(--[a-z0-9-]+):\s*(#[0-9a-fA-F]{3,6})\b/g)) {
    const c = parseColor(m[2]);
    if (c) out.push([`${m[1]} ${m[2]}`, c]);
  }
  return out;
}

const fills: [string, Rgba][] = [
  ...themeColours(),
  ...PALETTE_FALLBACK.map((h, i): [string, Rgba] => [`fallback ${i} ${h}`, parseColor(h) as Rgba]),
];

describe('label colour on a fill', () => {
  it('reaches AA on every colour of the theme and of the fallback palette', () => {
    expect(fills.length).toBeGreaterThan(30);
    const short = fills
      .map(([name, f]) => [name, contrast(labelColorOn(f), f)] as const)
      .filter(([, ratio]) => ratio < AA_TEXT);
    expect(short).toEqual([]);
  });

  it('the palette needs both colours: black alone and white alone each fail some fill', () => {
    // (so the test above fails for a rule that always picks one of them)
    expect(fills.some(([, f]) => contrast(BLACK, f) < AA_TEXT)).toBe(true);
    expect(fills.some(([, f]) => contrast(WHITE, f) < AA_TEXT)).toBe(true);
  });

  it('reaches AA on a grid over the whole sRGB cube (the worst fill still gives 4.58:1)', () => {
    let worst = Number.POSITIVE_INFINITY;
    for (let r = 0; r <= 255; r += 15)
      for (let g = 0; g <= 255; g += 15)
        for (let b = 0; b <= 255; b += 15) {
          const f = { r, g, b, a: 1 };
          worst = Math.min(worst, contrast(labelColorOn(f), f));
        }
    expect(worst).toBeGreaterThanOrEqual(AA_TEXT);
    expect(worst).toBeLessThan(4.7);
  });

  it('the tester case: dark text on the locked radix node (#0072b2) turns white; a label that reads keeps its colour', () => {
    const blue = parseColor('#0072b2') as Rgba;
    expect(contrast(BLACK, blue)).toBeCloseTo(4.05, 2);
    expect(readableOn(BLACK, blue)).toEqual(WHITE);
    const ink = parseColor('#1d1d1f') as Rgba;
    expect(readableOn(ink, WHITE)).toBe(ink);
    // a label on the yellow of the palette goes black, not white
    expect(readableOn(WHITE, parseColor('#f0e442') as Rgba)).toEqual(BLACK);
  });
});

describe('colours as computed styles report them', () => {
  it('reads rgb(), rgba(), color(srgb …) and hex; none and patterns are not colours', () => {
    expect(parseColor('rgb(0, 114, 178)')).toEqual({ r: 0, g: 114, b: 178, a: 1 });
    expect(parseColor('rgba(0, 0, 0, 0.55)')).toEqual({ r: 0, g: 0, b: 0, a: 0.55 });
    expect(parseColor('color(srgb 0.5 1 0 / 0.25)')).toEqual({ r: 127.5, g: 255, b: 0, a: 0.25 });
    expect(parseColor('#fff')).toEqual(WHITE);
    expect(parseColor('transparent')?.a).toBe(0);
    expect(parseColor('none')).toBeNull();
    expect(parseColor('url("#hatch")')).toBeNull();
  });

  it('composites a translucent fill over what lies under it', () => {
    expect(over({ r: 0, g: 0, b: 0, a: 0.5 }, WHITE)).toEqual({ r: 127.5, g: 127.5, b: 127.5, a: 1 });
    expect(over(BLACK, WHITE, 0.25)).toEqual({ r: 191.25, g: 191.25, b: 191.25, a: 1 });
  });
});
