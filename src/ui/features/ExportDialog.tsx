/**
 * Export: the current run as JSON (result, snapshot, texts, request records) or CSV (per-request
 * records, time series), and any chart on the page as SVG or PNG. Everything is built in the browser
 * and downloaded from a Blob; nothing goes over the network.
 */
import { useMemo, useState } from 'react';
import { requestsCsv, runToJson, seriesCsv, toCsv } from '../../core/export';
import { useUi } from '../../state/store';
import { findCharts, downloadPng, downloadSvg } from './charts';
import { downloadText, slug } from './download';
import { Modal } from '../Modal';
import { currentTexts } from './playground';
import { useFeatures } from './store';
import { replayInWorker } from '../../worker/client';
import type { Driver } from '../driver';
import { localTraceTables } from './trace-file-store';

type What = 'json' | 'requests' | 'series';

async function exportRun(what: What, driver: Driver): Promise<string> {
  const ui = useUi.getState();
  const texts = currentTexts();
  const name = slug(ui.scenarioName || 'run');
  const at = ui.decisionCount;
  if (what === 'series') {
    const series = ui.snapshot?.kind === 'cluster' ? ui.snapshot.series : null;
    if (!series) return 'This run has no time series (the DRR sandbox steps have no clock).';
    downloadText(seriesCsv(series), `${name}-series.csv`, 'text/csv');
    return `Downloaded ${series.t.length} samples of ${Object.keys(series.rows).length} series.`;
  }
  // a dropped trace lives in the page's worker: the replay worker gets a copy of each parsed table
  const traces = await localTraceTables(driver, texts.scenario);
  const replay = await replayInWorker(
    {
      scenario: texts.scenario,
      ...(texts.policy !== undefined ? { policy: texts.policy } : {}),
      decisions: at,
    },
    traces,
  );
  if (!replay.ok) return `Export failed: ${replay.message}`;
  if (what === 'requests') {
    if (replay.kind === 'arbitration') {
      const log = replay.result.log.map((l) =>
        l.op === 'enqueue'
          ? { op: l.op, id: l.id, class: l.class, cost: null, cursor: null, carry: null }
          : {
              op: l.op,
              id: l.id,
              class: l.class ?? null,
              cost: l.cost ?? null,
              cursor: l.cursor,
              carry: l.carry,
            },
      );
      downloadText(
        toCsv(log, ['op', 'id', 'class', 'cost', 'cursor', 'carry']),
        `${name}-steps.csv`,
        'text/csv',
      );
      return `Downloaded ${log.length} sandbox steps.`;
    }
    downloadText(requestsCsv(replay.requests), `${name}-requests.csv`, 'text/csv');
    const open = replay.requests.filter((r) => r.state !== 'done' && r.state !== 'rejected').length;
    return `Downloaded ${replay.requests.length} request records at decision ${at}: ${replay.requests.length - open} finished, ${open} still in flight.`;
  }
  const json = runToJson(replay.result, replay, {
    kind: replay.kind,
    decisions: at,
    scenario_yaml: texts.scenario,
    ...(texts.policy !== undefined ? { policy_yaml: texts.policy } : {}),
    requests: replay.requests,
  });
  downloadText(json, `${name}-run.json`, 'application/json');
  return `Downloaded the run at decision ${at} as JSON.`;
}

export function ExportDialog({ driver }: { driver: Driver }) {
  const close = () => useFeatures.setState({ panel: null });
  const kind = useUi((s) => s.kind);
  const decisions = useUi((s) => s.decisionCount);
  const [status, setStatus] = useState<string>('');
  const [busy, setBusy] = useState(false);
  // The charts on the page when the dialog opened (the dialog itself draws none).
  const charts = useMemo(() => findCharts(document.querySelector('.workspace') ?? document), []);
  const run = async (what: What) => {
    setBusy(true);
    setStatus('Preparing…');
    try {
      setStatus(await exportRun(what, driver));
    } catch (err) {
      setStatus(`Export failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal label="Export" heading="bar" className="feature-dialog" onClose={close}>
      <h3 className="feature-sub">This run (at decision {decisions})</h3>
      <div className="export-row">
        <button type="button" disabled={busy} onClick={() => void run('json')}>
          Run as JSON
        </button>
        <button type="button" disabled={busy} onClick={() => void run('requests')}>
          {kind === 'arbitration' ? 'Steps as CSV' : 'Requests as CSV'}
        </button>
        <button type="button" disabled={busy || kind === 'arbitration'} onClick={() => void run('series')}>
          Time series as CSV
        </button>
      </div>
      <h3 className="feature-sub">Charts</h3>
      {charts.length === 0 ? (
        <p className="muted">No chart is drawn yet.</p>
      ) : (
        <ul className="export-charts">
          {charts.map((c) => (
            <li key={c.id}>
              <span>{c.title}</span>
              <button
                type="button"
                className="small"
                onClick={() => {
                  downloadSvg(c);
                  // the status says what the latest download was, not an earlier one
                  setStatus(`Downloaded ${c.title} as SVG.`);
                }}
                aria-label={`${c.title} as SVG`}
              >
                SVG
              </button>
              <button
                type="button"
                className="small"
                onClick={() =>
                  void downloadPng(c).then(
                    () => setStatus(`Downloaded ${c.title} as PNG.`),
                    (e) => setStatus(`PNG export failed: ${e instanceof Error ? e.message : String(e)}`),
                  )
                }
                aria-label={`${c.title} as PNG`}
              >
                PNG
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="muted" role="status">
        {status || 'Files are made in your browser; nothing is uploaded.'}
      </p>
      <div className="dialog-actions">
        <button type="button" onClick={() => useFeatures.setState({ panel: 'import' })}>
          Import a trace or BLIS spec…
        </button>
      </div>
    </Modal>
  );
}
