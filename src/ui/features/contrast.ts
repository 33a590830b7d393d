/**
 * Text colour against the fill behind it, by WCAG 2 relative luminance: exported charts keep a
 * label's own colour where it reads at AA (4.5:1) and otherwise write it in black or white, whichever
 * contrasts more with the fill. Any opaque fill has one of the two at 4.58:1 or more (the worst case
 * is a fill of luminance 0.179, where both give the same ratio), so the rule always reaches AA.
 */

/** An sRGB colour, channels 0..255, alpha 0..1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** WCAG AA for normal-size text. */
export const AA_TEXT = 4.5;

export const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };
export const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * A colour as the browser reports it in a computed style ("rgb(0, 114, 178)", "rgba(…, 0.5)",
 * "color(srgb 0.1 0.2 0.3 / 0.5)" for a color-mix()) or as written in the theme ("#0072b2", "#fff").
 * Null for anything else ("none", "url(#pattern)", "transparent" is alpha 0).
 */
export function parseColor(text: string): Rgba | null {
  const s = text.trim().toLowerCase();
  if (s === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(s);
  if (hex) {
    const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
    return {
      r: Number.parseInt(h.slice(0, 2), 16),
      g: Number.parseInt(h.slice(2, 4), 16),
      b: Number.parseInt(h.slice(4, 6), 16),
      a: 1,
    };
  }
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(s);
  if (rgb) return { r: +rgb[1], g: +rgb[2], b: +rgb[3], a: alpha(rgb[4]) };
  const srgb = /^color\(srgb\s+([\d.e-]+)\s+([\d.e-]+)\s+([\d.e-]+)(?:\s*\/\s*([\d.]+%?))?\s*\)$/.exec(s);
  if (srgb)
    return {
      r: clamp(+srgb[1], 0, 1) * 255,
      g: clamp(+srgb[2], 0, 1) * 255,
      b: clamp(+srgb[3], 0, 1) * 255,
      a: alpha(srgb[4]),
    };
  return null;
}

function alpha(v: string | undefined): number {
  if (v === undefined) return 1;
  return clamp(v.endsWith('%') ? Number.parseFloat(v) / 100 : Number.parseFloat(v), 0, 1);
}

/** `top` drawn with opacity `top.a × opacity` over the opaque `under`. */
export function over(top: Rgba, under: Rgba, opacity = 1): Rgba {
  const a = clamp(top.a * opacity, 0, 1);
  return {
    r: top.r * a + under.r * (1 - a),
    g: top.g * a + under.g * (1 - a),
    b: top.b * a + under.b * (1 - a),
    a: 1,
  };
}

/** WCAG 2 relative luminance of an (opaque) sRGB colour, 0 (black) .. 1 (white). */
export function luminance(c: Rgba): number {
  const lin = (v: number) => {
    const x = clamp(v, 0, 255) / 255;
    return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** WCAG 2 contrast ratio of two opaque colours, 1 .. 21. */
export function contrast(a: Rgba, b: Rgba): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Black or white, whichever contrasts more with the opaque `fill` (decided by its luminance). */
export function labelColorOn(fill: Rgba): Rgba {
  return contrast(BLACK, fill) >= contrast(WHITE, fill) ? BLACK : WHITE;
}

/** The colour a label of colour `text` should take on `fill`: its own where it reads at AA, else black or white. */
export function readableOn(text: Rgba, fill: Rgba): Rgba {
  return contrast(text, fill) >= AA_TEXT ? text : labelColorOn(fill);
}

export function cssColor(c: Rgba): string {
  return `rgb(${Math.round(c.r)}, ${Math.round(c.g)}, ${Math.round(c.b)})`;
}
