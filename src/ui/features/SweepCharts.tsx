/**
 * The sweep's charts: the throughput/fairness frontier (paper Fig. 1, points tagged with their swept
 * value), the swept parameter against throughput and Jain's index (paper Fig. 10), and the swept
 * parameter against latency. d3 computes the scales and paths; React owns the nodes. Each point
 * opens its run. A metric that barely moves across the sweep gets its natural range and a note
 * instead of an auto-zoomed axis (see sweep-axes.ts).
 */
import { line as d3line, scaleLinear, scaleLog } from 'd3';
import { useRef, useState } from 'react';
import type { RunResult } from '../../core/sim';
import { downloadPng, downloadSvg } from './charts';
import { type AxisRule, axisRange, flatNote, type JainWindow, jainWindowNote } from './sweep-axes';
import type { SweepPoint, SweepRun } from './store';
import { placeTags, valueTags } from './sweep-tags';
import { fmtNum, setFormatter, tickFormatter } from '../views/format';
import { textWidth } from '../views/ring-labels';
import { useWidth } from '../views/use-width';
import { CLIENT_VIEW, CLIENT_VIEW_WHAT, SYSTEM_VIEW, SYSTEM_VIEW_WHAT } from '../views/jain-views';
import './sweep.css';

/** The sweep's two measures of Jain's index, named and defined as everywhere else on the page. */
const JAIN_VIEWS = [
  { id: 'client', label: `${CLIENT_VIEW} (whole prompts)`, what: CLIENT_VIEW_WHAT },
  { id: 'system', label: `${SYSTEM_VIEW} (computed tokens)`, what: SYSTEM_VIEW_WHAT },
] as const;

/** The text's size on screen (features.css `.sweep-svg`): viewBox units when drawn at full width. */
const TAG_PX = 14;

const W = 340;
const H = 250;

type Done = SweepPoint & { result: RunResult };

/** A point's value in the text alternative: the UI's one number format (the swept values' tags: valueTags). */
const fmt = (v: number): string => fmtNum(v);

/** Prompt + output tokens of completed requests per second, as core computes it (the paper's throughput). */
export function throughputOf(r: RunResult): number {
  return r.throughput.completed_tokens_per_s;
}

interface Series {
  label: string;
  /** CSS colour. */
  color: string;
  dashed?: boolean;
  axis: 'left' | 'right';
  /** `detail`: more about the point for its tooltip (the window its Jain's index covers). */
  pts: { x: number; y: number; point: number; tag?: string; detail?: string }[];
  /** Join the points with a line: only where x is the swept parameter, so the line follows the sweep. */
  connect: boolean;
  /** Circles for swept points, diamonds for baselines. */
  marker: 'circle' | 'diamond';
}

/** What an axis shows: its range rule and, for the note under the chart, the metric's name. */
interface Axis {
  rule: AxisRule;
  metric?: string;
}

interface ChartProps {
  title: string;
  xLabel: string;
  yLabel: string;
  y2Label?: string;
  xLog?: boolean;
  /** The x values are whole numbers (a worker count): no ticks in between. */
  xIntegers?: boolean;
  xAxis: Axis;
  yAxis: Axis;
  y2Axis?: Axis;
  series: Series[];
  sweep: SweepRun;
  onOpen: (index: number) => void;
  /** Whether markers are keyboard buttons (one chart only, so each run is one tab stop). */
  focusable: boolean;
  /** Notes under the chart about what its points measure (unlike Jain windows). */
  notes?: string[];
}

function pointLabel(sweep: SweepRun, i: number): string {
  const p = sweep.points[i];
  return p.value === null ? p.label : `${p.label}`;
}

function Chart(props: ChartProps) {
  const { series, sweep } = props;
  // The chart is drawn at its figure's width: on a phone that is below the viewBox's W (0.88 of it at
  // 390 px), so the text takes more viewBox units to stay at 14 px on screen (#13)
  const [boxRef, drawnW] = useWidth<HTMLDivElement>(W);
  const fontPx = drawnW > 0 && drawnW < W ? Math.ceil((TAG_PX * W * 100) / drawnW) / 100 : TAG_PX;
  const leftSeries = series.filter((s) => s.axis === 'left');
  const rightSeries = series.filter((s) => s.axis === 'right');
  const right = rightSeries.flatMap((s) => s.pts.map((p) => p.y));
  const xRange = axisRange(
    props.xAxis.rule,
    series.map((s) => s.pts.map((p) => p.x)),
  );
  const yRange = axisRange(
    props.yAxis.rule,
    leftSeries.map((s) => s.pts.map((p) => p.y)),
  );
  const y2Range = axisRange(
    props.y2Axis?.rule ?? 'fit',
    rightSeries.map((s) => s.pts.map((p) => p.y)),
  );
  const [x0, x1] = xRange.domain;
  const useLog = props.xLog === true && x0 > 0;
  // The tick values depend on the domains only, so the margins can be measured from their labels
  // first: room for the widest tick number plus the axis title beside it, never one on the other (F2).
  const y = scaleLinear().domain(yRange.domain).nice();
  const y2 = scaleLinear().domain(y2Range.domain).nice();
  const yTicks = y.ticks(5);
  const y2Ticks = y2.ticks(5);
  // One format per axis: one k/M suffix, and the decimals a narrow range (Jain's 0.519–0.522) needs.
  const yFmt = tickFormatter(yTicks);
  const y2Fmt = tickFormatter(y2Ticks);
  const tw = (text: string) => textWidth(text, fontPx, 400);
  const widest = (ts: number[], f: (t: number) => string) => Math.max(0, ...ts.map((t) => tw(f(t))));
  // A text's box reaches about 0.93 em above its baseline and 0.24 em below (DejaVu Sans, the
  // fallback in headless browsers; most sans faces are close).
  const ASC = 0.93 * fontPx;
  const DESC = 0.24 * fontPx;
  const titleBand = ASC + DESC + 2;
  const TICK_GAP = 6;
  const hasRight = right.length > 0;
  // On a log axis the ticks are the swept values themselves (thinned evenly to n): powers of ten
  // alone would leave a 0.5 → 8 sweep with the single tick 1.
  const sweptXs = [...new Set(series.flatMap((s) => s.pts.map((p) => p.x)))].sort((a, b) => a - b);
  const xCandidates = (n: number): number[] => {
    if (useLog) return thin(sweptXs, n);
    const s = scaleLinear().domain([x0, x1]).nice();
    return s.ticks(n).filter((t) => !props.xIntegers || Number.isInteger(t));
  };
  // On a log axis the ticks are swept values: written as the points' tags are (one unit, each value
  // exact: "625, 2 500, 10 000"), where one number of decimals for all gave "0.625k, 2.500k, 10.000k"
  const xFormatter = (ts: readonly number[]) => (useLog ? setFormatter(ts) : tickFormatter(ts));
  const M = {
    top: Math.ceil(ASC / 2) + 4,
    left: Math.ceil(2 + titleBand + TICK_GAP + widest(yTicks, yFmt) + TICK_GAP),
    right: hasRight
      ? Math.ceil(TICK_GAP + widest(y2Ticks, y2Fmt) + TICK_GAP + titleBand + 2)
      : Math.ceil(Math.max(12, tw(xFormatter(xCandidates(5))(xCandidates(5).at(-1) ?? 0)) / 2 + 4)),
    bottom: Math.ceil(8 + ASC + DESC + 4 + ASC + DESC + 2),
  };
  const x = (useLog ? scaleLog() : scaleLinear()).domain([x0, x1]).range([M.left, W - M.right]);
  if (!useLog) x.nice();
  y.range([H - M.bottom, M.top]);
  y2.range([H - M.bottom, M.top]);
  // As many x ticks as fit side by side with a gap of half an em between their labels.
  const fits = (ts: number[]) => {
    const f = xFormatter(ts);
    return ts.every((t, i) => {
      if (i === 0) return true;
      const prev = ts[i - 1];
      return x(t) - x(prev) >= (tw(f(t)) + tw(f(prev))) / 2 + fontPx / 2;
    });
  };
  let xTicks = xCandidates(2);
  for (const n of [6, 5, 4, 3]) {
    const ts = xCandidates(n);
    if (fits(ts)) {
      xTicks = ts;
      break;
    }
  }
  if (!fits(xTicks)) xTicks = [xTicks[0], xTicks.at(-1) ?? xTicks[0]].filter((t, i, a) => a.indexOf(t) === i);
  const xFmt = xFormatter(xTicks);
  // the series that decide flatness (two points or more; a baseline is one), one array each
  const judged = (list: Series[], pick: (p: Series['pts'][number]) => number) =>
    list.filter((s) => s.pts.length > 1).map((s) => s.pts.map(pick));
  const flatMetrics = [
    ...(xRange.flat && props.xAxis.metric
      ? [{ name: props.xAxis.metric, series: judged(series, (p) => p.x) }]
      : []),
    ...(yRange.flat && props.yAxis.metric
      ? [{ name: props.yAxis.metric, series: judged(leftSeries, (p) => p.y) }]
      : []),
    ...(y2Range.flat && right.length > 0 && props.y2Axis?.metric
      ? [{ name: props.y2Axis.metric, series: judged(rightSeries, (p) => p.y) }]
      : []),
  ];
  const note = flatNote(flatMetrics);
  // every series' tagged points, in series order: coinciding markers share one tag
  const onScreen = series.flatMap((s) => {
    const yy = s.axis === 'left' ? y : y2;
    return s.pts.map((p) => ({ x: x(p.x), y: yy(p.y), text: p.tag, point: p.point }));
  });
  const tags = placeTags(
    onScreen,
    onScreen,
    { x0: M.left + 2, y0: 2, x1: hasRight ? W - M.right - 2 : W - 2, y1: H - M.bottom - 2 },
    (text) => textWidth(text, fontPx, 400),
    fontPx * 1.2,
  );
  // An axis title centred on its plot, moved along if it is longer than the plot but stays in the SVG.
  const titleAt = (len: number, lo: number, hi: number, max: number) =>
    Math.min(Math.max((lo + hi) / 2, len / 2 + 2), max - len / 2 - 2);
  const yTitleC = titleAt(tw(props.yLabel), M.top, H - M.bottom, H);
  const y2TitleC = titleAt(tw(props.y2Label ?? ''), M.top, H - M.bottom, H);
  const xTitleC = titleAt(tw(props.xLabel), M.left, W - M.right, W);
  const path = d3line<{ x: number; y: number }>()
    .x((d) => d.x)
    .y((d) => d.y);
  const summary = `${props.title}: ${series
    .map((s) => `${s.label}: ${s.pts.map((p) => `(${fmt(p.x)}, ${fmt(p.y)})`).join(' ')}`)
    .join('; ')}`;
  const svgRef = useRef<SVGSVGElement>(null);
  const save = (kind: 'svg' | 'png') => {
    const svg = svgRef.current;
    if (!svg) return;
    const chart = { id: props.title, title: `sweep ${props.title}`, svg };
    if (kind === 'svg') downloadSvg(chart);
    else void downloadPng(chart);
  };
  return (
    <figure className="sweep-chart">
      <figcaption>
        <span>{props.title}</span>
        <button
          type="button"
          className="small"
          onClick={() => save('svg')}
          aria-label={`${props.title} as SVG`}
        >
          SVG
        </button>
        <button
          type="button"
          className="small"
          onClick={() => save('png')}
          aria-label={`${props.title} as PNG`}
        >
          PNG
        </button>
      </figcaption>
      <div ref={boxRef}>
        <svg
          ref={svgRef}
          viewBox={`0 0 ${W} ${H}`}
          width="100%"
          // With keyboard markers the chart is a group of buttons; otherwise one image with a text alternative.
          role={props.focusable ? 'group' : 'img'}
          aria-label={summary}
          xmlns="http://www.w3.org/2000/svg"
          className="sweep-svg"
          style={fontPx !== TAG_PX ? ({ '--sweep-font': `${fontPx}px` } as React.CSSProperties) : undefined}
        >
          <title>{props.title}</title>
          <rect x={0} y={0} width={W} height={H} className="chart-bg" />
          {yTicks.map((t) => (
            <g key={`y${t}`}>
              <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} className="grid" />
              <text x={M.left - TICK_GAP} y={y(t)} dy="0.32em" textAnchor="end" className="tick">
                {yFmt(t)}
              </text>
            </g>
          ))}
          {right.length > 0 &&
            y2Ticks.map((t) => (
              <text key={`r${t}`} x={W - M.right + TICK_GAP} y={y2(t)} dy="0.32em" className="tick">
                {y2Fmt(t)}
              </text>
            ))}
          {xTicks.map((t) => (
            <g key={`x${t}`}>
              <line x1={x(t)} x2={x(t)} y1={H - M.bottom} y2={H - M.bottom + 4} className="axis" />
              <text x={x(t)} y={H - M.bottom + 8 + ASC} textAnchor="middle" className="tick">
                {xFmt(t)}
              </text>
            </g>
          ))}
          <line x1={M.left} x2={W - M.right} y1={H - M.bottom} y2={H - M.bottom} className="axis" />
          <line x1={M.left} x2={M.left} y1={M.top} y2={H - M.bottom} className="axis" />
          <text x={xTitleC} y={H - 2 - DESC} textAnchor="middle" className="axis-label">
            {props.xLabel}
          </text>
          <text
            transform={`translate(${2 + ASC} ${yTitleC}) rotate(-90)`}
            textAnchor="middle"
            className="axis-label"
          >
            {props.yLabel}
          </text>
          {props.y2Label && right.length > 0 && (
            <text
              transform={`translate(${W - 2 - ASC} ${y2TitleC}) rotate(90)`}
              textAnchor="middle"
              className="axis-label"
            >
              {props.y2Label}
            </text>
          )}
          {series.map((s, _si) => {
            const yy = s.axis === 'left' ? y : y2;
            const pts = s.pts.map((p) => ({
              x: x(p.x),
              y: yy(p.y),
              point: p.point,
              tag: p.tag,
              detail: p.detail,
            }));
            return (
              <g key={s.label} style={{ color: s.color }}>
                {s.connect && pts.length > 1 && (
                  <path
                    d={path(pts) ?? ''}
                    fill="none"
                    stroke="currentColor"
                    strokeWidth={2}
                    strokeDasharray={s.dashed ? '5 4' : undefined}
                  />
                )}
                {pts.map((p) => (
                  // biome-ignore lint/a11y/useSemanticElements: an SVG marker cannot be a <button>
                  <g
                    key={p.point}
                    className="sweep-marker"
                    data-point={p.point}
                    role="button"
                    tabIndex={props.focusable ? 0 : -1}
                    aria-label={props.focusable ? `Open run ${pointLabel(sweep, p.point)}` : undefined}
                    onClick={() => props.onOpen(p.point)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        props.onOpen(p.point);
                      }
                    }}
                  >
                    <title>{`${pointLabel(sweep, p.point)}${p.detail ? ` — ${p.detail}` : ''} — click to open this run`}</title>
                    {s.marker === 'circle' ? (
                      <circle
                        cx={p.x}
                        cy={p.y}
                        r={5}
                        fill={s.dashed ? 'var(--panel)' : 'currentColor'}
                        stroke="currentColor"
                        strokeWidth={2}
                      />
                    ) : (
                      <rect
                        x={p.x - 5}
                        y={p.y - 5}
                        width={10}
                        height={10}
                        transform={`rotate(45 ${p.x} ${p.y})`}
                        fill="currentColor"
                      />
                    )}
                  </g>
                ))}
              </g>
            );
          })}
          {/* Value tags apart from the markers, so a marker's box (and its click point) is the marker alone. */}
          <g className="point-tags">
            {tags.map((t) => (
              <g key={t.points.join(',')} data-points={t.points.join(',')}>
                {t.leader && (
                  <line
                    x1={t.leader[0]}
                    y1={t.leader[1]}
                    x2={t.leader[2]}
                    y2={t.leader[3]}
                    className="point-leader"
                    stroke="var(--muted)"
                    strokeWidth={1}
                  />
                )}
                <text x={t.x} y={t.y} textAnchor={t.anchor} className="point-tag">
                  {t.tags.length > 1 && (
                    <title>{`${t.tags.length} runs at this point: ${t.tags.join(', ')}`}</title>
                  )}
                  {t.text}
                </text>
              </g>
            ))}
          </g>
        </svg>
      </div>
      {note && <p className="sweep-chart-note">{note}</p>}
      {props.notes?.map((n) => (
        <p key={n} className="sweep-chart-note sweep-window-note">
          {n}
        </p>
      ))}
      <ul className="sweep-legend">
        {series.map((s) => (
          <li key={s.label}>
            <svg width="26" height="10" aria-hidden="true">
              <line
                x1={1}
                x2={25}
                y1={5}
                y2={5}
                stroke={s.color}
                strokeWidth={s.connect ? 2 : 0}
                strokeDasharray={s.dashed ? '5 4' : undefined}
              />
              {s.marker === 'diamond' ? (
                <rect x={10} y={2} width={6} height={6} transform="rotate(45 13 5)" fill={s.color} />
              ) : (
                !s.connect && <circle cx={13} cy={5} r={4} fill={s.color} />
              )}
            </svg>
            {s.label}
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** All charts of a sweep (only the points that have finished). */
export function SweepCharts({ sweep, onOpen }: { sweep: SweepRun; onOpen: (index: number) => void }) {
  const done = sweep.points
    .map((p, i) => ({ p, i }))
    .filter((x): x is { p: Done; i: number } => x.p.result !== null);
  const swept = done.filter((d) => d.p.value !== null).sort((a, b) => (a.p.value ?? 0) - (b.p.value ?? 0));
  const baselines = done.filter((d) => d.p.value === null);
  const name = sweep.label.split(' — ')[0].split(' (')[0];
  // one format for all the swept values' tags: a group's "first … last" reads in one unit
  const tags = valueTags(swept.map((d) => d.p.value ?? 0));
  // Which service Jain's index compares: the client's view (whole prompts, the paper's measure and
  // the run JSON's jain_index) or the system's (computed tokens, jain_index_extend). Both are over
  // the same window of each run (jain_interval_s).
  const [view, setView] = useState<'client' | 'system'>('client');
  const jainOf = (r: RunResult) => (view === 'client' ? r.jain_index : r.jain_index_extend);
  const windowOf = (r: RunResult) => {
    const w = r.jain_interval_s;
    const span = `${w.from.toFixed(1)}–${w.to.toFixed(1)} s`;
    return `Jain's index ${jainOf(r).toFixed(3)} over ${w.whole_run ? `the whole run, ${span}` : span} (${(w.to - w.from).toFixed(1)} s)`;
  };
  const windows: JainWindow[] = [
    ...swept.map((d, k) => ({
      label: tags[k],
      from: d.p.result.jain_interval_s.from,
      to: d.p.result.jain_interval_s.to,
    })),
    ...baselines.map((d) => ({
      label: d.p.label,
      from: d.p.result.jain_interval_s.from,
      to: d.p.result.jain_interval_s.to,
    })),
  ];
  const windowNote = jainWindowNote(windows);
  const sweptWindowNote = jainWindowNote(windows.slice(0, swept.length));
  const jainName = view === 'client' ? "Jain's index (client view)" : "Jain's index (system view)";
  // Two results against each other: the sweep order is not an order along either axis, so a line
  // through the points would cross itself; each point carries its swept value instead.
  const frontier: Series[] = [
    {
      label: `${name} sweep (tag: ${name} value)`,
      color: 'var(--c0)',
      axis: 'left',
      connect: false,
      marker: 'circle',
      pts: swept.map((d, k) => ({
        x: throughputOf(d.p.result),
        y: jainOf(d.p.result),
        point: d.i,
        tag: tags[k],
        detail: windowOf(d.p.result),
      })),
    },
    ...baselines.map((d, k) => ({
      label: d.p.label,
      color: `var(--c${[5, 2, 3, 1][k % 4]})`,
      axis: 'left' as const,
      connect: false,
      marker: 'diamond' as const,
      pts: [
        {
          x: throughputOf(d.p.result),
          y: jainOf(d.p.result),
          point: d.i,
          tag: d.p.label,
          detail: windowOf(d.p.result),
        },
      ],
    })),
  ];
  // Values spaced by a ratio go on a log axis, so equal steps look equal: the sweep's own spacing
  // when it was log, or a spread of 20× or more however it was spaced.
  const xLog =
    swept.length > 1 &&
    swept.every((d) => (d.p.value ?? 0) > 0) &&
    (sweep.scale === 'log' || isLogSpread(swept.map((d) => d.p.value ?? 1)));
  const xIntegers = swept.every((d) => Number.isInteger(d.p.value));
  const xLabel = axisTitle(name, sweep.unit, xLog);
  const response: Series[] = [
    {
      label: 'throughput (completed tokens/s)',
      color: 'var(--c0)',
      axis: 'left',
      connect: true,
      marker: 'circle',
      pts: swept.map((d) => ({
        x: d.p.value ?? 0,
        y: throughputOf(d.p.result),
        point: d.i,
      })),
    },
    {
      label: `${jainName} (right axis)`,
      color: 'var(--c5)',
      dashed: true,
      axis: 'right',
      connect: true,
      marker: 'circle',
      pts: swept.map((d) => ({
        x: d.p.value ?? 0,
        y: jainOf(d.p.result),
        point: d.i,
        detail: windowOf(d.p.result),
      })),
    },
  ];
  // Latency against what was swept (offered load moves only when a rate is swept, and then with it):
  // whole programs, start to last request done, the paper's measure.
  const latencyPts = (key: 'program_e2e_p50_s' | 'program_e2e_p99_s') =>
    swept
      .filter((d) => d.p.result.latency[key] !== null)
      .map((d) => ({
        x: d.p.value ?? 0,
        y: d.p.result.latency[key] ?? 0,
        point: d.i,
      }));
  const latency: Series[] = [
    {
      label: 'program end-to-end p50',
      color: 'var(--c2)',
      axis: 'left',
      connect: true,
      marker: 'circle',
      pts: latencyPts('program_e2e_p50_s'),
    },
    {
      label: 'program end-to-end p99',
      color: 'var(--c3)',
      dashed: true,
      axis: 'left',
      connect: true,
      marker: 'circle',
      pts: latencyPts('program_e2e_p99_s'),
    },
  ];
  return (
    <div className="sweep-charts">
      <fieldset className="sweep-jain-view">
        <legend>Jain's index of</legend>
        {JAIN_VIEWS.map((v) => (
          <label key={v.id} title={v.what}>
            <input
              type="radio"
              name="sweep-jain-view"
              checked={view === v.id}
              onChange={() => setView(v.id)}
            />{' '}
            {v.label}
          </label>
        ))}
      </fieldset>
      <Chart
        title="Throughput vs fairness"
        xLabel="throughput (completed tokens/s)"
        yLabel={jainName}
        notes={windowNote ? [windowNote] : undefined}
        xAxis={{ rule: 'nonneg', metric: 'throughput' }}
        yAxis={{ rule: 'jain', metric: "Jain's index" }}
        series={frontier}
        sweep={sweep}
        onOpen={onOpen}
        focusable
      />
      <Chart
        title={`${name} vs throughput and fairness`}
        xLabel={xLabel}
        yLabel="completed tokens/s"
        y2Label="Jain's index"
        xLog={xLog}
        xIntegers={xIntegers}
        xAxis={{ rule: 'fit' }}
        yAxis={{ rule: 'nonneg', metric: 'throughput' }}
        y2Axis={{ rule: 'jain', metric: "Jain's index" }}
        series={response}
        notes={
          sweptWindowNote
            ? [`${sweptWindowNote} The dashed line joins indices over these unlike windows.`]
            : undefined
        }
        sweep={sweep}
        onOpen={onOpen}
        focusable={false}
      />
      <Chart
        title={`Latency vs ${name}`}
        xLabel={xLabel}
        yLabel="end-to-end latency (s)"
        xLog={xLog}
        xIntegers={xIntegers}
        xAxis={{ rule: 'fit' }}
        yAxis={{ rule: 'zero', metric: 'latency' }}
        series={latency}
        sweep={sweep}
        onOpen={onOpen}
        focusable={false}
      />
    </div>
  );
}

/**
 * The swept axis's title: the parameter's name with its unit, unless the unit only repeats the
 * name ("Workers (workers)" reads as a slip): then the name alone, or with the scale.
 */
export function axisTitle(name: string, unit: string, log: boolean): string {
  const scale = log ? 'log scale' : '';
  const repeats = unit.trim().toLowerCase() === name.trim().toLowerCase();
  const parts = [repeats ? '' : unit, scale].filter((x) => x !== '');
  return parts.length === 0 ? name : `${name} (${parts.join(', ')})`;
}

/** At most `n` of the sorted `values`, evenly spaced by index, always the first and the last. */
export function thin(values: number[], n: number): number[] {
  if (values.length <= n) return values;
  if (n <= 1) return values.slice(0, 1);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(values[Math.round((i * (values.length - 1)) / (n - 1))]);
  return [...new Set(out)];
}

function isLogSpread(values: number[]): boolean {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo > 0 && hi / lo >= 20;
}
