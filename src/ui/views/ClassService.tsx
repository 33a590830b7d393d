/**
 * Class service (#14.3): for a cluster behind Dynamo's policy-class queues, what share of
 * uncached-token service each class gets — its cumulative share over time next to the share its
 * quantum predicts for the classes that stayed backlogged (dashed), the served tokens, its queue and
 * its rejections (HTTP 529), and a table with the run JSON's figures (with a chart and a column for
 * the requests shed because their due time passed, HTTP 429, when any were). Classes that saw no request are
 * listed by name only.
 */
import { useId } from 'react';
import { fmtCount, fmtNum, fmtPercent, fmtSeconds } from './format';
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
  const total = t.map((_, k) => active.reduce((s, c) => s + (cs.series.served[c.index][k] ?? 0), 0));
  const shareLines = active.map((c) => ({
    key: c.name,
    label: c.name,
    colorIndex: c.index,
    values: cs.series.served[c.index].map((v, k) => (total[k] > 0 ? v / total[k] : Number.NaN)),
  }));
  const predicted = active
    .filter((c) => c.quantum_share !== null)
    .map((c) => ({
      key: `${c.name} (quantum)`,
      label: `${c.name}: quantum share`,
      colorIndex: c.index,
      dashed: true,
      values: t.map(() => c.quantum_share as number),
    }));
  const sel = highlight?.class ?? null;
  /** "name figure, …" over the active classes, for a chart's text alternative. */
  const perClass = (figure: (c: (typeof active)[number]) => number) =>
    active.map((c) => `${c.name} ${fmtCount(figure(c))}`).join(', ');
  const shareSummary = `Cumulative share of served uncached tokens per class; now ${active
    .map(
      (c) =>
        `${c.name} ${fmtPercent(c.share)}${c.quantum_share !== null ? ` (its quantum predicts ${fmtPercent(c.quantum_share)})` : ''}`,
    )
    .join(', ')}`;
  // the table's columns after the class name (the narrow card labels each figure with its column's name)
  const columns: { label: string; value: (c: (typeof active)[number]) => string }[] = [
    { label: 'quantum', value: (c) => fmtCount(c.quantum) },
    { label: 'served uncached tokens', value: (c) => fmtCount(c.served_uncached_tokens) },
    { label: 'share', value: (c) => fmtPercent(c.share) },
    {
      label: 'quantum share',
      value: (c) => (c.quantum_share === null ? 'not backlogged' : fmtPercent(c.quantum_share)),
    },
    { label: 'dispatched', value: (c) => fmtCount(c.dispatched) },
    { label: 'rejected (529)', value: (c) => fmtCount(c.rejected) },
    ...(shed
      ? [{ label: 'shed past due (429)', value: (c: (typeof active)[number]) => fmtCount(c.shed) }]
      : []),
    { label: 'queued', value: (c) => fmtCount(c.queued) },
    { label: 'p99 router wait', value: (c) => fmtSeconds(c.p99_queue_wait_s) },
  ];
  // the table's text alternative, in the charts' words: what each class got, against its quantum
  const tableSummary = `Per class so far: ${active
    .map(
      (c) =>
        `${c.name} ${fmtPercent(c.share)} of the served uncached tokens${c.quantum_share !== null ? ` (its quantum predicts ${fmtPercent(c.quantum_share)})` : ''}, ${fmtCount(c.dispatched)} dispatched, ${fmtCount(c.rejected)} rejected${shed ? `, ${fmtCount(c.shed)} shed` : ''}, ${fmtCount(c.queued)} queued`,
    )
    .join('; ')}`;
  return (
    <section className="panel view class-service" aria-label="Class service">
      <h2>Class service</h2>
      <p className="muted cs-lede">
        Served uncached tokens (prompt minus the router's cached_tokens) per policy class. Dashed: the share
        its quantum predicts among the classes that stayed backlogged (queue non-empty at least half of the
        time any class queued{cs.saturated_s > 0 ? `: ${fmtNum(cs.saturated_s)} s so far` : ''}).{' '}
        {saturationNote(cs.saturated_s, queuedNow)}
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
            <li className="muted">solid: measured · dashed: quantum share</li>
          </ul>
          <div className="fig-grid">
            <div>
              <h3>Cumulative share</h3>
              <TimeChart
                t={t}
                lines={[...shareLines, ...predicted]}
                yLabel="share of uncached tokens"
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
                      {c.name}
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
