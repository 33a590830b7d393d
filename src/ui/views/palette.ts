/**
 * One colour per client or policy class, taken from the theme's Okabe–Ito variables (--c0 .. --c7), so a
 * client keeps its colour in every view and in both themes. Index = the client's position in the
 * snapshot's client order, or the class's position on the DRR ring. A view uses colour for one of
 * the two only; clients also always carry a shape (`clientShape`), which no class ever does, so a
 * client is told apart from a class, and from another client, without colour.
 */
export const PALETTE_SIZE = 8;

/** Palette slot for an index (wraps around; negative or fractional indexes are folded in). */
export function paletteSlot(index: number): number {
  const i = Number.isFinite(index) ? Math.floor(index) : 0;
  return ((i % PALETTE_SIZE) + PALETTE_SIZE) % PALETTE_SIZE;
}

/** A CSS colour value (`var(--cN)`) for SVG/HTML styles. */
export function colorFor(index: number): string {
  return `var(--c${paletteSlot(index)})`;
}

/**
 * The colour for text drawn on a fill of `colorFor(index)`: black or white, whichever contrasts more
 * (theme.css's `--cN-on`, chosen with contrast.ts's `labelColorOn`; a unit test keeps them so). On the
 * orange, pink, green, sky blue, vermillion and yellow slots that is black (white on them was 2–3:1).
 */
export function labelOnFor(index: number): string {
  return `var(--c${paletteSlot(index)}-on)`;
}

/** The palette variable name (`--cN`) for code that must resolve the colour itself (canvas). */
export function colorVarFor(index: number): string {
  return `--c${paletteSlot(index)}`;
}

/** Fallback colours when a canvas cannot read the CSS variables (same Okabe–Ito order). */
export const PALETTE_FALLBACK = [
  '#0072b2',
  '#e69f00',
  '#009e73',
  '#cc79a7',
  '#56b4e9',
  '#d55e00',
  '#f0e442',
  '#000000',
] as const;

/** One shape per client (by its index), distinct without colour; classes never get one. */
export const CLIENT_SHAPES = ['●', '▲', '■', '◆', '▼', '★', '✚', '⬟'] as const;

export function clientShape(index: number): string {
  return CLIENT_SHAPES[((index % CLIENT_SHAPES.length) + CLIENT_SHAPES.length) % CLIENT_SHAPES.length];
}
