/**
 * Per-client fairness state and service over time: DLPM deficits, DoubleQ per-worker deficits or VTC
 * counters as bars, and the service curves (cumulative or rate) with the fairness bound as a band
 * when the snapshot carries one. Service is in service units (w_e · uncached input tokens + w_q ·
 * output tokens).
 */
import { SYSTEM_VIEW, SYSTEM_VIEW_WHAT } from './jain-views';
import { Term } from '../Glossary';
import { scaleLinear } from 'd3';
import { useContext, useState } from 'react';
import { fmtCount, fmtNum } from './format';
import { clientShape, colorFor } from './palette';
import { ServiceScaleContext } from './service-scale';
import { type ClientModel, readClients, readSeries, simTime, type SeriesModel } from './read';
import {
  GAUGE_MAX,
  type GuaranteeModel,
  gaugeShare,
  pairName,
  pairsOverText,
  readGuarantee,
} from './Guarantees';
import { rateOf } from './series-math';
import { type ChartLine, TimeChart } from './TimeChart';
import { useReserve } from './use-reserve';
import { useAxisFont } from './TimeAxes';
import { useWidth } from './use-width';
import type { ViewProps } from './types';

export type ServiceMode = 'cumulative' | 'rate';

type FairnessKind = 'deficit' | 'per-worker' | 'counter' | null;

function fairnessKind(clients: readonly ClientModel[]): FairnessKind {
  if (clients.some((c) => c.deficitPerWorker)) return 'per-worker';
  if (clients.some((c) => c.deficit !== null)) return 'deficit';
  if (clients.some((c) => c.counter !== null)) return 'counter';
  return null;
}

export function ClientService({ snapshot, highlight, onSelect }: ViewProps) {
  const [mode, setMode] = useState<ServiceMode>('cumulative');
  // in a tour, the parts under the chart keep the most room any step needed (what follows stays put)
  const reserve = useContext(ServiceScaleContext)?.reserve ?? null;
  const [stateRef, stateStyle] = useReserve<HTMLDivElement>(reserve, 'client-state');
  const clients = readClients(snapshot);
  if (clients.length === 0) {
    return (
      <section className="panel view cs-view" aria-label="Client service">
        <h2>Client service</h2>
        <p className="empty">
          No clients yet: load a cluster scenario with <code>clients:</code> and press Play or Step to see
          per-client service and deficits.
        </p>
      </section>
    );
  }
  const series = readSeries(snapshot, clients);
  const guarantee = readGuarantee(snapshot);
  const kind = fairnessKind(clients);
  const sel = highlight?.client ?? null;
  const now = simTime(snapshot);

  return (
    <section
      className="panel view cs-view"
      aria-label="Client service"
      data-clients={clients.length}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a focused view takes ← / → to move the playhead
      tabIndex={0}
      aria-keyshortcuts="ArrowLeft ArrowRight"
    >
      <h2>
        Client service <span className="view-sub">{now !== null ? `at t = ${fmtNum(now)} s` : ''}</span>
      </h2>
      <ul className="legend plain-list" aria-label="Clients">
        {clients.map((c) => (
          <li key={c.name} className={sel === c.name ? 'selected' : undefined} data-client={c.name}>
            <span className="legend-line" style={{ color: colorFor(c.index) }} aria-hidden="true" />
            {/* the client's shape, as on its chips in Class queues and Workers */}
            <span className="cs-shape" style={{ color: colorFor(c.index) }} aria-hidden="true">
              {clientShape(c.index)}
            </span>
            {onSelect ? (
              <button type="button" className="linklike" onClick={() => onSelect({ client: c.name })}>
                {c.name}
              </button>
            ) : (
              c.name
            )}
          </li>
        ))}
      </ul>
      {/* the curves first, right under the client legend: a tour that compares them across steps
          (LPM's totals table, DLPM's deficit bars) keeps them in one place */}
      <ServiceCurves
        clients={clients}
        series={series}
        guarantee={guarantee}
        mode={mode}
        setMode={setMode}
        selected={sel}
        soFar={snapshot?.kind === 'cluster' && !snapshot.done ? now : null}
      />
      <div className={`cs-state${reserve !== null ? ' reserving' : ''}`} ref={stateRef} style={stateStyle}>
        {kind === 'per-worker' ? (
          <PerWorkerDeficits clients={clients} selected={sel} />
        ) : kind ? (
          <ClientBars clients={clients} kind={kind} selected={sel} />
        ) : (
          <ServiceTotals clients={clients} selected={sel} />
        )}
        {/* in a tour, the other step's part drawn unseen in the same cell: the room is the taller
            of the two from the first step on, so nothing below moves the first time a tour flips
            from LPM's totals to DLPM's deficit bars (use-reserve only keeps what has been shown) */}
        {reserve !== null && (
          <div className="tour-ghost" aria-hidden="true" inert>
            {kind === 'deficit' || kind === 'counter' ? (
              <ServiceTotals clients={clients} selected={null} />
            ) : (
              <ClientBars clients={clients} kind="deficit" selected={null} />
            )}
          </div>
        )}
      </div>
    </section>
  );
}

function ClientBars({
  clients,
  kind,
  selected,
}: {
  clients: ClientModel[];
  kind: 'deficit' | 'counter';
  selected: string | null;
}) {
  const values = clients.map((c) => (kind === 'deficit' ? c.deficit : c.counter));
  const finite = values.filter((v): v is number => v !== null);
  const lo = Math.min(0, ...finite);
  const hi = Math.max(0, ...finite, 1e-9);
  const [boxRef, measured] = useWidth<HTMLDivElement>(480);
  // rows tall enough for their text: 18 px while presenting ran the names out of the SVG (F5); when
  // presenting, as tall as the totals table's rows (~1.75 em), which a tour flips to and whose room it
  // keeps, and easier to tell apart from the back of the room
  const axisFont = useAxisFont();
  const rowH = axisFont > 14 ? Math.ceil(axisFont * 1.75) : 20;
  const labelW = 90;
  const valueW = 64;
  const W = Math.max(240, measured);
  const H = clients.length * rowH + 6;
  const x = scaleLinear()
    .domain([lo, hi])
    .range([labelW, W - valueW]);
  const zero = Math.round(x(0) * 10) / 10;
  const what =
    kind === 'deficit'
      ? "DLPM deficit per client, summed over the workers (each worker's DLPM keeps its own; service units; a worker admits a client only while its q_i > 0)"
      : "VTC counter per client (service units charged, divided by the client's weight when scheduler.client_weights gives one; the smallest counter goes next)";
  const summary = `${what}: ${clients.map((c, i) => `${c.name} ${fmtNum(values[i])}`).join(', ')}`;
  return (
    <div className="chart cs-bars" ref={boxRef}>
      <h3>{kind === 'deficit' ? <Term id="q-i">Deficit q_i</Term> : 'Virtual counter'}</h3>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary}>
        <title>{summary}</title>
        <line className="zero" x1={zero} x2={zero} y1={0} y2={H} />
        {clients.map((c, i) => {
          const v = values[i];
          const yy = 3 + i * rowH;
          const a = v === null ? zero : Math.round(x(Math.min(0, v)) * 10) / 10;
          const b = v === null ? zero : Math.round(x(Math.max(0, v)) * 10) / 10;
          return (
            <g
              key={c.name}
              className={`client-row${selected === c.name ? ' selected' : ''}`}
              data-client={c.name}
              data-value={v ?? ''}
            >
              <text className="bar-label" x={labelW - 6} y={yy + rowH / 2} dy="0.1em" textAnchor="end">
                {c.name}
              </text>
              <rect
                x={a}
                y={yy + 2}
                width={Math.max(0, b - a)}
                height={rowH - 6}
                rx={2}
                style={{ fill: colorFor(c.index), transition: 'x 0.3s, width 0.3s' }}
              >
                <title>{`${c.name}: ${fmtNum(v)} service units`}</title>
              </rect>
              <text className="bar-value" x={W - 4} y={yy + rowH / 2} dy="0.1em" textAnchor="end">
                {fmtNum(v)}
              </text>
            </g>
          );
        })}
      </svg>
      {/* how to read the bars, in words (also fills the room a tour keeps for LPM's taller totals
          table in DLPM's step, which was left blank) */}
      <p className="legend cs-bars-key">
        {kind === 'deficit'
          ? 'Right of the line: credit left, can be admitted. Left: share used, waits for the next refill (+Q^u).'
          : counterKey(clients)}
      </p>
    </div>
  );
}

/**
 * How VTC's counters read. With client_weights, service raises a counter divided by its client's
 * weight (each listed with it): the bars compare service per unit of weight, not service, and a
 * weight-2 client is served twice as much at the same counter.
 */
export function counterKey(clients: readonly Pick<ClientModel, 'name' | 'weight'>[]): string {
  const weighted = clients.filter((c) => c.weight !== null);
  if (weighted.length === 0)
    return 'The smallest counter among waiting clients goes next; service raises a counter.';
  const list = weighted.map((c) => `${c.name} ${fmtNum(c.weight ?? 1)}`).join(', ');
  return `The smallest counter among waiting clients goes next; service raises a counter divided by the client's weight (client_weights: ${list}), so the bars compare service per unit of weight.`;
}

function PerWorkerDeficits({ clients, selected }: { clients: ClientModel[]; selected: string | null }) {
  const workers = Math.max(...clients.map((c) => c.deficitPerWorker?.length ?? 0));
  const cols = Array.from({ length: workers }, (_, w) => w);
  const all = clients.flatMap((c) => c.deficitPerWorker ?? []);
  const span = Math.max(1e-9, ...all.map(Math.abs));
  return (
    <div className="cs-perworker">
      <h3>DoubleQ deficit q(i, w) per client and worker (service units)</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">client</th>
            {cols.map((w) => (
              <th scope="col" className="num" key={w}>
                w{w}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {clients.map((c) => (
            <tr key={c.name} className={selected === c.name ? 'selected' : undefined} data-client={c.name}>
              <th scope="row">
                <span className="swatch" style={{ background: colorFor(c.index) }} aria-hidden="true" />
                {c.name}
              </th>
              {cols.map((w) => {
                const v = c.deficitPerWorker?.[w] ?? null;
                const frac = v === null ? 0 : Math.min(1, Math.abs(v) / span);
                return (
                  <td
                    key={w}
                    className="num"
                    data-worker={w}
                    data-value={v ?? ''}
                    title={`${c.name} on worker ${w}: ${fmtNum(v)}`}
                  >
                    <div
                      style={{
                        height: 4,
                        width: `${Math.round(frac * 100)}%`,
                        marginLeft: v !== null && v < 0 ? 'auto' : undefined,
                        background: v !== null && v < 0 ? 'var(--danger)' : colorFor(c.index),
                      }}
                      aria-hidden="true"
                    />
                    {fmtNum(v)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">A worker is available to a client while q(i, w) &gt; 0; red bars are negative.</p>
    </div>
  );
}

function ServiceTotals({ clients, selected }: { clients: ClientModel[]; selected: string | null }) {
  return (
    <div className="table-scroll">
      <table className="cs-totals">
        <caption className="cs-caption">
          <Term id="service-units" /> = <Term id="w-e-q">w_e · input + w_q · output tokens</Term>
        </caption>
        <thead>
          <tr>
            <th scope="col">client</th>
            <th scope="col" className="num" title="service units">
              service
            </th>
            <th scope="col" className="num" title="service units per second">
              per s
            </th>
            {/* one column for both counts: five columns overflowed a ~260 px card, cutting "running" */}
            <th scope="col" className="num cs-qr">
              queued /<br />
              running
            </th>
          </tr>
        </thead>
        <tbody>
          {clients.map((c) => (
            <tr key={c.name} className={selected === c.name ? 'selected' : undefined} data-client={c.name}>
              <th scope="row">
                <span className="swatch" style={{ background: colorFor(c.index) }} aria-hidden="true" />
                {c.name}
              </th>
              <td className="num">{fmtCount(c.service)}</td>
              <td className="num">{fmtNum(c.servicePerS)}</td>
              <td
                className="num cs-qr"
                aria-label={`${fmtCount(c.queued)} queued, ${fmtCount(c.running)} running`}
              >
                {fmtCount(c.queued)} / {fmtCount(c.running)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ServiceCurves({
  clients,
  series,
  guarantee,
  mode,
  setMode,
  selected,
  soFar,
}: {
  clients: ClientModel[];
  series: SeriesModel | null;
  guarantee: GuaranteeModel | null;
  mode: ServiceMode;
  setMode: (m: ServiceMode) => void;
  selected: string | null;
  /** The simulated time of totals taken mid-run (null: the run is over, they are the whole run's). */
  soFar: number | null;
}) {
  const hasData = series?.service.some((s) => s.some(Number.isFinite)) ?? false;
  const values = series ? series.service.map((s) => (mode === 'rate' ? rateOf(series.t, s) : s)) : [];
  // Compare's columns share one scale, so equal heights mean equal service in A and B
  const shared = useContext(ServiceScaleContext);
  const [gaugeRef, gaugeStyle] = useReserve<HTMLDivElement>(shared?.reserve ?? null, 'client-gauge');
  const sharedTop = shared ? (mode === 'rate' ? shared.rate : shared.cumulative) : 0;
  const yDomain: [number, number] | undefined = sharedTop > 0 ? [0, sharedTop * 1.05] : undefined;
  const lines: ChartLine[] = clients.map((c, i) => ({
    key: c.name,
    label: c.name,
    colorIndex: c.index,
    values: values[i] ?? [],
  }));
  const last = series ? series.t.length - 1 : -1;
  // The totals now, as the heading's time, the totals table and Compare's Difference give them: the
  // series' last sample lags them by up to one sampling interval (at t = 1.42 s the note read 14 796
  // while the table beside it read 18 266 for the only client served).
  const finals = clients.map((c) => c.service).filter(Number.isFinite);
  const spread = finals.length > 1 ? Math.max(...finals) - Math.min(...finals) : null;
  const backlogged = backloggedGap(guarantee);
  const toggle = (
    <div className="cs-toolbar">
      <span>
        Service curves,{' '}
        <span className="cs-service-view" title={SYSTEM_VIEW_WHAT}>
          {SYSTEM_VIEW}
        </span>
      </span>
      <fieldset className="segmented">
        <legend className="vh">Service curve mode</legend>
        {(['cumulative', 'rate'] as const).map((m) => (
          <button key={m} type="button" aria-pressed={mode === m} onClick={() => setMode(m)}>
            {m}
          </button>
        ))}
      </fieldset>
    </div>
  );
  // The bound is drawn against the gap it bounds (the Guarantees panel's, from core: only while both
  // clients were backlogged) on one axis normalised to the bound, not as a band under the curves: a
  // bound many times the service left the band mostly off the chart. The whole-run spread of the
  // curves is given apart, as what it is: nothing bounds it.
  const gauge =
    mode === 'cumulative' && hasData && spread !== null ? (
      <SpreadGauge gap={backlogged} spread={spread} soFar={soFar} />
    ) : null;
  if (!series || !hasData) {
    return (
      <div className="cs-curves">
        {toggle}
        <p className="empty">
          Service curves appear once the run has recorded some time: press Play or Step.
        </p>
      </div>
    );
  }
  const lastVals = clients.map((c, i) => `${c.name} ${fmtNum(values[i]?.[last])}`).join(', ');
  const summary =
    `${mode === 'rate' ? 'Service rate' : 'Cumulative service'} per client over ${fmtNum(series.t[last])} s` +
    ` (${mode === 'rate' ? 'service units/s' : 'service units'}); latest: ${lastVals}` +
    (mode === 'cumulative' && spread !== null
      ? `; ${soFar === null ? 'whole-run spread' : 'spread so far'} ${fmtNum(spread)}`
      : '') +
    (mode === 'cumulative' && backlogged !== null && backlogged.pair !== null
      ? `; largest gap while both backlogged ${fmtNum(backlogged.peak)}` +
        (backlogged.bound !== null ? ` of bound ${fmtNum(backlogged.bound)}` : '')
      : '');
  return (
    <div className="cs-curves">
      {toggle}
      <TimeChart
        t={series.t}
        lines={lines}
        yLabel={mode === 'rate' ? 'service units/s' : 'service units'}
        summary={summary}
        highlightKey={selected}
        {...(yDomain ? { yDomain } : {})}
      />
      <p className="hint cs-service-kind" data-testid="cs-service-kind">
        System view: w_e per computed (uncached) input token + w_q per output token. Figures' Jain's index
        gives it beside the client view (whole prompts).
      </p>
      <div className="cs-gauge-room" ref={gaugeRef} style={gaugeStyle}>
        {gauge && shared?.reserve ? (
          // in a tour, the other kind of gauge (with a bound, or without) drawn unseen in the same cell
          // with this step's figures, so the room is kept from the first step on and nothing below
          // moves when a step swaps the scheduler; both kinds take about the same height, so little of
          // it stays empty (a stand-in with the longest figures imaginable left 55 px blank under
          // LPM's gauge at 1280×720 presenting)
          <div className="cs-gauge-stand-in">
            {gauge}
            <div className="tour-ghost" aria-hidden="true" inert>
              <SpreadGauge gap={otherGauge(backlogged)} spread={spread ?? 0} soFar={soFar} />
            </div>
          </div>
        ) : (
          gauge
        )}
      </div>
    </div>
  );
}

/**
 * The gap the fairness theorem bounds, as the Guarantees panel measures it (core's pair tracker):
 * the largest |W_a − W_b| over intervals in which both clients were continuously backlogged, for the
 * worst pair so far, and the largest such gap in the joint backlogs open now; with the bound in force
 * and the violations core counted. Null before core has a guarantee model (no cluster run).
 */
export interface BackloggedGap {
  /** The worst pair's largest backlogged gap so far (0 while no pair was backlogged together). */
  peak: number;
  /** "alice–hog", or null while no pair was backlogged together. */
  pair: string | null;
  /** The largest gap among the pairs backlogged together now; null when none is. */
  now: number | null;
  /** The pair that gap is of ("ben–eve"), null when none is backlogged together now. */
  nowPair: string | null;
  bound: number | null;
  label: string;
  /** Crossings of the bound core recorded: the only thing that makes the gauge red. */
  violations: number;
  /** Those crossings as Guarantees words them ("2 pairs over the bound"); null with none. */
  overText: string | null;
}

export function backloggedGap(g: GuaranteeModel | null): BackloggedGap | null {
  if (g === null) return null;
  let now: number | null = null;
  let nowPair: string | null = null;
  for (const p of g.pairs)
    if (p.currentGap !== null && (now === null || p.currentGap > now)) {
      now = p.currentGap;
      nowPair = pairName(p.a, p.b);
    }
  return {
    peak: g.worst?.maxGap ?? 0,
    pair: g.worst ? pairName(g.worst.a, g.worst.b) : null,
    now,
    nowPair,
    bound: g.bound,
    label: g.boundLabel,
    violations: g.violationCount,
    overText: g.violationCount > 0 ? pairsOverText(g) : null,
  };
}

/**
 * A tour's stand-in for the gauge another step shows: the same figures, with a bound when this one has
 * none (ten times the largest gap, one digit longer, as a bound above the gaps prints) and without one when this one has it.
 */
export function otherGauge(gap: BackloggedGap | null): BackloggedGap | null {
  if (gap !== null && gap.bound !== null && gap.bound > 0)
    return { ...gap, bound: null, violations: 0, overText: null };
  const peak = gap?.peak ?? 0;
  return {
    peak,
    pair: gap?.pair ?? null,
    now: gap?.now ?? null,
    nowPair: gap?.nowPair ?? null,
    // the gap at 9.99 % of it: a share printed with three digits
    bound: Math.max(10, peak / 0.0999),
    label: '',
    violations: 0,
    overText: null,
  };
}

/**
 * Like with like: the largest backlogged gap (the quantity the theorem bounds) against the bound, on an
 * axis normalised to the bound (0 … bound … 1.25 × bound), red only when core recorded a violation;
 * then the whole-run spread of the curves (leader's total − last client's), plainly, as a figure no
 * theorem bounds: clients that stop sending early fall behind without any unfairness. Without a
 * bound, the backlogged gap and the spread, and why nothing bounds them, in about the same room.
 */
function SpreadGauge({
  gap,
  spread,
  soFar,
}: {
  gap: BackloggedGap | null;
  spread: number;
  soFar: number | null;
}) {
  // mid-run the totals are the ones so far (a tryout read "whole-run" at 60 s of a 146 s run)
  const spreadNote = (
    <p className="cs-band-note cs-spread-whole">
      {soFar === null ? 'Whole-run totals' : `Totals so far (t = ${fmtNum(soFar)} s)`}: leader − last client ={' '}
      {fmtCount(spread)}. No theorem bounds this spread: a client that sends less, or stops sending, falls
      behind without any unfairness.
    </p>
  );
  const bound = gap?.bound ?? null;
  // "yet" only while the run can still bring two clients' backlogs together
  const noPair =
    soFar === null
      ? 'no two clients were ever backlogged together in this run'
      : 'no two clients backlogged together yet';
  if (gap === null || bound === null || !(bound > 0))
    return (
      <div className="cs-spread gu-gauges" data-bound="none">
        <div className="gu-gauge">
          <span className="gu-gauge-name">backlogged gap</span>
          <span className="cs-spread-none">no bound</span>
          <span className="gu-gauge-text cs-spread-text">
            {gap !== null && gap.pair !== null
              ? `largest gap while both clients were backlogged = ${fmtCount(gap.peak)} (${gap.pair}): no fairness theorem covers this run, so nothing bounds it`
              : `${noPair}; no fairness theorem covers this run`}
          </span>
        </div>
        {spreadNote}
      </div>
    );
  const pos = (share: number) => `${Math.round((share / GAUGE_MAX) * 1000) / 10}%`;
  const share = gap.peak / bound;
  const pct = share < 0.001 && gap.peak > 0 ? '< 0.1' : fmtNum(share * 100);
  const over = gap.violations > 0;
  return (
    <div
      className="cs-spread gu-gauges"
      data-share={Math.round(share * 1e4) / 1e4}
      data-violations={gap.violations}
    >
      <div className="gu-gauge-axis" aria-hidden="true">
        <span style={{ left: '0%' }}>0</span>
        <span style={{ left: pos(1) }}>bound</span>
      </div>
      <div className={`gu-gauge${over ? ' over' : ''}`}>
        <span className="gu-gauge-name">backlogged gap</span>
        <span className="gu-gauge-track" aria-hidden="true">
          <span className="gu-gauge-peak" style={{ width: pos(gaugeShare(gap.peak, bound)) }} />
          <span className="gu-gauge-now" style={{ width: pos(gaugeShare(gap.now ?? 0, bound)) }} />
          <span className="gu-gauge-bound" style={{ left: pos(1) }} />
        </span>
        {/* the whole width under the track: beside it, a narrow column wrapped it onto seven lines */}
        <span className="gu-gauge-text cs-spread-text" title={gap.label || undefined}>
          {gap.pair !== null
            ? `largest gap while both clients were backlogged = ${fmtCount(gap.peak)} (${gap.pair}) = ${pct} % of the bound ${fmtCount(bound)}`
            : `${noPair}; the bound is ${fmtCount(bound)}`}
          {/* the pair named when it is another than the worst one: "= 25 173 (cat–eve) … · now 14 221"
              read as cat–eve's gap now, which Guarantees beside it gave as 13 226 */}
          {gap.now !== null
            ? ` · now ${fmtCount(gap.now)}${gap.nowPair !== null && gap.nowPair !== gap.pair ? ` (${gap.nowPair})` : ''}`
            : ''}
          {over && gap.overText !== null ? ` · ${gap.overText} (see Guarantees)` : ''}
        </span>
      </div>
      {spreadNote}
    </div>
  );
}
