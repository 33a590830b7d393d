/**
 * Per-client fairness state and service over time: DLPM deficits, DoubleQ per-worker deficits or VTC
 * counters as bars, and the service curves (cumulative or rate) with the fairness bound as a band
 * when the snapshot carries one. Service is in service units (w_e · uncached input tokens + w_q ·
 * output tokens).
 */
import { Term } from '../Glossary';
import { scaleLinear } from 'd3';
import { useContext, useState } from 'react';
import { fmtCount, fmtNum } from './format';
import { clientShape, colorFor } from './palette';
import { ServiceScaleContext } from './service-scale';
import {
  type ClientModel,
  readClients,
  readFairnessBound,
  readSeries,
  simTime,
  type SeriesModel,
} from './read';
import { gaugeShare, GAUGE_MAX } from './Guarantees';
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
  const bound = readFairnessBound(snapshot);
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
        bound={bound}
        mode={mode}
        setMode={setMode}
        selected={sel}
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
      ? 'DLPM deficit per client (service units; admits only while > 0)'
      : 'VTC counter per client (service units; the smallest counter goes next)';
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
          : 'The smallest counter among waiting clients goes next; service raises a counter.'}
      </p>
    </div>
  );
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
  bound,
  mode,
  setMode,
  selected,
}: {
  clients: ClientModel[];
  series: SeriesModel | null;
  bound: { value: number; label: string } | null;
  mode: ServiceMode;
  setMode: (m: ServiceMode) => void;
  selected: string | null;
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
  const finals = series && last >= 0 ? series.service.map((s) => s[last]).filter(Number.isFinite) : [];
  const gap = finals.length > 1 ? Math.max(...finals) - Math.min(...finals) : null;
  const toggle = (
    <div className="cs-toolbar">
      <span>Service curves</span>
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
  // The bound is drawn against the spread on one axis normalised to the bound (as the Guarantees
  // gauges are), not as a band under the curves: a bound many times the service left the band
  // mostly off the chart. Without a bound the spread is still given, with why nothing bounds it.
  const gauge =
    mode === 'cumulative' && hasData && gap !== null ? <SpreadGauge gap={gap} bound={bound} /> : null;
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
    (mode === 'cumulative' && gap !== null ? `; largest gap ${fmtNum(gap)}` : '') +
    (bound && mode === 'cumulative' ? `, bound ${fmtNum(bound.value)}` : '');
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
      <div className="cs-gauge-room" ref={gaugeRef} style={gaugeStyle}>
        {gauge && shared?.reserve ? (
          // in a tour, the tallest gauge another step may show (long figures, a bound) drawn unseen in
          // the same cell, so the room is kept from the first step on and nothing below moves; the
          // gauge with and without a bound take about the same height, so little of it stays empty
          <div className="cs-gauge-stand-in">
            {gauge}
            <div className="tour-ghost" aria-hidden="true" inert>
              <SpreadGauge gap={88_888_888} bound={{ value: 888_888_888, label: '' }} />
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
 * The spread of the curves now (leader's total − last client's total) against the theorem's bound, on
 * an axis normalised to the bound (0 … bound … 1.25 × bound), with both numbers; without a bound, the
 * spread and why nothing bounds it, in about the same room.
 */
function SpreadGauge({ gap, bound }: { gap: number; bound: { value: number; label: string } | null }) {
  const note = (
    <p className="cs-band-note">
      Indicative: whole-run totals; the Guarantees panel checks each pair's gap exactly, only while both
      clients are backlogged.
    </p>
  );
  if (!bound || !(bound.value > 0))
    return (
      <div className="cs-spread gu-gauges" data-bound="none">
        <div className="gu-gauge">
          <span className="gu-gauge-name">spread now</span>
          <span className="cs-spread-none">no bound</span>
          <span className="gu-gauge-text cs-spread-text">
            leader − last client = {fmtCount(gap)}: no fairness theorem covers this run, so nothing bounds it
          </span>
        </div>
        {note}
      </div>
    );
  const pos = (share: number) => `${Math.round((share / GAUGE_MAX) * 1000) / 10}%`;
  const share = gap / bound.value;
  const pct = share < 0.001 && gap > 0 ? '< 0.1' : fmtNum(share * 100);
  return (
    <div className="cs-spread gu-gauges" data-share={Math.round(share * 1e4) / 1e4}>
      <div className="gu-gauge-axis" aria-hidden="true">
        <span style={{ left: '0%' }}>0</span>
        <span style={{ left: pos(1) }}>bound</span>
      </div>
      <div className={`gu-gauge${gap > bound.value ? ' over' : ''}`}>
        <span className="gu-gauge-name">spread now</span>
        <span className="gu-gauge-track" aria-hidden="true">
          <span className="gu-gauge-now" style={{ width: pos(gaugeShare(gap, bound.value)) }} />
          <span className="gu-gauge-bound" style={{ left: pos(1) }} />
        </span>
        {/* the whole width under the track: beside it, a narrow column wrapped it onto seven lines */}
        <span className="gu-gauge-text cs-spread-text" title={bound.label || undefined}>
          leader − last client = {fmtCount(gap)} = {pct} % of the bound {fmtCount(bound.value)}
        </span>
      </div>
      {note}
    </div>
  );
}
