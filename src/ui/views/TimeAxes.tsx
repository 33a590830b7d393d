/** The axes every time chart shares: y gridlines with labels, the x baseline with ticks, the x title. */
import type { ScaleLinear } from 'd3';
import { usePresent } from '../present/store';
import { tickFormatter } from './format';

/** Presentation mode draws the views' text at 18 px (theme.css `.app.presenting .view`), else 14 px. */
export const PRESENT_AXIS_FONT = 18;

/** The axis text's size now, for `yAxisLayout` and `YAxisTitle`: they must leave room for it. */
export function useAxisFont(): number {
  return usePresent((s) => s.presenting) ? PRESENT_AXIS_FONT : 14;
}

/**
 * Room above and below the plot for axis text at `font` px: the top tick label's upper half, and
 * under the baseline the x tick labels (from 4 px below it) then the x title on a line of its own,
 * each by its font's ascent (0.93 em) and descent (0.24 em), so neither leaves the SVG (tester F5).
 */
export function axisBand(font: number, top: number): { top: number; bottom: number } {
  return { top: Math.max(top, Math.ceil(0.62 * font) + 1), bottom: Math.ceil(6 + 2.34 * font) };
}

/** Round to 0.01 px: stable markup for snapshots, no visible difference. */
export function r2(v: number): number {
  return Math.round(v * 100) / 100;
}

/** Axis text size in px (views.css `.view .axis text`, `.axis-title`). */
const AXIS_FONT = 14;
/** Distance between the lines of a wrapped y title, px. */
const TITLE_LINE = 16;
/** Baseline of the first y-title line from the chart's left edge: room for its ascent. */
const TITLE_X = 14;

/**
 * Width a tick label takes at 14 px, estimated generously from its characters (DejaVu Sans, the
 * widest of the fonts we fall back to: digits 0.64 em, narrow spaces and points about 0.35 em).
 */
export function tickLabelWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    if (/[0-9]/.test(ch)) w += 0.64;
    else if (ch === '.' || ch === ',' || ch === ' ' || ch === '\u202f') w += 0.36;
    else if (ch === '−' || ch === '-') w += 0.84;
    else w += 0.72;
  }
  return w * AXIS_FONT;
}

/**
 * About how long a y title is at `font` px: 0.6 em a character, DejaVu Sans's mean for mixed
 * lowercase text with spaces and brackets (0.53 em underestimated it: a title said to fit the plot's
 * height ran past the SVG's top, tester F5).
 */
function titleLength(s: string, font: number): number {
  return s.length * 0.6 * font;
}

/** The y title's line spacing and first baseline at `font` px (14 px: 16 and 14, as before). */
function titleMetrics(font: number): { line: number; x: number } {
  return { line: (TITLE_LINE * font) / AXIS_FONT, x: (TITLE_X * font) / AXIS_FONT };
}

/**
 * The rotated y title and the plot's left edge: the title is split at spaces into as few lines as
 * fit the plot's height, and the plot starts right of the title's last line plus the widest tick
 * label, so neither overlaps the other whatever the numbers are.
 */
export function yAxisLayout(
  y: ScaleLinear<number, number>,
  title: string,
  plotHeight: number,
  /** The axis text's size on screen: 14 px, 18 px while presenting (theme.css `.app.presenting`). */
  font = AXIS_FONT,
): { left: number; lines: string[] } {
  const words = title.split(' ');
  const lines: string[] = [];
  for (const w of words) {
    const last = lines.length - 1;
    if (last >= 0 && titleLength(`${lines[last]} ${w}`, font) <= plotHeight)
      lines[last] = `${lines[last]} ${w}`;
    else lines.push(w);
  }
  const yFmt = tickFormatter(y.ticks(4));
  const scale = font / AXIS_FONT;
  const widest = Math.max(0, ...y.ticks(4).map((v) => tickLabelWidth(yFmt(v)) * scale));
  const m = titleMetrics(font);
  // last title line's baseline + its descent, a gap, the widest label, the 6 px before the axis
  const left = m.x + m.line * (lines.length - 1) + 4 * scale + 4 * scale + widest + 6;
  return { left: Math.ceil(left), lines };
}

/** The y title laid out by `yAxisLayout`, centred on the plot's height. */
export function YAxisTitle({
  lines,
  y0,
  y1,
  font = AXIS_FONT,
}: {
  lines: string[];
  y0: number;
  y1: number;
  font?: number;
}) {
  const mid = r2(y1 + (y0 - y1) / 2);
  const m = titleMetrics(font);
  return (
    <text
      className="axis-title y-title"
      transform={`translate(${r2(m.x)} ${mid}) rotate(-90)`}
      textAnchor="middle"
    >
      {lines.map((l, i) => (
        <tspan key={l} x={0} dy={i === 0 ? 0 : r2(m.line)}>
          {l}
        </tspan>
      ))}
    </text>
  );
}

export function TimeAxes({
  x,
  y,
  x0,
  x1,
  y0,
  height,
  xLabel = 'simulated time (s)',
  font = AXIS_FONT,
}: {
  x: ScaleLinear<number, number>;
  y: ScaleLinear<number, number>;
  /** Left and right ends of the plot area, and its baseline, in px. */
  x0: number;
  x1: number;
  y0: number;
  height: number;
  xLabel?: string;
  /** The axis text's size (`useAxisFont`). */
  font?: number;
}) {
  const yFmt = tickFormatter(y.ticks(4));
  const xFmt = tickFormatter(x.ticks(5));
  return (
    <>
      {y.ticks(4).map((v) => (
        <g key={`y${v}`}>
          <line className="gridline" x1={x0} x2={x1} y1={r2(y(v))} y2={r2(y(v))} />
          <text x={x0 - 6} y={r2(y(v))} dy="0.32em" textAnchor="end">
            {yFmt(v)}
          </text>
        </g>
      ))}
      <line x1={x0} x2={x1} y1={y0} y2={y0} />
      {x.ticks(5).map((v) => (
        <g key={`x${v}`}>
          <line x1={r2(x(v))} x2={r2(x(v))} y1={y0} y2={y0 + 4} />
          <text x={r2(x(v))} y={r2(y0 + 4 + 0.93 * font)} textAnchor="middle">
            {xFmt(v)}
          </text>
        </g>
      ))}
      <text className="axis-title" x={x1} y={r2(height - 1 - 0.24 * font)} textAnchor="end">
        {xLabel}
      </text>
    </>
  );
}
