/** The axes every time chart shares: y gridlines with labels, the x baseline with ticks, the x title. */
import type { ScaleLinear } from 'd3';
import { tickFormatter } from './format';

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

/** About how long a y title is at 14 px (mean glyph width of mixed lowercase text, 0.53 em). */
function titleLength(s: string): number {
  return s.length * 0.53 * AXIS_FONT;
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
): { left: number; lines: string[] } {
  const words = title.split(' ');
  const lines: string[] = [];
  for (const w of words) {
    const last = lines.length - 1;
    if (last >= 0 && titleLength(`${lines[last]} ${w}`) <= plotHeight) lines[last] = `${lines[last]} ${w}`;
    else lines.push(w);
  }
  const yFmt = tickFormatter(y.ticks(4));
  const widest = Math.max(0, ...y.ticks(4).map((v) => tickLabelWidth(yFmt(v))));
  // last title line's baseline + its descent, a gap, the widest label, the 6 px before the axis
  const left = TITLE_X + TITLE_LINE * (lines.length - 1) + 4 + 4 + widest + 6;
  return { left: Math.ceil(left), lines };
}

/** The y title laid out by `yAxisLayout`, centred on the plot's height. */
export function YAxisTitle({ lines, y0, y1 }: { lines: string[]; y0: number; y1: number }) {
  const mid = r2(y1 + (y0 - y1) / 2);
  return (
    <text
      className="axis-title y-title"
      transform={`translate(${TITLE_X} ${mid}) rotate(-90)`}
      textAnchor="middle"
    >
      {lines.map((l, i) => (
        <tspan key={l} x={0} dy={i === 0 ? 0 : TITLE_LINE}>
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
}: {
  x: ScaleLinear<number, number>;
  y: ScaleLinear<number, number>;
  /** Left and right ends of the plot area, and its baseline, in px. */
  x0: number;
  x1: number;
  y0: number;
  height: number;
  xLabel?: string;
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
          <text x={r2(x(v))} y={y0 + 16} textAnchor="middle">
            {xFmt(v)}
          </text>
        </g>
      ))}
      <text className="axis-title" x={x1} y={height - 2} textAnchor="end">
        {xLabel}
      </text>
    </>
  );
}
