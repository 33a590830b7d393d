/**
 * The Difference panel: run B against run A at the same simulated moment, or each at its own end
 * once one is over (a line says which figures are final). A chart over time (a
 * metric picked from a list: B − A per client, or A and B side by side) with its legend and unit,
 * and a table of the current values of both runs and their difference.
 */
import { JAIN_NA } from '../../core/metrics/jain';
import { Fragment, useState } from 'react';
import type { Driver } from '../driver';
import { fmtNum } from '../views/format';
import { JainNa } from '../views/JainNa';
import { colorFor } from '../views/palette';
import { TimeChart } from '../views/TimeChart';
import { useUi } from '../../state/store';
import {
  CHART_METRICS,
  type ChartMetric,
  chartData,
  chartEndNote,
  classRows,
  type DiffRow,
  diffMoment,
  dispatchDifference,
  diffRows,
  drrRows,
  figuresOf,
  fmtRow,
} from './diff';
import { breakable } from '../views/ClassService';
import { RunLabel } from './RunLabel';
import { compareRunner } from './runner';
import { useCompare } from './store';

function lastFinite(a: readonly number[]): number | null {
  for (let i = a.length - 1; i >= 0; i--) if (Number.isFinite(a[i])) return a[i];
  return null;
}

export function DifferencePanel({ driver }: { driver: Driver }) {
  const [metric, setMetric] = useState<ChartMetric>('service');
  const snapA = useCompare((s) => s.pairedA);
  const snapB = useCompare((s) => s.snapshotB);
  const history = useCompare((s) => s.history);
  const labelA = useCompare((s) => s.labelA);
  const labelB = useCompare((s) => s.labelB);
  const titleB = useCompare((s) => s.titleB);
  const sandbox = useUi((s) => s.kind === 'arbitration');
  const timeB = useCompare((s) => s.simTimeB);
  // A's end, once A is over (null before): A's side is final when the snapshot paired with B is that one
  const endA = useUi((s) => (s.done ? s.simTime : null));
  const doneB = useCompare((s) => s.doneB);
  const a = figuresOf(snapA);
  const b = figuresOf(snapB);
  const rows = sandbox ? drrRows(snapA, snapB) : [...diffRows(a, b), ...classRows(snapA, snapB)];
  const clockA = { t: a.t, done: endA !== null && a.t === endA };
  const clockB = { t: b.t ?? timeB, done: doneB };
  const data = sandbox ? null : chartData(metric, snapA, snapB, history, { a: clockA.done, b: clockB.done });
  const moment = diffMoment(clockA, clockB, sandbox);
  const tMax = data ? lastFinite(data.t) : null;
  const endNote = data && tMax !== null ? chartEndNote(data.kind, clockA, clockB, tMax) : null;
  const ended = (key: string) =>
    key === 'A' && clockA.done && clockA.t !== null
      ? ` (ended at ${clockA.t.toFixed(3)} s)`
      : key === 'B' && clockB.done && clockB.t !== null
        ? ` (ended at ${clockB.t.toFixed(3)} s)`
        : '';
  const metricLabel = CHART_METRICS.find((m) => m.id === metric)?.label ?? metric;
  const summary = data
    ? `${metricLabel} over simulated time; latest: ${data.lines
        .map((l) => `${l.label} ${fmtNum(lastFinite(l.values))}`)
        .join(', ')} (${data.yLabel})${endNote ? `. ${endNote}` : ''}`
    : '';
  return (
    <section className="panel view diff-view" aria-label="Difference">
      <div className="panel-head">
        <h2>
          Difference{' '}
          <span className="view-sub">
            {/* each clause whole ("B at 109.448 s"): the heading wraps between them, never inside */}
            {moment.heading.split(', ').map((clause, i, all) => (
              <Fragment key={clause}>
                {i > 0 && ' '}
                <span className="diff-clause">
                  {clause}
                  {i < all.length - 1 ? ',' : ''}
                </span>
              </Fragment>
            ))}
          </span>
        </h2>
        <span className="toolbar-gap" />
        <button
          type="button"
          className="small"
          title="Change what run B differs in"
          onClick={() => useCompare.setState({ dialogOpen: true })}
        >
          Edit B
        </button>
        <button
          type="button"
          className="small"
          title="Back to one run (Esc)"
          onClick={() => compareRunner(driver).exit()}
        >
          Exit compare
        </button>
      </div>
      <p className="diff-runs">
        <span className="compare-tag tag-a">A</span> {labelA} <span className="compare-tag tag-b">B</span>{' '}
        <span className="diff-label-b" title={titleB ?? undefined}>
          <RunLabel label={labelB} />
        </span>
      </p>
      {moment.note && (
        <p className="diff-moment" data-testid="diff-moment" role="status">
          {moment.note}
        </p>
      )}
      {sandbox ? (
        <p className="empty" data-testid="dispatch-difference">
          The DRR sandbox has no clients or service over time: the table compares the classes.{' '}
          {dispatchDifference(snapA, snapB)}
        </p>
      ) : (
        <label className="field-col">
          <span>Chart</span>
          <select
            aria-label="Difference chart"
            value={metric}
            onChange={(e) => setMetric(e.target.value as ChartMetric)}
          >
            {CHART_METRICS.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {sandbox ? null : data ? (
        <>
          <TimeChart
            t={data.t}
            lines={data.lines}
            yLabel={data.yLabel}
            {...(data.yDomain ? { yDomain: data.yDomain } : {})}
            summary={summary}
            height={170}
          />
          <ul className="legend plain-list diff-legend" aria-label="Chart legend">
            {data.lines.map((l) => (
              <li key={l.key}>
                <span
                  className={`legend-line${l.dashed ? ' dashed' : ''}`}
                  style={{ color: l.colorIndex === null ? 'var(--ink)' : colorFor(l.colorIndex) }}
                  aria-hidden="true"
                />
                {data.kind === 'pair'
                  ? `${l.key}: ${l.key === 'A' ? labelA : labelB}${ended(l.key)}`
                  : l.label}
              </li>
            ))}
            {data.kind === 'delta' && <li className="unit">above 0: B higher</li>}
          </ul>
          {endNote && (
            <p className="diff-chart-end" data-testid="diff-chart-end">
              {endNote}
            </p>
          )}
        </>
      ) : (
        <p className="empty">Step or play: the curves appear once both runs have recorded some time.</p>
      )}
      <DiffTable rows={rows} />
      {/* the log beside (below on a wide page) is the page's own run: A's; B runs in a worker of its own */}
      <p className="hint" data-testid="diff-log-note">
        The Decision log is run <span className="compare-tag tag-a">A</span>'s: run B's decisions are not
        listed.
      </p>
    </section>
  );
}

/** The Difference table: A, B and B − A for every row, and the reason in words when one side is n/a. */
export function DiffTable({ rows }: { rows: DiffRow[] }) {
  return (
    <>
      <div className="table-scroll">
        <table className="diff-table">
          <caption className="vh">Current values of runs A and B and the difference B − A</caption>
          <thead>
            <tr>
              <th scope="col">figure</th>
              <th scope="col" className="num">
                A
              </th>
              <th scope="col" className="num">
                B
              </th>
              <th scope="col" className="num">
                B − A
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-row={r.key}>
                <th scope="row" {...(r.title ? { title: r.title } : {})}>
                  {/* class names may wrap after an underscore, not inside a word ("interactive_ca" / "ched") */}
                  {breakable(r.label)}
                  {r.unit && r.unit !== 's' && r.unit !== '%' ? (
                    <span className="unit"> ({r.unit})</span>
                  ) : null}
                  {/* one piece: "(as run --json)" broke after "--" */}
                  {r.note ? (
                    <>
                      {' '}
                      <span className="unit diff-note">({r.note})</span>
                    </>
                  ) : null}
                </th>
                {r.naA && r.naB ? (
                  // neither run's index means anything yet: the reason once, across A, B and B − A
                  <td className="na-span" colSpan={3}>
                    <JainNa />
                  </td>
                ) : (
                  <RowCells r={r} />
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.some((r) => Boolean(r.naA) !== Boolean(r.naB)) && (
        // one run's index is a short "n/a" in its cell: the reason in words, for touch and keyboard
        // users, whom the cell's tooltip never reaches
        <p className="hint" data-testid="diff-na-note">
          {JAIN_NA}.
        </p>
      )}
    </>
  );
}

function RowCells({ r }: { r: DiffRow }) {
  const f = fmtRow(r);
  return (
    <>
      <td className="num">{r.naA ? <JainNa short /> : f.a}</td>
      <td className="num">{r.naB ? <JainNa short /> : f.b}</td>
      <td className="num" {...(/ pp$/.test(f.delta) ? { title: 'percentage points' } : {})}>
        {f.delta}
      </td>
    </>
  );
}
