/**
 * The DRR ring's segment labels are written in `--cN-on` on a fill of `--cN` (palette.ts labelOnFor):
 * in every theme block of theme.css, each must be contrast.ts's choice for its fill (black or white,
 * whichever contrasts more) and read at WCAG AA (4.5:1). White on orange (#e69f00) was 2.1:1.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AA_TEXT, contrast, labelColorOn, parseColor } from '../../../src/ui/features/contrast';
import { labelOnFor, PALETTE_SIZE } from '../../../src/ui/views/palette';

const css = readFileSync('src/ui/theme.css', 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

/** The custom properties each rule sets, by selector (the media query's rule read as its own). */
function blocks(): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const m of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const vars = new Map<string, string>();
    for (const d of m[2].matchAll(/(--c\d(?:-on)?)\s*:\s*([^;]+);/g)) vars.set(d[1], d[2].trim());
    if (vars.size > 0) out.set(m[1].trim(), vars);
  }
  return out;
}

describe('ring label ink', () => {
  const all = blocks();
  const root = all.get(':root');
  it('theme.css defines the palette and its label inks at :root', () => {
    expect(root?.size).toBe(2 * PALETTE_SIZE);
    expect(labelOnFor(9)).toBe('var(--c1-on)');
  });
  for (const [selector, vars] of all)
    it(`every fill has its AA label ink in ${selector}`, () => {
      const bad: string[] = [];
      for (let i = 0; i < PALETTE_SIZE; i++) {
        // a theme block overrides some slots; the rest come from :root
        const fill = parseColor(vars.get(`--c${i}`) ?? root?.get(`--c${i}`) ?? '');
        const ink = parseColor(vars.get(`--c${i}-on`) ?? root?.get(`--c${i}-on`) ?? '');
        if (!fill || !ink) {
          bad.push(`--c${i}: unreadable`);
          continue;
        }
        const want = labelColorOn(fill);
        const ratio = contrast(ink, fill);
        if (ink.r !== want.r || ink.g !== want.g || ink.b !== want.b || ratio < AA_TEXT)
          bad.push(`--c${i}: ${ratio.toFixed(2)}:1`);
      }
      expect(bad).toEqual([]);
    });
});
