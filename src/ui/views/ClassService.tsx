/**
 * Class service (#14.3): for a cluster behind Dynamo's policy-class queues, what share of
 * uncached-token service each class gets. The share chart compares like with like: each class's part
 * of DRR's charge (a popped request's cost, max(1, uncached tokens)) over the pops made while another
 * class also had requests queued, next to what the quanta predict for those same pops (dashed) — a
 * quantum split holds only while the classes contend, so a whole-run share set beside it disagrees
 * whenever one class queues alone for a while. Then the served tokens, the queues, the rejections
 * (HTTP 529), and a table with the run JSON's figures, the whole-run share among them (with a chart
 * and a column for the requests shed because their due time passed, HTTP 429, when any were). Classes
 * that saw no request are listed by name only.
 */
import { type ReactNode, useId } from 'react';
import { fmtCount, fmtNum, fmtPercent, percentColumn, secondsColumn } from './format';
import { colorFor } from './palette';
import { readClassService } from './class-service-read';
import { TimeChart } from './TimeChart';
import type { ViewProps } from './types';

export function ClassService({ snapshot, highlight }: ViewProps) {
  const summaryId = useId();
  const cs = readClassService(snapshot);
  if (cs === null) {
    return (
      <section className="panel view class-service" aria-label="Class service">
        <h2>Class service</h2>
        <p className="empty">
          This view needs a cluster run behind policy-class queues (a policy under router.policy).
        </p>
      </section>
    );
  }
  const all = cs.classes.map((c, i) => ({ ...c, index: i }));
  const queuedNow = all.reduce((n, c) => n + c.queued, 0);
  const active = all.filter((c) => c.dispatched + c.rejected + c.shed + c.queued > 0);
  const idle = all.filter((c) => c.dispatched + c.rejected + c.shed + c.queued === 0);
  const shed = active.some((c) => c.shed > 0);
  const { t } = cs.series;
  const { contended, predicted: predictedSeries } = cs.series;
  const shareLines = active.map((c) => ({
    key: c.name,
    label: c.name,
    colorIndex: c.index,
    values: contendedShares(contended, active, c.index),
  }));
  const predicted = active
    .filter((c) => c.contended_quantum_share !== null)
    .map((c) => ({
      key: `${c.name} (quantum)`,
      label: `${c.name}: its quantum's share`,
      colorIndex: c.index,
      dashed: true,
      values: contendedShares(predictedSeries, active, c.index),
    }));
  const sel = highlight?.class ?? null;
  /** "name figure, …" over the active classes, for a chart's text alternative. */
  const perClass = (figure: (c: (typeof active)[number]) => number) =>
    active.map((c) => `${c.name} ${fmtCount(figure(c))}`).join(', ');
  const contendedAny = active.some((c) => c.contended_share !== null);
  const shareSummary = contendedAny
    ? `Share of DRR's charge while another class was queued, per class; now ${active
        .map(
          (c) =>
            `${c.name} ${fmtPercent(c.contended_share)}${c.contended_quantum_share !== null ? ` (its quantum predicts ${fmtPercent(c.contended_quantum_share)})` : ''}`,
        )
        .join(', ')}`
    : 'No pop yet while two classes had requests queued: nothing for the quanta to divide';
  const waitColumn = secondsColumn(active.map((c) => c.p99_queue_wait_s));
  // each share column in one number of decimals (alone, 0.9 % stood above 14 %)
  const shareColumn = percentColumn(active.map((c) => c.share));
  const contendedColumn = percentColumn(active.map((c) => c.contended_share));
  const predictedColumn = percentColumn(active.map((c) => c.contended_quantum_share));
  // the table's columns after the class name (the narrow card labels each figure with its column's name)
  const columns: { label: string; value: (c: (typeof active)[number]) => string }[] = [
    { label: 'quantum', value: (c) => fmtCount(c.quantum) },
    { label: 'served uncached tokens', value: (c) => fmtCount(c.served_uncached_tokens) },
    { label: 'share of run', value: (c) => shareColumn(c.share) },
    {
      label: 'share while contended',
      value: (c) => (c.contended_share === null ? '–' : contendedColumn(c.contended_share)),
    },
    {
      label: 'its quantum predicts',
      value: (c) => (c.contended_quantum_share === null ? '–' : predictedColumn(c.contended_quantum_share)),
    },
    { label: 'dispatched', value: (c) => fmtCount(c.dispatched) },
    // the requests turned away, in one column: an eleventh one for the shed made the table too wide
    // for the card where it is drawn as a table (≥ 760 px), so it scrolled sideways
    shed
      ? {
          label: 'rejected (529) / shed past due (429)',
          value: (c) => `${fmtCount(c.rejected)} / ${fmtCount(c.shed)}`,
        }
      : { label: 'rejected (529)', value: (c) => fmtCount(c.rejected) },
    { label: 'queued', value: (c) => fmtCount(c.queued) },
    // one unit and number of decimals for the column (each alone read 281 ms beside 3.17 s)
    { label: 'p99 router wait', value: (c) => waitColumn(c.p99_queue_wait_s) },
  ];
  // the table's text alternative, in the charts' words: what each class got, against its quantum
  const tableSummary = `Per class so far: ${active
    .map(
      (c) =>
        `${c.name} ${fmtPercent(c.share)} of the served uncached tokens over the run, ${c.contended_share !== null ? `${fmtPercent(c.contended_share)} of DRR's charge while another class was queued (its quantum predicts ${fmtPercent(c.contended_quantum_share)})` : 'never popped while another class was queued'}, ${fmtCount(c.dispatched)} dispatched, ${fmtCount(c.rejected)} rejected${shed ? `, ${fmtCount(c.shed)} shed` : ''}, ${fmtCount(c.queued)} queued`,
    )
    .join('; ')}`;
  return (
    <section
      className="panel view class-service"
      aria-label="Class service"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a focused view takes ← / → to move the playhead, as every other view does
      tabIndex={0}
      aria-keyshortcuts="ArrowLeft ArrowRight"
    >
      <h2>Class service</h2>
      <p className="muted cs-lede">
        What DRR divides: each popped request's cost (its uncached tokens, prompt minus the router's
        cached_tokens at arrival), only among the classes with requests queued. The share chart counts the
        pops made while another class was queued too
        {cs.saturated_s > 0 ? ` (some class queued for ${fmtNum(cs.saturated_s)} s so far)` : ''}; dashed:
        what the quanta predict for those same pops. The table's share of run counts every dispatch, including
        the times a class queued alone. {saturationNote(cs.saturated_s, queuedNow)}
      </p>
      {active.length === 0 ? (
        <p className="empty">No request has reached a class yet.</p>
      ) : (
        <>
          <ul className="cs-legend" aria-label="Classes">
            {active.map((c) => (
              <li key={c.name}>
                <span className="cs-swatch" style={{ background: colorFor(c.index) }} aria-hidden="true" />
                {c.name}
              </li>
            ))}
            <li className="muted">solid: measured · dashed: the quanta's prediction</li>
          </ul>
          <div className="fig-grid">
            <div>
              <h3>Share of DRR's charge while classes contend</h3>
              <TimeChart
                t={t}
                lines={[...shareLines, ...predicted]}
                yLabel="share (cumulative)"
                yDomain={[0, 1]}
                summary={shareSummary}
                highlightKey={sel}
                height={200}
              />
            </div>
            <ClassChart
              title="Served uncached tokens"
              t={t}
              classes={active}
              values={cs.series.served}
              yLabel="tokens (cumulative)"
              summary={`Cumulative served uncached tokens per class: ${perClass((c) => c.served_uncached_tokens)}`}
              selected={sel}
            />
            <ClassChart
              title="Queue length"
              t={t}
              classes={active}
              values={cs.series.queued}
              yLabel="requests queued"
              summary={`Requests waiting in each class queue over time; now ${perClass((c) => c.queued)}`}
              selected={sel}
            />
            <ClassChart
              title="Rejections (HTTP 529)"
              t={t}
              classes={active}
              values={cs.series.rejected}
              yLabel="requests rejected (cumulative)"
              summary={`Requests rejected by each class's queue limits: ${perClass((c) => c.rejected)}`}
              selected={sel}
            />
            {shed && (
              <ClassChart
                title="Shed past due (HTTP 429)"
                t={t}
                classes={active}
                values={cs.series.shed}
                yLabel="requests shed (cumulative)"
                summary={`Queued requests each class shed because their due time passed: ${perClass((c) => c.shed)}`}
                selected={sel}
              />
            )}
          </div>
          <div className="table-scroll">
            {/* explicit roles: where the card is narrow its rows are drawn as blocks (views.css), and a
                table element restyled so loses its table semantics in some browsers */}
            <table
              className="cs-table"
              // biome-ignore lint/a11y/noRedundantRoles: kept where views.css draws the rows as blocks
              role="table"
              aria-describedby={summaryId}
            >
              <caption>Per class, so far</caption>
              <thead
                // biome-ignore lint/a11y/noRedundantRoles: kept where views.css draws the rows as blocks
                role="rowgroup"
              >
                <tr
                  // biome-ignore lint/a11y/noRedundantRoles: kept where views.css draws the rows as blocks
                  role="row"
                >
                  <th
                    scope="col"
                    // biome-ignore lint/a11y/noRedundantRoles: kept where views.css draws the rows as blocks
                    role="columnheader"
                  >
                    class
                  </th>
                  {columns.map((c) => (
                    <th
                      key={c.label}
                      scope="col"
                      // biome-ignore lint/a11y/noRedundantRoles: kept where views.css draws the rows as blocks
                      role="columnheader"
                    >
                      {c.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody
                // biome-ignore lint/a11y/noRedundantRoles: kept where views.css draws the rows as blocks
                role="rowgroup"
              >
                {active.map((c) => (
                  <tr
                    key={c.name}
                    // biome-ignore lint/a11y/noRedundantRoles: kept where views.css draws the rows as blocks
                    role="row"
                    className={sel === c.name ? 'selected' : undefined}
                  >
                    <th
                      scope="row"
                      // biome-ignore lint/a11y/noRedundantRoles: kept where views.css draws the rows as blocks
                      role="rowheader"
                    >
                      <span
                        className="cs-swatch"
                        style={{ background: colorFor(c.index) }}
                        aria-hidden="true"
                      />
                      {breakable(c.name)}
                    </th>
                    {columns.map((col) => (
                      <td
                        key={col.label}
                        // biome-ignore lint/a11y/noRedundantRoles: kept where views.css draws the rows as blocks
                        role="cell"
                        data-label={col.label}
                      >
                        {col.value(c)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="vh" id={summaryId}>
              {tableSummary}
            </p>
          </div>
        </>
      )}
      {idle.length > 0 && (
        <p className="muted">No requests so far in: {idle.map((c) => c.name).join(', ')}.</p>
      )}
    </section>
  );
}

/**
 * A class name that may wrap after its underscores ("interactive_" / "cached"): unbroken, the longest
 * name set the table's first column (178 px of an 811 px card at 1280×720 at 150 %).
 */
export function breakable(name: string): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  for (const part of name.split(/(?<=_)/)) {
    if (at > 0) out.push(<wbr key={`wbr-${at}`} />);
    out.push(part);
    at += part.length;
  }
  return out;
}

/**
 * Per sample, class `index`'s part of the cumulative sums in `rows` (contended charge, or its quantum
 * prediction) over the active classes; NaN before any contended pop.
 */
export function contendedShares(
  rows: readonly number[][],
  active: readonly { index: number }[],
  index: number,
): number[] {
  const own = rows[index] ?? [];
  return own.map((v, k) => {
    let total = 0;
    for (const c of active) total += rows[c.index]?.[k] ?? 0;
    return total > 0 ? v / total : Number.NaN;
  });
}

/**
 * Why there is no dashed line yet. The queued time is counted between events, so at the instant the
 * first queue forms (the ring shows a queued class) none has passed: the old wording, "at least half
 * of the 0 s during which any class queued", read as if nothing had queued.
 */
export function saturationNote(saturatedS: number, queuedNow: number): string {
  if (saturatedS > 0) return '';
  return queuedNow > 0
    ? 'A class queue formed at this instant: no simulated time has passed with a queue yet, so no class counts as backlogged and there is no prediction to draw.'
    : 'No class has queued yet, so there is no prediction to draw.';
}

/** One per-class series over time (served tokens, queue length, rejections): a titled chart. */
function ClassChart({
  title,
  t,
  classes,
  values,
  yLabel,
  summary,
  selected,
}: {
  title: string;
  t: number[];
  classes: readonly { name: string; index: number }[];
  /** Per class index, the series aligned with `t`. */
  values: readonly number[][];
  yLabel: string;
  summary: string;
  selected: string | null;
}) {
  return (
    <div>
      <h3>{title}</h3>
      <TimeChart
        t={t}
        lines={classes.map((c) => ({
          key: c.name,
          label: c.name,
          colorIndex: c.index,
          values: values[c.index],
        }))}
        yLabel={yLabel}
        summary={summary}
        highlightKey={selected}
        height={200}
      />
    </div>
  );
}
