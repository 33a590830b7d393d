/**
 * Headline figures of a run: the service rate over time, time to first token and end-to-end latency
 * (p50 / p99) per client as a table with bars, and Jain's fairness index over time.
 */
import { fmtNum, secondsColumn, secondsColumnUnit } from './format';
import { colorFor } from './palette';
import { type ClientModel, readClients, readSeries } from './read';
import { totalServiceRate } from './series-math';
import { JAIN_NA, jainMeaningful, runJainValue, runJainWindow } from '../../core/metrics/jain';
import { JainNa } from './JainNa';
import {
  CLIENT_VIEW,
  CLIENT_VIEW_WHAT,
  SYSTEM_VIEW,
  SYSTEM_VIEW_WHAT,
  fmtSystemJain,
  systemJain,
} from './jain-views';
import { TimeChart } from './TimeChart';
import type { ViewProps } from './types';

export function Figures({ snapshot, highlight }: ViewProps) {
  const clients = readClients(snapshot);
  const series = readSeries(snapshot, clients);
  if (clients.length === 0 && !series) {
    return (
      <section className="panel view fig-view" aria-label="Figures">
        <h2>Figures</h2>
        <p className="empty">
          No run figures yet: load a cluster scenario and press Play to see the service rate, latency per
          client and Jain's fairness index.
        </p>
      </section>
    );
  }
  const sel = highlight?.client ?? null;
  // The rate of the clients' total service (w_e · uncached input + w_q · output per second), named so: not
  // the run's throughput (completed tokens/s, as Sweep plots it), which the engine does not record over time.
  const throughput = series ? { values: totalServiceRate(series), unit: 'service units/s' } : null;
  // Jain's index as the engine computes it (core/metrics), shipped in the series; NaN (a gap, and
  // JAIN_NA in words) where it is not meaningful
  const jain = series?.jain ?? null;
  const jainNow = jain && jain.length > 0 ? jain[jain.length - 1] : Number.NaN;
  const last = (a: number[] | null | undefined) => {
    if (!a) return null;
    for (let i = a.length - 1; i >= 0; i--) if (Number.isFinite(a[i])) return a[i];
    return null;
  };
  const tEnd = series ? series.t[series.t.length - 1] : null;
  // The run JSON's jain_index at this moment (its own window, jain_interval_s): what run --json and
  // Export → Run as JSON give, so the page and the CLI agree where they name the same figure
  const runJain = snapshot?.kind === 'cluster' ? snapshot.jain_run : undefined;
  // beside it the system view (jain_index_extend, the CLI's "system view"): the service the Client
  // service chart plots, over the same window
  const sysJain = runJain && jainMeaningful(runJain) ? systemJain(snapshot) : null;
  return (
    <section
      className="panel view fig-view"
      aria-label="Figures"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a focused view takes ← / → to move the playhead
      tabIndex={0}
      aria-keyshortcuts="ArrowLeft ArrowRight"
    >
      <h2>Figures</h2>
      <div className="fig-grid">
        <div>
          <h3>Service rate</h3>
          {series && throughput?.values.some(Number.isFinite) ? (
            <TimeChart
              t={series.t}
              lines={[
                { key: 'throughput', label: 'service rate', colorIndex: null, values: throughput.values },
              ]}
              yLabel={throughput.unit}
              summary={`Service rate over ${fmtNum(tEnd)} s in ${throughput.unit}; latest ${fmtNum(last(throughput.values))}`}
              height={180}
            />
          ) : (
            <p className="empty">The service rate appears once the run has recorded some time.</p>
          )}
        </div>
        <div>
          <h3>Jain's fairness index, {CLIENT_VIEW}</h3>
          {series && jain?.some(Number.isFinite) ? (
            <TimeChart
              t={series.t}
              lines={[{ key: 'jain', label: `Jain's index, ${CLIENT_VIEW}`, colorIndex: null, values: jain }]}
              yLabel="index (1 = equal rates)"
              yDomain={[0, 1]}
              summary={`Jain's index (${CLIENT_VIEW}) of client service rates over ${fmtNum(tEnd)} s; latest ${Number.isFinite(jainNow) ? fmtNum(jainNow) : JAIN_NA} (1 means equal service rates)`}
              height={180}
            />
          ) : null}
          <p
            className={`jain-now${jain?.some(Number.isFinite) ? '' : ' empty'}`}
            data-testid="jain-now"
            title={`Jain's index of the client-view service each client got since the last of them sent its first request, up to this moment. The run's jain_index (Export → Run as JSON) ends its window at the first client's last completion instead, so once a client has finished the two differ. ${CLIENT_VIEW_WHAT}`}
          >
            now:{' '}
            {Number.isFinite(jainNow) ? (
              <>
                <span className="jain-view">{CLIENT_VIEW}</span> {jainNow.toFixed(3)}{' '}
                <span className="jain-basis">since every client's first request</span>
              </>
            ) : (
              <JainNa />
            )}
          </p>
          {runJain && (
            <p
              className="jain-now jain-run"
              data-testid="jain-run"
              title={`The run's index as run --json and Export → Run as JSON give it at this moment, from the last client's first request to the first client's last completion (jain_interval_s). Client view = jain_index, exact. System view = jain_index_extend, exact too. ${CLIENT_VIEW_WHAT} ${SYSTEM_VIEW_WHAT}`}
            >
              run:{' '}
              {jainMeaningful(runJain) ? (
                <>
                  <span className="jain-view">{CLIENT_VIEW}</span> {runJainValue(runJain)}
                  {sysJain !== null && (
                    <>
                      {' · '}
                      <span className="jain-view">{SYSTEM_VIEW}</span>{' '}
                      <span data-testid="jain-run-system">{fmtSystemJain(sysJain)}</span>
                    </>
                  )}{' '}
                  <span className="jain-basis">
                    (as <span className="jain-cli">run --json</span>, {runJainWindow(runJain)})
                  </span>
                </>
              ) : (
                <JainNa />
              )}
            </p>
          )}
          {jain?.some(Number.isFinite) && (
            <p className="hint" data-testid="jain-views-key">
              Client view: whole prompts (cached tokens too) and output, each once. System view: computed
              tokens, recomputation again, as the Client service chart plots.
            </p>
          )}
        </div>
      </div>
      {series?.queued && clients.length > 0 && (
        <div>
          <h3>Queued requests per client</h3>
          <TimeChart
            t={series.t}
            lines={clients.map((c, i) => ({
              key: c.name,
              label: c.name,
              colorIndex: c.index,
              values: series.queued?.[i] ?? [],
            }))}
            yLabel="requests waiting"
            summary={`Queued requests per client over ${fmtNum(tEnd)} s; latest: ${clients
              .map((c, i) => `${c.name} ${fmtNum(last(series.queued?.[i]))}`)
              .join(', ')}`}
            highlightKey={sel}
            height={180}
          />
        </div>
      )}
      {clients.length > 0 && <LatencyTable clients={clients} selected={sel} />}
    </section>
  );
}

function LatencyTable({ clients, selected }: { clients: ClientModel[]; selected: string | null }) {
  const maxT = Math.max(1e-9, ...clients.map((c) => c.ttftP99 ?? c.ttftP50 ?? 0));
  const maxE = Math.max(1e-9, ...clients.map((c) => c.e2eP99 ?? c.e2eP50 ?? 0));
  const bar = (p50: number | null, p99: number | null, max: number, idx: number) => (
    <div className="fig-pbar" aria-hidden="true">
      {p99 !== null && (
        <div
          className="p99"
          style={{ width: `${Math.round((p99 / max) * 1000) / 10}%`, background: colorFor(idx) }}
        />
      )}
      {p50 !== null && (
        <div
          className="p50"
          style={{ width: `${Math.round((p50 / max) * 1000) / 10}%`, background: colorFor(idx) }}
        />
      )}
    </div>
  );
  // one unit and number of decimals per column, p50 and p99 of every client alike
  const ttftValues = clients.flatMap((c) => [c.ttftP50, c.ttftP99]);
  const e2eValues = clients.flatMap((c) => [c.e2eP50, c.e2eP99]);
  const ttft = secondsColumn(ttftValues);
  const e2e = secondsColumn(e2eValues);
  return (
    <div className="fig-latency">
      <h3>Latency per client</h3>
      <div className="table-scroll">
        <table className="fig-table">
          <caption className="vh">
            {/* the units the cells use ("7 min 40 s" read against "in seconds") */}
            Time to first token (in {secondsColumnUnit(ttftValues)}) and end-to-end latency (in{' '}
            {secondsColumnUnit(e2eValues)}) per client, p50 and p99
          </caption>
          <thead>
            <tr>
              <th scope="col">client</th>
              <th scope="col" className="num" title="time to first token, p50 / p99">
                <abbr title="time to first token">TTFT</abbr> <span className="fig-pq">p50/p99</span>
              </th>
              <th scope="col" className="bars">
                <span className="vh">TTFT bars</span>
              </th>
              <th scope="col" className="num" title="end-to-end latency, p50 / p99">
                <abbr title="end-to-end latency">e2e</abbr> <span className="fig-pq">p50/p99</span>
              </th>
              <th scope="col" className="bars">
                <span className="vh">end-to-end bars</span>
              </th>
              <th scope="col" className="num" title="requests completed">
                done
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
                <td className="num lat">
                  <span className="fig-v">{ttft(c.ttftP50)}</span> /{' '}
                  <span className="fig-v">{ttft(c.ttftP99)}</span>
                </td>
                <td className="bars">{bar(c.ttftP50, c.ttftP99, maxT, c.index)}</td>
                <td className="num lat">
                  <span className="fig-v">{e2e(c.e2eP50)}</span> /{' '}
                  <span className="fig-v">{e2e(c.e2eP99)}</span>
                </td>
                <td className="bars">{bar(c.e2eP50, c.e2eP99, maxE, c.index)}</td>
                <td className="num">{fmtNum(c.completed)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="legend">
        {/* the bar key hides together with the bars (views.css, narrow panels) */}
        <span className="fig-bar-key">thin bar = p50, pale bar = p99</span>
        <span>TTFT = time to first token, e2e = end-to-end latency</span>
        <span className="unit fig-bar-key">bars scaled per column</span>
      </p>
    </div>
  );
}
