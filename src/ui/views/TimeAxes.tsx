/** The axes every time chart shares: y gridlines with labels, the x baseline with ticks, the x title. */
import type { ScaleLinear } from 'd3';
import { fmtNum } from './format';

/** Round to 0.01 px: stable markup for snapshots, no visible difference. */
export function r2(v: number): number {
  return Math.round(v * 100) / 100;
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
  return (
    <>
      {y.ticks(4).map((v) => (
        <g key={`y${v}`}>
          <line className="gridline" x1={x0} x2={x1} y1={r2(y(v))} y2={r2(y(v))} />
          <text x={x0 - 6} y={r2(y(v))} dy="0.32em" textAnchor="end">
            {fmtNum(v)}
          </text>
        </g>
      ))}
      <line x1={x0} x2={x1} y1={y0} y2={y0} />
      {x.ticks(5).map((v) => (
        <g key={`x${v}`}>
          <line x1={r2(x(v))} x2={r2(x(v))} y1={y0} y2={y0 + 4} />
          <text x={r2(x(v))} y={y0 + 16} textAnchor="middle">
            {fmtNum(v)}
          </text>
        </g>
      ))}
      <text className="axis-title" x={x1} y={height - 2} textAnchor="end">
        {xLabel}
      </text>
    </>
  );
}
