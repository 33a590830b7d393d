/**
 * Guarantees live: the fairness theorem of the running algorithm (DLPM 4.1, VTC, DoubleQ 5.1) as a
 * line, against the measured service gap of every pair of continuously backlogged clients over time.
 * The worst pair is drawn heavier; each crossing of the bound is marked where it happened and listed
 * with its time. The formula shows the numbers it was computed from, and the deliberately broken
 * DLPM (a quantum per request) carries its warning. Units: service units (w_e · uncached input +
 * w_q · output tokens).
 *
 * Reads `snapshot.guarantee` (src/core/metrics/guarantee.ts), typed.
 */
import { line as d3line, scaleLinear } from 'd3';
import { type ReactNode, useContext } from 'react';
import { glossed } from '../Glossary';
import { fmtCount, fmtExact, fmtNum, fmtSeconds } from './format';
import { colorFor } from './palette';
import type { GuaranteePair } from '../../core/metrics/guarantee';
import { type Formula, formulaText } from '../../core/metrics/theorem-bound';
import type { SessionSnapshot } from '../../worker/session';
import { clusterOf } from './read';
import { ServiceScaleContext } from './scale-context';
import type { ViewProps } from './types';
import { axisBand, TimeAxes, useAxisFont, YAxisTitle, yAxisLayout } from './TimeAxes';
import { isolatedIndexes } from './TimeChart';
import { useTimeSeek } from './time-seek';
import { textWidth } from './ring-labels';
import { useWidth } from './use-width';

export interface GuaranteePairModel {
  a: string;
  b: string;
  maxGap: number;
  currentGap: number | null;
  violatedAt: number | null;
}

export interface GuaranteeViolationModel {
  t: number;
  a: string;
  b: string;
  gap: number;
  bound: number;
}

export interface GuaranteeModel {
  algorithm: string | null;
  theorem: string | null;
  bound: number | null;
  boundLabel: string;
  /** The bound's formula as text and numbers (core's), printed with `fmtExact`. */
  formula: Formula;
  reason: string | null;
  broken: boolean;
  warning: string | null;
  pairs: GuaranteePairModel[];
  pairCount: number;
  worst: GuaranteePairModel | null;
  violations: GuaranteeViolationModel[];
  violationCount: number;
  t: number[];
  /** Gap series per pair key "a|b", NaN where the pair was not backlogged together. */
  rows: { key: string; a: string; b: string; values: number[] }[];
  boundSeries: number[];
}

/** Pairs drawn in the chart and listed in the legend. */
export const CHART_PAIRS = 8;
/** Violations listed as text (the rest are counted). */
export const LISTED_VIOLATIONS = 12;

function readPair(p: GuaranteePair): GuaranteePairModel {
  return { a: p.a, b: p.b, maxGap: p.max_gap, currentGap: p.current_gap, violatedAt: p.violated_at };
}

/** A gap series value: JSON has no NaN, so a sample where the pair was not backlogged is null. */
const gapValue = (v: number | null | undefined): number => (v === null || v === undefined ? Number.NaN : v);

/** The Guarantees model of a snapshot, or null when it carries none (the DRR sandbox). */
export function readGuarantee(snapshot: SessionSnapshot | null): GuaranteeModel | null {
  const g = clusterOf(snapshot)?.guarantee;
  if (!g) return null;
  const pairs = g.pairs.map(readPair);
  const t = g.series.t;
  const rows = Object.entries(g.series.rows)
    .map(([key, values]) => {
      const [a, b] = key.split('|');
      return { key, a: a ?? key, b: b ?? '', values: t.map((_, i) => gapValue(values[i])) };
    })
    .slice(0, CHART_PAIRS);
  return {
    algorithm: g.algorithm,
    theorem: g.theorem,
    bound: g.bound !== null && g.bound > 0 ? g.bound : null,
    boundLabel: g.bound_label,
    formula: g.formula,
    reason: g.reason,
    broken: g.broken,
    warning: g.warning,
    pairs,
    pairCount: g.pair_count,
    worst: g.worst ? readPair(g.worst) : null,
    violations: g.violations,
    violationCount: Math.max(g.violation_count, g.violations.length),
    t,
    rows,
    boundSeries: t.map((_, i) => gapValue(g.series.bound[i])),
  };
}

/** Service units, whole, every digit (the page's grouping, as in the formula): 26 200. */
export function fmtUnits(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return fmtCount(Math.round(v));
}

/** The bound's formula with its numbers in the page's format: "… = 2·(12 600 + 500) = 26 200". */
export function formulaLine(formula: Formula): string {
  return formulaText(formula, fmtExact);
}

export const pairName = (a: string, b: string) => `${a}–${b}`;

/** "violated at t = 4.05 s: alice–hog gap 26 258 > bound 26 200" */
export function violationText(v: GuaranteeViolationModel): string {
  return `violated at t = ${fmtSeconds(v.t)}: ${pairName(v.a, v.b)} gap ${fmtUnits(v.gap)} > bound ${fmtUnits(v.bound)}`;
}

/** The text alternative: "Max gap 3 100 of bound 4 800 (65 %, a–b); no violations". */
export function guaranteeSummary(g: GuaranteeModel): string {
  const worst = g.worst;
  const maxGap = worst?.maxGap ?? 0;
  const pair = worst ? pairName(worst.a, worst.b) : null;
  const head =
    g.bound !== null
      ? `Max gap ${fmtUnits(maxGap)} of bound ${fmtUnits(g.bound)} (${Math.round((100 * maxGap) / g.bound)}\u00a0%${pair ? `, ${pair}` : ''})`
      : `Max gap ${fmtUnits(maxGap)}${pair ? ` (${pair})` : ''}; no bound applies`;
  if (g.bound === null) return head;
  if (g.violationCount === 0) return `${head}; no violations`;
  const first = g.violations[0];
  return `${head}; ${pairsOverText(g)}${first ? `, first at t = ${fmtSeconds(first.t)} (${pairName(first.a, first.b)})` : ''}`;
}

/**
 * How many pairs went over the bound, in those words: core's `violation_count` counts crossings (a
 * pair that falls back and crosses again counts twice), and "2 violations" was read as two events
 * when it was two pairs. "2 pairs over the bound", and ", 3 crossings" when there were more.
 */
export function pairsOverText(g: GuaranteeModel): string {
  const listed = g.pairs.filter((p) => p.violatedAt !== null).length;
  // pairs come largest gap first: when every listed pair is over, unlisted ones may be too
  const atLeast = listed > 0 && listed === g.pairs.length && g.pairCount > g.pairs.length;
  const n = Math.max(1, listed);
  const crossings = g.violationCount > n ? `, ${fmtCount(g.violationCount)} crossings` : '';
  return `${atLeast ? 'at least ' : ''}${fmtCount(n)} pair${n === 1 ? '' : 's'} over the bound${crossings}`;
}

export function Guarantees({ snapshot, highlight }: ViewProps) {
  const g = readGuarantee(snapshot);
  if (!g) {
    return (
      <section className="panel view gu-view" aria-label="Guarantees">
        <h2>Guarantees</h2>
        <p className="empty">
          No fairness guarantee in this snapshot: load a cluster scenario (for example{' '}
          <code>guarantee-dlpm.yaml</code>) and press Play or Step to see the theorem's bound against the
          measured service gaps.
        </p>
      </section>
    );
  }
  const summary = guaranteeSummary(g);
  const violated = g.violationCount > 0;
  const sel = highlight?.client ?? null;
  return (
    <section
      className="panel view gu-view"
      aria-label="Guarantees"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a focused view takes ← / → to move the playhead
      tabIndex={0}
      aria-keyshortcuts="ArrowLeft ArrowRight"
      data-algorithm={g.algorithm ?? 'none'}
      data-violations={g.violationCount}
      data-broken={g.broken ? 'true' : 'false'}
    >
      <h2>
        Guarantees{' '}
        <span className="view-sub">
          {g.theorem && g.algorithm !== null ? g.theorem : 'no theorem applies'}
          {g.broken ? ' · broken variant' : ''}
        </span>
      </h2>
      {/* the chart and its legend first: a tour comparing runs (LPM without a theorem, DLPM with
          one) keeps the chart in one place whatever the text above the gauges says */}
      <GapChart
        g={g}
        summary={summary}
        selectedClient={sel}
        ended={snapshot?.kind === 'cluster' && snapshot.done}
      />
      <PairLegend g={g} selectedClient={sel} />
      {g.warning && (
        <p className="gu-warning" role="note" style={warningStyle}>
          <strong>Warning: </strong>
          {withKeys(g.warning)}
        </p>
      )}
      <p
        className="gu-summary"
        style={{ margin: '4px 0', fontWeight: 500, color: violated ? 'var(--danger)' : undefined }}
      >
        {summary}
      </p>
      <p className="hint gu-formula">
        {g.bound !== null ? (
          <>
            {/* the "?" after the formula's closing bracket, not inside it (it broke "Q^u ?" / ")") */}
            <span>{glossed(g.boundLabel, [[g.boundLabel.includes('Q^u)') ? 'Q^u)' : 'Q^u', 'q-u']])} </span>
            <code>{formulaLine(g.formula)}</code>
          </>
        ) : (
          <span>
            {formulaLine(g.formula) ||
              g.reason ||
              'No fairness theorem covers this scenario: gaps are measured, not bounded.'}
          </span>
        )}
      </p>
      <GapGauges g={g} selectedClient={sel} />
      <ViolationList g={g} />
      <p className="hint">
        Gap of a pair = the largest |W_a − W_b| (service units) over intervals ending at that moment during
        which both clients were continuously backlogged (had requests waiting); the line shows its peak
        between samples.
      </p>
    </section>
  );
}

/**
 * Text with its setting names (`scheduler.dlpm_quantum_per_request`) set as code that may break after
 * each `.` and `_`: as one word the name ran out of the warning's box in a narrow panel.
 */
export function withKeys(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  for (const [k, part] of text.split(/\b([a-z][a-z0-9]*(?:\.[a-z0-9_]+)+)\b/).entries()) {
    if (k % 2 === 0) out.push(part);
    else {
      const pieces: ReactNode[] = [];
      let p = at;
      for (const piece of part.split(/(?<=[._])/)) {
        if (p > at) pieces.push(<wbr key={`wbr-${p}`} />);
        pieces.push(piece);
        p += piece.length;
      }
      out.push(
        <code key={`key-${at}`} className="gu-key">
          {pieces}
        </code>,
      );
    }
    at += part.length;
  }
  return out;
}

const warningStyle = {
  border: '1px solid var(--danger)',
  borderLeftWidth: 4,
  borderRadius: 4,
  padding: '6px 8px',
  margin: '6px 0',
  fontSize: 14,
} as const;

/** Margins; `left` is the least, widened to fit the y title and tick labels (`yAxisLayout`). */
const M = { top: 12, right: 14, bottom: 34, left: 40 };

/** A bound more than this many times the largest gap leaves the y axis to the gaps (off-scale marker). */
export const OFF_SCALE_RATIO = 4;

/**
 * The top of the gap axis (before padding and nicing) and whether the bound is left off it. The
 * gaps (and violations) always count; the bound counts too unless it is more than
 * `OFF_SCALE_RATIO` times the largest gap, where drawing it would flatten the gaps into the floor.
 * A violation is a gap above the bound, so then the bound is on scale by construction.
 */
export function gapAxisTop(g: GuaranteeModel): { top: number; boundOffScale: boolean } {
  let gaps = 0;
  for (const r of g.rows) for (const v of r.values) if (Number.isFinite(v) && v > gaps) gaps = v;
  for (const v of g.violations) if (v.gap > gaps) gaps = v.gap;
  if (g.bound === null) return { top: gaps, boundOffScale: false };
  let lowest = g.bound;
  let highest = g.bound;
  // the bound as drawn: from the first sample where some pair was backlogged together
  const first = g.t.findIndex((_, i) => g.rows.some((r) => Number.isFinite(r.values[i])));
  for (let i = Math.max(0, first); i < g.boundSeries.length; i++) {
    const v = g.boundSeries[i];
    if (Number.isFinite(v)) {
      if (v < lowest) lowest = v;
      if (v > highest) highest = v;
    }
  }
  if (lowest > OFF_SCALE_RATIO * gaps) return { top: gaps, boundOffScale: true };
  return { top: Math.max(gaps, highest), boundOffScale: false };
}

/**
 * The gap axis as drawn: its own top (`gapAxisTop`), raised to a shared top when Compare's columns or
 * a tour's steps pass one (so the same height is the same gap in each); the bound stays off the
 * axis only while it is above the axis drawn.
 */
export function gapAxis(g: GuaranteeModel, sharedTop: number): { top: number; boundOffScale: boolean } {
  const own = gapAxisTop(g);
  const top = Math.max(own.top, sharedTop);
  return { top, boundOffScale: own.boundOffScale && g.bound !== null && g.bound > top };
}

/** The marker for a bound above the axis: "bound 987 664 ↑ (off scale)". */
export function offScaleText(bound: number): string {
  return `bound ${fmtUnits(bound)} ↑ (off scale)`;
}

/**
 * The off-scale marker that fits `room` px (the plot's width, so it never runs over the y ticks): the
 * whole text, else the bound in k/M ("bound 252k ↑"), else the arrow alone; the legend below the
 * chart names the bound in full either way.
 */
export function offScaleFit(bound: number, room: number): string {
  const fits = (t: string) => textWidth(t, 14, 400) <= room;
  for (const t of [offScaleText(bound), `bound ${fmtNum(bound)} ↑ (off scale)`, `bound ${fmtNum(bound)} ↑`])
    if (fits(t)) return t;
  return 'bound ↑';
}

function GapChart({
  g,
  summary,
  selectedClient,
  ended,
}: {
  g: GuaranteeModel;
  summary: string;
  selectedClient: string | null;
  /** The run is over: nothing more can happen, so no "yet". */
  ended: boolean;
}) {
  const [boxRef, measured] = useWidth<HTMLDivElement>(480);
  const seekParts = useTimeSeek();
  const axisFont = useAxisFont();
  const shared = useContext(ServiceScaleContext);
  const hasData = g.t.length > 0 && g.rows.some((r) => r.values.some(Number.isFinite));
  if (!hasData) {
    return (
      <div className="chart gu-chart" ref={boxRef}>
        <p className="empty">{noGapText(g.pairCount, ended)}</p>
      </div>
    );
  }
  const W = Math.max(240, measured);
  const H = 230;
  const axisRoom = axisBand(axisFont, M.top);
  const y0 = H - axisRoom.bottom;
  const y1 = axisRoom.top;
  const { top, boundOffScale } = gapAxis(g, shared?.gap ?? 0);
  const y = scaleLinear()
    .domain([0, top > 0 ? top * 1.08 : 1])
    .range([y0, y1])
    .nice(4);
  // the plot starts right of the y title and the widest tick label
  const yTitle = yAxisLayout(y, 'service gap (service units)', y0 - y1, axisFont);
  const x0 = Math.max(M.left, yTitle.left);
  const x1 = W - M.right;
  const tMin = g.t[0];
  const tMax = Math.max(g.t[g.t.length - 1], ...g.violations.map((v) => v.t));
  const x = scaleLinear()
    .domain(tMin === tMax ? [tMin, tMin + 1] : [tMin, tMax])
    .range([x0, x1]);
  const r2 = (v: number) => Math.round(v * 100) / 100;
  const path = d3line<number>()
    .defined((v, i) => Number.isFinite(v) && Number.isFinite(g.t[i]))
    .x((_v, i) => r2(x(g.t[i])))
    .y((v) => r2(y(v)));
  const worstKey = g.worst ? `${g.worst.a}|${g.worst.b}` : null;
  // the bound from the first moment any pair was backlogged together (before that it bounds nothing)
  const first = g.t.findIndex((_, i) => g.rows.some((r) => Number.isFinite(r.values[i])));
  const boundPath = path(
    g.boundSeries.map((v, i) => (i < first ? Number.NaN : Number.isFinite(v) ? v : (g.bound ?? Number.NaN))),
  );
  const yTop = y.domain()[1];
  const bandTop = r2(y(yTop));
  const seek = seekParts({ x, x0, x1, y0, y1, width: W });
  return (
    <div className="chart gu-chart" ref={boxRef}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={summary}
        data-chart-name="Service gap per client pair"
        // the key an exported image draws (the page's, PairLegend, is HTML beside the chart)
        data-legend={JSON.stringify(exportKey(g, boundOffScale))}
        {...seek.svgProps}
      >
        <title>{summary}</title>
        <g className="axis">
          <TimeAxes x={x} y={y} x0={x0} x1={x1} y0={y0} height={H} font={axisFont} />
          <YAxisTitle lines={yTitle.lines} y0={y0} y1={y1} font={axisFont} />
        </g>
        {g.bound !== null && boundOffScale && (
          <g className="gu-bound" data-bound={g.bound} data-off-scale="true">
            <text x={x1 - 4} y={y1 + 11} textAnchor="end" className="gu-bound-label">
              <title>{`${g.boundLabel} = ${fmtUnits(g.bound)} service units, more than ${OFF_SCALE_RATIO}× the largest gap: the axis is scaled to the gaps`}</title>
              {offScaleFit(g.bound, x1 - x0 - 8)}
            </text>
          </g>
        )}
        {g.bound !== null && !boundOffScale && (
          <g className="gu-bound" data-bound={g.bound}>
            {/* above the bound: the region a guarantee rules out */}
            <rect
              x={x0}
              y={bandTop}
              width={Math.max(0, x1 - x0)}
              height={Math.max(0, r2(y(g.bound)) - bandTop)}
              style={{ fill: 'var(--danger)', opacity: 0.07 }}
            >
              <title>{`above the bound (${fmtUnits(g.bound)} service units): ruled out by ${g.theorem ?? 'the theorem'}`}</title>
            </rect>
            {boundPath && (
              <path
                d={boundPath}
                style={{ fill: 'none', stroke: 'var(--danger)', strokeWidth: 2, strokeDasharray: '6 4' }}
              >
                <title>{`${g.boundLabel} = ${fmtUnits(g.bound)} service units`}</title>
              </path>
            )}
            <text x={x1 - 4} y={r2(y(g.bound)) - 5} textAnchor="end" className="gu-bound-label">
              {`bound ${fmtUnits(g.bound)}`}
            </text>
          </g>
        )}
        {/* the worst pair last, on top of the others */}
        {g.rows
          .map((r, i) => ({ r, i }))
          .sort((p, q) => Number(p.r.key === worstKey) - Number(q.r.key === worstKey) || p.i - q.i)
          .map(({ r, i }) => {
            const d = path(r.values);
            if (!d) return null;
            const worst = r.key === worstKey;
            const dim = selectedClient !== null ? r.a !== selectedClient && r.b !== selectedClient : !worst;
            const dots = isolatedIndexes(r.values, g.t);
            return (
              <g key={r.key}>
                {dots.map((k) => (
                  <circle
                    key={k}
                    className="series-dot"
                    cx={r2(x(g.t[k]))}
                    cy={r2(y(r.values[k]))}
                    r={worst ? 3.5 : 2.5}
                    style={{ fill: colorFor(i), opacity: dim ? 0.55 : 1 }}
                  >
                    <title>{`${pairName(r.a, r.b)}${worst ? ' (worst pair)' : ''}`}</title>
                  </circle>
                ))}
                <path
                  className="series-line gu-pair"
                  data-pair={r.key}
                  data-worst={worst ? 'true' : undefined}
                  d={d}
                  style={{
                    stroke: colorFor(i),
                    strokeWidth: worst ? 3.5 : 1.5,
                    opacity: dim ? 0.55 : 1,
                  }}
                >
                  <title>{`${pairName(r.a, r.b)}${worst ? ' (worst pair)' : ''}`}</title>
                </path>
              </g>
            );
          })}
        {g.violations.map((v) => {
          const cx = r2(x(v.t));
          const cy = r2(y(v.gap));
          return (
            <g key={`${v.t}-${v.a}-${v.b}`} className="gu-violation" data-t={v.t}>
              <line
                x1={cx}
                x2={cx}
                y1={y0}
                y2={cy}
                style={{ stroke: 'var(--danger)', strokeWidth: 1, strokeDasharray: '2 2' }}
              />
              <path
                d={`M${cx},${r2(cy - 6)}L${r2(cx + 6)},${cy}L${cx},${r2(cy + 6)}L${r2(cx - 6)},${cy}Z`}
                style={{ fill: 'var(--danger)', stroke: 'var(--panel)', strokeWidth: 1 }}
              >
                <title>{violationText(v)}</title>
              </path>
            </g>
          );
        })}
        {seek.guide}
      </svg>
    </div>
  );
}

/**
 * The chart's key for an exported image (features/download.ts reads `data-legend`): each pair drawn,
 * in its colour, the worst one named so, then the bound's dashed line when a theorem gives one (as
 * PairLegend words it).
 */
export function exportKey(
  g: GuaranteeModel,
  boundOffScale: boolean,
): { label: string; color: string; dashed: boolean }[] {
  const worstKey = g.worst ? `${g.worst.a}|${g.worst.b}` : null;
  const key = g.rows.map((r, i) => ({
    label: `${pairName(r.a, r.b)}${r.key === worstKey ? ' (worst)' : ''}`,
    color: colorFor(i),
    dashed: false,
  }));
  // as the page's key says it: an off-scale bound has no line in the chart
  if (g.bound !== null)
    key.push({
      label: `bound ${fmtUnits(g.bound)}${boundOffScale ? ' (above the axis)' : ''}`,
      color: 'var(--danger)',
      dashed: true,
    });
  return key;
}

/**
 * Why the gap chart is empty. "Yet" only while it can still change: a run that has ended, or one
 * with a single client (no pair at all), will never draw a gap.
 */
export function noGapText(pairCount: number, ended: boolean): string {
  if (pairCount === 0)
    return 'This run has one client, so there is no pair to compare: a gap needs two clients waiting at the same time.';
  if (ended)
    return 'No pair of clients was ever backlogged together in this run, so there is no gap to show.';
  return 'No pair of clients has been backlogged together yet: gaps appear once two clients wait at the same time.';
}

function PairLegend({ g, selectedClient }: { g: GuaranteeModel; selectedClient: string | null }) {
  const shared = useContext(ServiceScaleContext);
  if (g.rows.length === 0) return null;
  const byKey = new Map(g.pairs.map((p) => [`${p.a}|${p.b}`, p]));
  const worstKey = g.worst ? `${g.worst.a}|${g.worst.b}` : null;
  const more = g.pairCount - g.rows.length;
  return (
    <ul className="legend plain-list gu-legend" aria-label="Client pairs">
      {g.rows.map((r, i) => {
        const p = byKey.get(r.key);
        const worst = r.key === worstKey;
        const sel = selectedClient !== null && (r.a === selectedClient || r.b === selectedClient);
        return (
          <li key={r.key} data-pair={r.key} className={sel ? 'selected' : undefined}>
            <span
              className="legend-line"
              aria-hidden="true"
              style={{
                display: 'inline-block',
                width: 16,
                height: 0,
                borderTop: `${worst ? 4 : 2}px solid ${colorFor(i)}`,
                marginRight: 5,
                verticalAlign: 3,
              }}
            />
            <span style={{ fontWeight: worst ? 600 : undefined, color: worst ? 'var(--ink)' : undefined }}>
              {pairName(r.a, r.b)}
            </span>
            {p && (
              <span>
                {' '}
                max {fmtUnits(p.maxGap)}
                {p.currentGap !== null ? ` · now ${fmtUnits(p.currentGap)}` : ''}
                {worst ? ' · worst' : ''}
                {p.violatedAt !== null ? ` · over at ${fmtSeconds(p.violatedAt)}` : ''}
              </span>
            )}
          </li>
        );
      })}
      {more > 0 && <li>+ {more} more pairs</li>}
      <li>
        <span
          aria-hidden="true"
          style={{
            display: 'inline-block',
            width: 16,
            height: 0,
            borderTop: '2px dashed var(--danger)',
            marginRight: 5,
            verticalAlign: 3,
            // no theorem, no dashed line in the chart: the entry keeps its place (a tour's steps keep
            // the chart's layout) but shows no line for it
            visibility: g.bound !== null ? undefined : 'hidden',
          }}
        />
        {g.bound !== null
          ? `bound ${fmtUnits(g.bound)}${gapAxis(g, shared?.gap ?? 0).boundOffScale ? ' (above the axis)' : ''}`
          : 'no bound'}
      </li>
      <li className="unit">service units</li>
    </ul>
  );
}

function ViolationList({ g }: { g: GuaranteeModel }) {
  if (g.bound === null) return null;
  if (g.violationCount === 0)
    return (
      <p className="gu-ok hint" data-violations="0">
        No violations: every backlogged pair has stayed within the bound.
      </p>
    );
  const shown = g.violations.slice(0, LISTED_VIOLATIONS);
  const more = g.violationCount - shown.length;
  return (
    <div className="gu-violations">
      <h3 style={{ color: 'var(--danger)' }}>
        {/* capitalised as a heading: "2 pairs over the bound" */}
        {pairsOverText(g).replace(/^a/, 'A')}
      </h3>
      <ol aria-label="Violations" style={{ margin: '2px 0 4px', paddingLeft: 20, fontSize: 14 }}>
        {shown.map((v) => (
          <li key={`${v.t}-${v.a}-${v.b}`} data-t={v.t}>
            {violationText(v)}
          </li>
        ))}
        {more > 0 && <li>+ {more} more</li>}
      </ol>
    </div>
  );
}

/** Where a gap sits on the gauge: its share of the bound, clipped so an overshoot still shows. */
export function gaugeShare(gap: number, bound: number): number {
  if (!(bound > 0) || !Number.isFinite(gap)) return 0;
  return Math.max(0, Math.min(GAUGE_MAX, gap / bound));
}

/** The gauge's axis ends at this multiple of the bound (a violation shows past the bound line). */
export const GAUGE_MAX = 1.25;

/**
 * Gap against bound, one gauge per pair on an axis normalised to the bound (0 … bound … 1.25·bound):
 * however large the bound is next to the gaps, both are visible on one scale, with their numbers.
 */
function GapGauges({ g, selectedClient }: { g: GuaranteeModel; selectedClient: string | null }) {
  if (g.bound === null || !(g.bound > 0) || g.pairs.length === 0) return null;
  const bound = g.bound;
  const pairs = [...g.pairs].sort((x, y) => y.maxGap - x.maxGap).slice(0, CHART_PAIRS);
  const pos = (share: number) => `${Math.round((share / GAUGE_MAX) * 1000) / 10}%`;
  return (
    <fieldset className="gu-gauges" aria-label="Gap against bound per pair">
      <div className="gu-gauge-axis" aria-hidden="true">
        <span style={{ left: '0%' }}>0</span>
        {/* short, so the three stay apart on a narrow track; the bound's value is in the key below */}
        <span style={{ left: pos(0.5) }}>½</span>
        <span style={{ left: pos(1) }}>bound</span>
      </div>
      <ul className="plain-list">
        {pairs.map((p) => {
          const now = p.currentGap ?? 0;
          const over = p.maxGap > bound;
          const sel = selectedClient !== null && (p.a === selectedClient || p.b === selectedClient);
          const pctOf = (v: number) =>
            `${v / bound < 0.001 && v > 0 ? '< 0.1' : fmtNum((v / bound) * 100)}\u00a0%`;
          return (
            <li
              key={`${p.a}|${p.b}`}
              className={`gu-gauge${over ? ' over' : ''}${sel ? ' selected' : ''}`}
              data-pair={`${p.a}|${p.b}`}
              data-share={Math.round((p.maxGap / bound) * 1e4) / 1e4}
            >
              <span className="gu-gauge-name">{pairName(p.a, p.b)}</span>
              <span className="gu-gauge-track" aria-hidden="true">
                <span className="gu-gauge-peak" style={{ width: pos(gaugeShare(p.maxGap, bound)) }} />
                <span className="gu-gauge-now" style={{ width: pos(gaugeShare(now, bound)) }} />
                <span className="gu-gauge-bound" style={{ left: pos(1) }} />
              </span>
              <span className="gu-gauge-text">
                peak {fmtUnits(p.maxGap)} = {pctOf(p.maxGap)} of the bound
                {p.currentGap !== null ? ` · now ${fmtUnits(p.currentGap)}` : ''}
                {over ? ' · over the bound' : ''}
              </span>
            </li>
          );
        })}
      </ul>
      <p className="legend gu-gauge-key">
        <span>
          <span className="key-gauge peak" aria-hidden="true" /> peak gap
        </span>
        <span>
          <span className="key-gauge now" aria-hidden="true" /> gap now
        </span>
        <span>
          <span className="key-tick bound" aria-hidden="true" /> the theorem's bound {fmtUnits(bound)}{' '}
          (formula above)
        </span>
        <span className="unit">axis: share of the bound</span>
      </p>
    </fieldset>
  );
}
