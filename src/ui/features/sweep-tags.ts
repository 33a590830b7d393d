/**
 * Where a sweep chart's value tags go (#13): points whose markers coincide on screen share one tag
 * ("625 … 10 000: 5 runs here", the same value said once, every value in one format), and every tag is placed where it overlaps no
 * other tag and no marker, inside the plot: next to its marker when there is room, else further
 * out with a leader line back to it. A tag that finds no free place is left out (its runs are still
 * named by their markers' titles and buttons), so two tags never overlap.
 */

import { setFormatter } from '../views/format';

export interface TagPoint {
  x: number;
  y: number;
  text?: string;
  /** The run this point opens. */
  point: number;
}

export interface PlacedTag {
  /** Text anchor (start of the text at `anchor: 'start'`, its end at 'end'). */
  x: number;
  y: number;
  anchor: 'start' | 'end';
  text: string;
  /** Every tag the text stands for, in sweep order (one per coinciding run). */
  tags: string[];
  /** Runs of the group. */
  points: number[];
  /** From the group's marker to the tag, when the tag sits away from it. */
  leader: [number, number, number, number] | null;
  /** The tag's box (for tests and overlap checks). */
  box: Box;
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The swept values' tags, one per value, in the given order, all in one format (setFormatter: one
 * unit for the set), so a group's "first … last" never mixes "2 000" with "18.3k".
 */
export function valueTags(values: readonly number[]): string[] {
  const fmt = setFormatter(values);
  return values.map(fmt);
}

/** Markers closer than this (px) are one point to the eye. */
export const SAME_POINT_PX = 4;
/** A marker's half size (circles r 5, diamonds 7 across the diagonal), plus its stroke. */
const MARKER_HALF = 7;

function overlap(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/**
 * Groups, in first-seen order, of the tagged points lying within SAME_POINT_PX of the group's first
 * point.
 */
export function groupCoinciding(points: readonly TagPoint[]): TagPoint[][] {
  const groups: TagPoint[][] = [];
  for (const p of points) {
    if (!p.text) continue;
    const g = groups.find((q) => Math.hypot(q[0].x - p.x, q[0].y - p.y) < SAME_POINT_PX);
    if (g) g.push(p);
    else groups.push([p]);
  }
  return groups;
}

/** One text for a group: its tag, two tags joined, or the first … last and the count. */
export function groupText(tags: readonly string[]): string {
  const unique = [...new Set(tags)];
  if (unique.length === 1) return tags.length === 1 ? unique[0] : `${unique[0]} (${tags.length} runs)`;
  if (unique.length === 2 && tags.length === 2) return `${unique[0]}, ${unique[1]}`;
  return `${tags[0]} … ${tags[tags.length - 1]}: ${tags.length} runs here`;
}

/**
 * Place every group's tag. `plot` bounds the tags; `markers` are all the chart's markers (tags keep
 * off them); `width` measures a text in the tags' font; `lineH` is the tags' line height.
 */
export function placeTags(
  points: readonly TagPoint[],
  markers: readonly { x: number; y: number }[],
  plot: Box,
  width: (text: string) => number,
  lineH: number,
): PlacedTag[] {
  const blocked: Box[] = markers.map((m) => ({
    x0: m.x - MARKER_HALF,
    y0: m.y - MARKER_HALF,
    x1: m.x + MARKER_HALF,
    y1: m.y + MARKER_HALF,
  }));
  const out: PlacedTag[] = [];
  for (const g of groupCoinciding(points)) {
    const tags = g.map((p) => p.text ?? '');
    const text = groupText(tags);
    const w = width(text);
    const { x: px, y: py } = g[0];
    // right, then left, of the marker; level with it, then above and below; near first, then further
    const places: { dx: number; dy: number; anchor: 'start' | 'end' }[] = [];
    for (const d of [0, 14, 30, 48])
      for (const [sx, dy, anchor] of [
        [1, -4 - d, 'start'],
        [1, lineH / 2 + 2 + d, 'start'],
        [-1, -4 - d, 'end'],
        [-1, lineH / 2 + 2 + d, 'end'],
      ] as const)
        places.push({ dx: sx * (MARKER_HALF + 2 + (d > 0 ? 6 : 0)), dy, anchor });
    let chosen: PlacedTag | null = null;
    for (const p of places) {
      const x = px + p.dx;
      const y = py + p.dy;
      const box = {
        x0: p.anchor === 'start' ? x : x - w,
        x1: p.anchor === 'start' ? x + w : x,
        y0: y - lineH * 0.8,
        y1: y + lineH * 0.25,
      };
      if (box.x0 < plot.x0 || box.x1 > plot.x1 || box.y0 < plot.y0 || box.y1 > plot.y1) continue;
      if (blocked.some((b) => overlap(b, box))) continue;
      const far = Math.abs(p.dy) > lineH + 6;
      const leader: PlacedTag['leader'] = far
        ? [
            px,
            py + Math.sign(p.dy) * MARKER_HALF,
            p.anchor === 'start' ? box.x0 : box.x1,
            p.dy < 0 ? box.y1 : box.y0,
          ]
        : null;
      chosen = { x, y, anchor: p.anchor, text, tags, points: g.map((q) => q.point), leader, box };
      break;
    }
    if (chosen) {
      out.push(chosen);
      blocked.push(chosen.box);
    }
  }
  return out;
}
