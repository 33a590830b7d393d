/**
 * Where a DRR ring segment's label may go (#13): a label is drawn only where every line of it lies
 * inside its own segment — between the ring's inner and outer circles and between the segment's two
 * edges — so no label runs over a neighbour, the hub or the visit arcs outside the ring. The ring
 * tries the class name over its queue count, then the name alone (an empty class), then the count
 * alone; a label that fits nowhere is left out (the class's name and numbers are in the deficit
 * table beside the ring, and in the segment's title).
 *
 * Geometry in the ring's viewBox units: the centre at (0, 0), angles clockwise from 12 o'clock.
 */

/** One line of a label: its text box relative to the label's anchor point (the segment's middle). */
export interface LabelLine {
  /** Width of the line's text (viewBox units). */
  width: number;
  /** Top and bottom of the line's glyph box, relative to the anchor's y. */
  top: number;
  bottom: number;
}

export interface Annulus {
  inner: number;
  outer: number;
  /** Segment edges (radians, clockwise from 12 o'clock, start < end). */
  start: number;
  end: number;
}

/** Clockwise angle of (x, y) from 12 o'clock, in [0, 2π). */
function angleOf(x: number, y: number): number {
  const a = Math.atan2(x, -y);
  return a < 0 ? a + 2 * Math.PI : a;
}

/** Whether the angle lies in [start, end] (the ring's angles never wrap past 2π). */
function within(a: number, start: number, end: number): boolean {
  return a >= start - 1e-9 && a <= end + 1e-9;
}

/** Distance from the origin to the nearest point of the box [x0, x1] × [y0, y1]. */
function nearest(x0: number, x1: number, y0: number, y1: number): number {
  const dx = x0 > 0 ? x0 : x1 < 0 ? -x1 : 0;
  const dy = y0 > 0 ? y0 : y1 < 0 ? -y1 : 0;
  return Math.hypot(dx, dy);
}

/**
 * Whether a label of these lines, centred horizontally on (ax, ay), lies inside the segment with a
 * margin of `pad` units: every corner of every line's box within the outer circle and between the
 * segment's edges, and no part of a box inside the inner circle.
 */
export function labelFits(
  lines: readonly LabelLine[],
  ax: number,
  ay: number,
  seg: Annulus,
  pad = 2,
): boolean {
  const outer = seg.outer - pad;
  const inner = seg.inner + pad;
  // the edges, pulled in by `pad` units at the label's radius
  const r = Math.max(1, Math.hypot(ax, ay));
  const da = Math.min(0.5, pad / r);
  const start = seg.start + da;
  const end = seg.end - da;
  if (end <= start) return false;
  for (const l of lines) {
    const x0 = ax - l.width / 2;
    const x1 = ax + l.width / 2;
    const y0 = ay + l.top;
    const y1 = ay + l.bottom;
    if (nearest(x0, x1, y0, y1) < inner) return false;
    for (const [x, y] of [
      [x0, y0],
      [x1, y0],
      [x0, y1],
      [x1, y1],
      // the middles of the long edges too: a segment wider than half the ring is not convex
      [ax, y0],
      [ax, y1],
    ] as const) {
      if (Math.hypot(x, y) > outer) return false;
      if (!within(angleOf(x, y), start, end)) return false;
    }
  }
  return true;
}

/** Glyph box of a line of `size`-unit text whose baseline is `baseline` units below the anchor. */
export function lineBox(width: number, size: number, baseline: number): LabelLine {
  return { width, top: baseline - 0.78 * size, bottom: baseline + 0.24 * size };
}

let ctx: CanvasRenderingContext2D | null | undefined;
let family = '';
const cache = new Map<string, number>();

/**
 * Width of `text` in the page's font at `size` units and `weight`, measured once on a canvas; where no
 * canvas exists (server rendering, tests) a generous estimate (0.7 em per character in bold, 0.62
 * otherwise), so a label is never judged to fit when it would not.
 */
export function textWidth(text: string, size: number, weight: 400 | 700): number {
  const key = `${weight}|${size}|${text}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  if (ctx === undefined) {
    try {
      ctx = typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d') : null;
      family =
        ctx && typeof getComputedStyle === 'function' ? getComputedStyle(document.body).fontFamily : '';
    } catch {
      ctx = null;
    }
  }
  let w: number;
  if (ctx && family) {
    ctx.font = `${weight} ${size}px ${family}`;
    // a little over the measured width: anti-aliasing and the label's stroke outline
    w = ctx.measureText(text).width + 2;
  } else w = text.length * size * (weight === 700 ? 0.7 : 0.62);
  cache.set(key, w);
  return w;
}

/** Radius (viewBox units) the ring's centre text keeps inside: the inner circle less a margin. */
const CENTRE_R = 58;
/** The hub and the cursor's shaft near it: the centre text starts this far above or below the centre. */
const CENTRE_CLEAR = 9;
/** Font size (viewBox units) of the centre's text as views.css draws it. */
const CENTRE_SIZE = 15;

/** The ring's centre label: "next scan" and the cursor's class name, laid out to stay in the hub. */
export interface CentreLabel {
  /** The name's lines (one or two; a line ends in '…' when shortened). */
  lines: string[];
  /** Font size of every line, "next scan" included (viewBox units). */
  size: number;
  /** Baseline of "next scan", or null when it is left out (no room above the hub). */
  kY: number | null;
  /** Baseline of each name line. */
  nameY: number[];
  shortened: boolean;
}

/** Whether every line (text, weight) at `size` with these baselines lies inside the centre circle. */
function centreFits(
  lines: readonly { text: string; weight: 400 | 700 }[],
  ys: readonly number[],
  size: number,
) {
  return lines.every((l, i) => {
    const b = lineBox(textWidth(l.text, size, l.weight), size, ys[i]);
    return Math.hypot(b.width / 2, Math.max(Math.abs(b.top), Math.abs(b.bottom))) <= CENTRE_R;
  });
}

/** Baselines of `n` lines stacked below the hub (first line first) or above it (last line lowest). */
function centreBaselines(n: number, size: number, above: boolean): number[] {
  const ys: number[] = [];
  if (!above) {
    let y = CENTRE_CLEAR + 0.78 * size;
    for (let i = 0; i < n; i++) {
      ys.push(y);
      y += 1.2 * size;
    }
    return ys;
  }
  let y = -CENTRE_CLEAR - 0.24 * size;
  for (let i = n - 1; i >= 0; i--) {
    ys[i] = y;
    y -= 1.2 * size;
  }
  return ys;
}

/**
 * Lay out "next scan" and the cursor's class `name` (or its two-line `split`) inside the ring's hole,
 * so no line reaches the ring and its segment labels. In this order: the name on one line, else on two,
 * at the full size or smaller down to `minSize` (the size that still draws 14 px on screen); then
 * without "next scan" (the arrow points at the class); then the lines shortened with '…' at `minSize`
 * (the name is whole in the legend, the ring's text alternative and the label's title). `above`: the
 * cursor points down, the text goes above the hub.
 */
export function centreLabel(
  name: string,
  split: readonly string[],
  minSize: number,
  above: boolean,
): CentreLabel {
  const floor = Math.min(CENTRE_SIZE, Math.max(1, minSize));
  const shapes = split.length > 1 ? [[name], [...split]] : [[name]];
  const tryAt = (lines: string[], size: number, withK: boolean, shortened: boolean): CentreLabel | null => {
    const texts: { text: string; weight: 400 | 700 }[] = lines.map((text) => ({ text, weight: 700 }));
    if (withK) texts.unshift({ text: 'next scan', weight: 400 });
    const ys = centreBaselines(texts.length, size, above);
    if (!centreFits(texts, ys, size)) return null;
    return { lines, size, kY: withK ? ys[0] : null, nameY: withK ? ys.slice(1) : ys, shortened };
  };
  const sizes: number[] = [];
  for (let size = CENTRE_SIZE; size > floor; size -= 0.5) sizes.push(size);
  sizes.push(floor);
  for (const withK of [true, false])
    for (const size of sizes)
      for (const lines of shapes) {
        const hit = tryAt(lines, size, withK, false);
        if (hit) return hit;
      }
  // shorten the longest line, one character at a time, at the floor size
  const lines = [...shapes[shapes.length - 1]];
  for (;;) {
    for (const withK of [true, false]) {
      const hit = tryAt([...lines], floor, withK, true);
      if (hit) return hit;
    }
    let longest = 0;
    for (let i = 1; i < lines.length; i++) if (lines[i].length > lines[longest].length) longest = i;
    const bare = lines[longest].replace(/…$/, '');
    if (bare.length <= 1)
      return {
        lines: [...lines],
        size: floor,
        kY: null,
        nameY: centreBaselines(lines.length, floor, above),
        shortened: true,
      };
    lines[longest] = `${bare.slice(0, -1)}…`;
  }
}
