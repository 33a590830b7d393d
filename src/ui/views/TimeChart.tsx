/**
 * A time-series chart: SVG axes, grid, optional band and legend; the lines themselves in SVG while
 * they are few points, on a canvas underneath the SVG once they get dense (thousands of points).
 * d3 only computes scales and path strings; React owns every node, and the canvas is painted in an
 * effect (never at module scope, so server rendering works).
 */
import { line as d3line, scaleLinear } from 'd3';
import { useEffect, useRef } from 'react';
import { axisBand, TimeAxes, useAxisFont, YAxisTitle, yAxisLayout } from './TimeAxes';
import { useWidth } from './use-width';
import { colorFor, colorVarFor, PALETTE_FALLBACK, paletteSlot } from './palette';
import { useTimeSeek } from './time-seek';

export interface ChartLine {
  key: string;
  label: string;
  /** Palette index, or null for the ink colour. */
  colorIndex: number | null;
  values: number[];
  dashed?: boolean;
}

export interface ChartBand {
  lo: number[];
  hi: number[];
  label: string;
  /** A short name for notes when the band is clipped ("bound band 26,200 below the leader"). */
  short?: string;
}

export interface TimeChartProps {
  t: number[];
  lines: ChartLine[];
  yLabel: string;
  xLabel?: string;
  band?: ChartBand | null;
  /**
   * Fixed y range (e.g. [0, 1] for Jain's index); otherwise from the lines, starting at 0 when all
   * ≥ 0 (see `chartYDomain` for when the band counts).
   */
  yDomain?: [number, number];
  /** The text alternative: what the chart shows and its key numbers. */
  summary: string;
  highlightKey?: string | null;
  height?: number;
}

/** Chart width before the container has been measured (and in server rendering). */
export const CHART_W = 480;
/** Narrowest drawing width; below it the SVG scales down instead. */
const MIN_W = 240;
/** Margins; `left` is the least, widened to fit the y title and tick labels (`yAxisLayout`). */
const M = { top: 10, right: 12, bottom: 34, left: 40 };
/** Above this many points in total, lines go to the canvas. */
export const DENSE_POINTS = 2400;

function finiteExtent(arrays: readonly (readonly number[])[]): [number, number] | null {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const a of arrays)
    for (const v of a)
      if (Number.isFinite(v)) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
  return lo <= hi ? [lo, hi] : null;
}

/**
 * Samples with no defined neighbour: a line through them is a lone move-to that draws nothing, so
 * charts mark them with a dot instead (a pair backlogged together for a single sample, say).
 */
export function isolatedIndexes(values: readonly number[], t: readonly number[]): number[] {
  const ok = (i: number) =>
    i >= 0 && i < values.length && Number.isFinite(values[i]) && Number.isFinite(t[i]);
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (ok(i) && !ok(i - 1) && !ok(i + 1)) out.push(i);
  return out;
}

/**
 * How far a band may stretch the lines' own y span and still be included: beyond this it would
 * squash the lines, so it is clipped to the plot area instead.
 */
export const BAND_STRETCH = 1.5;

/**
 * The y domain of a chart and whether its band reaches outside it. The lines (the data) decide the
 * extent, from 0 when they are all ≥ 0; a band that only stretches it a little (by at most
 * `BAND_STRETCH`) is taken in so it shows whole, a wider one is clipped (`bandBeyond`). Niced to
 * about four ticks unless `fixed` is given. With no finite line values the band sets the extent.
 */
export function chartYDomain(
  lines: readonly (readonly number[])[],
  band?: ChartBand | null,
  fixed?: [number, number],
): { domain: [number, number]; bandBeyond: boolean } {
  const bandExt = band ? finiteExtent([band.lo, band.hi]) : null;
  const data = finiteExtent(lines);
  const tidy = (e: [number, number]): [number, number] => {
    let out: [number, number] = e[0] >= 0 ? [0, e[1]] : e;
    if (out[0] === out[1]) out = [out[0], out[0] + 1];
    return scaleLinear().domain(out).nice(4).domain() as [number, number];
  };
  const beyond = (d: [number, number]) => bandExt !== null && (bandExt[0] < d[0] || bandExt[1] > d[1]);
  if (fixed) return { domain: fixed, bandBeyond: beyond(fixed) };
  if (!data) {
    const d = tidy(bandExt ?? [0, 1]);
    return { domain: d, bandBeyond: beyond(d) };
  }
  const own = tidy(data);
  if (!bandExt || !beyond(own)) return { domain: own, bandBeyond: false };
  const both = tidy([Math.min(data[0], bandExt[0]), Math.max(data[1], bandExt[1])]);
  if (both[1] - both[0] <= BAND_STRETCH * (own[1] - own[0])) return { domain: both, bandBeyond: false };
  return { domain: own, bandBeyond: true };
}

/** The note for a band clipped to the plot area. */
export function bandBeyondText(band: ChartBand): string {
  return `${band.short ?? 'band'} extends beyond the chart`;
}

function r2(x: number): number {
  return Math.round(x * 100) / 100;
}

export function TimeChart(props: TimeChartProps) {
  const { t, lines, band } = props;
  const [boxRef, measured] = useWidth<HTMLDivElement>(CHART_W);
  const seekParts = useTimeSeek();
  const axisFont = useAxisFont();
  const W = Math.max(MIN_W, measured);
  const H = props.height ?? 220;
  const axisRoom = axisBand(axisFont, M.top);
  const y0 = H - axisRoom.bottom;
  const y1 = axisRoom.top;
  const { domain: yExt, bandBeyond } = chartYDomain(
    lines.map((l) => l.values),
    band,
    props.yDomain,
  );
  const y = scaleLinear().domain(yExt).range([y0, y1]);
  // the plot starts right of the y title and the widest tick label
  const yTitle = yAxisLayout(y, props.yLabel, y0 - y1, axisFont);
  const x0 = Math.max(M.left, yTitle.left);
  const x1 = W - M.right;
  const tExt = finiteExtent([t]) ?? [0, 1];
  const x = scaleLinear()
    .domain(tExt[0] === tExt[1] ? [tExt[0], tExt[0] + 1] : tExt)
    .range([x0, x1]);
  const totalPoints = lines.reduce((s, l) => s + l.values.length, 0);
  const dense = totalPoints > DENSE_POINTS;

  const path = d3line<number>()
    .defined((v, i) => Number.isFinite(v) && Number.isFinite(t[i]))
    .x((_v, i) => r2(x(t[i])))
    .y((v) => r2(y(v)));

  // Band edges are held inside the plot area: a band wider than the lines is drawn clipped.
  const clampY = (v: number) => r2(y(Math.min(yExt[1], Math.max(yExt[0], v))));
  const bandPath =
    band &&
    (() => {
      const pts: string[] = [];
      const back: string[] = [];
      for (let i = 0; i < t.length; i++) {
        const lo = band.lo[i];
        const hi = band.hi[i];
        if (!Number.isFinite(lo) || !Number.isFinite(hi) || !Number.isFinite(t[i])) continue;
        pts.push(`${r2(x(t[i]))},${clampY(hi)}`);
        back.push(`${r2(x(t[i]))},${clampY(lo)}`);
      }
      return pts.length > 1 ? `M${pts.join('L')}L${back.reverse().join('L')}Z` : null;
    })();
  const beyondNote = band && bandBeyond ? bandBeyondText(band) : null;
  // the text alternative says so too: the picture no longer shows the band whole
  const summary = beyondNote ? `${props.summary}; ${beyondNote}` : props.summary;

  const seek = seekParts({ x, x0, x1, y0, y1, width: W });

  return (
    <div className="chart" ref={boxRef} data-y-max={(y.domain() as [number, number])[1]}>
      {dense && (
        <DenseLines
          left={x0}
          yEdges={[y1, y0]}
          width={W}
          t={t}
          lines={lines}
          height={H}
          domainX={x.domain() as [number, number]}
          domainY={y.domain() as [number, number]}
          summary={summary}
          highlightKey={props.highlightKey ?? null}
        />
      )}
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role={dense ? undefined : 'img'}
        aria-label={dense ? undefined : summary}
        aria-hidden={dense ? true : undefined}
        // the key an exported image draws (the page's legend is HTML beside the chart, not in it)
        data-legend={
          lines.length > 1
            ? JSON.stringify(
                lines.map((l) => ({
                  label: l.label,
                  color: l.colorIndex === null ? 'var(--ink)' : colorFor(l.colorIndex),
                  dashed: !!l.dashed,
                })),
              )
            : undefined
        }
        {...seek.svgProps}
      >
        {!dense && <title>{summary}</title>}
        <g className="axis">
          <TimeAxes x={x} y={y} x0={x0} x1={x1} y0={y0} height={H} xLabel={props.xLabel} font={axisFont} />
          <YAxisTitle lines={yTitle.lines} y0={y0} y1={y1} font={axisFont} />
        </g>
        {bandPath && (
          <path className="band" d={bandPath} data-beyond={bandBeyond ? 'true' : undefined}>
            <title>{beyondNote ? `${band?.label} (${beyondNote})` : band?.label}</title>
          </path>
        )}
        {bandPath && beyondNote && (
          <text className="band-beyond" x={x0 + 6} y={y1 + 12}>
            <title>{beyondNote}</title>
            {/* about 6 px a character at 11 px: the short form when the full note would not fit */}
            {beyondNote.length * 6 <= x1 - x0 - 12 ? beyondNote : 'band extends beyond the chart'}
          </text>
        )}
        {!dense &&
          lines.map((l) => {
            const d = path(l.values);
            if (!d) return null;
            const hl = props.highlightKey;
            return (
              <path
                key={l.key}
                className="series-line"
                data-series={l.key}
                d={d}
                style={{
                  stroke: l.colorIndex === null ? 'var(--ink)' : colorFor(l.colorIndex),
                  strokeDasharray: l.dashed ? '5 3' : undefined,
                  strokeWidth: hl && hl === l.key ? 3.5 : undefined,
                  opacity: hl && hl !== l.key ? 0.45 : undefined,
                }}
              >
                <title>{l.label}</title>
              </path>
            );
          })}
        {!dense &&
          lines.flatMap((l) =>
            isolatedIndexes(l.values, t).map((i) => (
              <circle
                key={`${l.key}@${i}`}
                className="series-dot"
                cx={r2(x(t[i]))}
                cy={r2(y(l.values[i]))}
                r={2.5}
                style={{ fill: l.colorIndex === null ? 'var(--ink)' : colorFor(l.colorIndex) }}
              >
                <title>{l.label}</title>
              </circle>
            )),
          )}
        {seek.guide}
      </svg>
    </div>
  );
}

/**
 * The data-to-pixel scales of the plot area for a chart `width` × `height` wide: the SVG overlay and
 * the dense canvas both use them, so canvas lines sit on the SVG axes at any measured width.
 */
export function plotScales(
  width: number,
  height: number,
  domainX: [number, number],
  domainY: [number, number],
  /** The plot's left edge, as the SVG axes placed it (`yAxisLayout`). */
  left: number = M.left,
  /** The plot's top and bottom edges, as the SVG axes placed them (`axisBand`). */
  yEdges: [number, number] = [M.top, height - M.bottom],
): { x: (v: number) => number; y: (v: number) => number } {
  return {
    x: scaleLinear()
      .domain(domainX)
      .range([left, width - M.right]),
    y: scaleLinear().domain(domainY).range([yEdges[1], yEdges[0]]),
  };
}

interface DenseProps {
  width: number;
  /** The plot's left edge in px, the same as the SVG's. */
  left: number;
  /** The plot's top and bottom edges in px, the same as the SVG's. */
  yEdges: [number, number];
  t: number[];
  lines: ChartLine[];
  height: number;
  domainX: [number, number];
  domainY: [number, number];
  summary: string;
  highlightKey: string | null;
}

/** Painted lines for dense series; same coordinate system as the SVG overlay (2× for sharpness). */
function DenseLines({
  width,
  left,
  yEdges,
  t,
  lines,
  height,
  domainX,
  domainY,
  summary,
  highlightKey,
}: DenseProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const scale = 2;
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const paint = () => {
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      const style = getComputedStyle(canvas);
      ctx.setTransform(scale, 0, 0, scale, 0, 0);
      ctx.clearRect(0, 0, width, height);
      const { x, y } = plotScales(width, height, domainX, domainY, left, yEdges);
      ctx.save();
      ctx.beginPath();
      ctx.rect(M.left, yEdges[0] - 2, width - M.left - M.right, yEdges[1] - yEdges[0] + 4);
      ctx.clip();
      for (const l of lines) {
        const color =
          l.colorIndex === null
            ? style.getPropertyValue('--ink').trim() || '#1d1d1f'
            : style.getPropertyValue(colorVarFor(l.colorIndex)).trim() ||
              PALETTE_FALLBACK[paletteSlot(l.colorIndex)];
        ctx.strokeStyle = color;
        ctx.globalAlpha = highlightKey && highlightKey !== l.key ? 0.45 : 1;
        ctx.lineWidth = highlightKey === l.key ? 3 : 1.75;
        ctx.setLineDash(l.dashed ? [5, 3] : []);
        ctx.beginPath();
        let pen = false;
        for (let i = 0; i < l.values.length; i++) {
          const v = l.values[i];
          if (!Number.isFinite(v) || !Number.isFinite(t[i])) {
            pen = false;
            continue;
          }
          const px = x(t[i]);
          const py = y(v);
          if (pen) ctx.lineTo(px, py);
          else ctx.moveTo(px, py);
          pen = true;
        }
        ctx.stroke();
      }
      ctx.restore();
    };
    paint();
    // Repaint when the theme changes (colours come from CSS variables).
    const obs = new MutationObserver(paint);
    obs.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
    mq?.addEventListener?.('change', paint);
    return () => {
      obs.disconnect();
      mq?.removeEventListener?.('change', paint);
    };
  }, [
    width,
    left,
    yEdges[0],
    yEdges[1],
    t,
    lines,
    height,
    domainX[0],
    domainX[1],
    domainY[0],
    domainY[1],
    highlightKey,
  ]);
  return (
    <canvas
      ref={ref}
      width={width * scale}
      height={height * scale}
      role="img"
      aria-label={summary}
      data-dense-points={lines.reduce((s, l) => s + l.values.length, 0)}
    />
  );
}
