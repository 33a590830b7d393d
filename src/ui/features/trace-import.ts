/**
 * A request trace dropped on the page or picked in Import becomes the workload: the worker reads the
 * file locally (streamed, with progress and Cancel), then the playground loads the current
 * scenario's cluster, router and policy with its clients replaced by `trace: {file: <name>}`.
 */
import { parseDocument } from 'yaml';
import { create } from 'zustand';
import { useUi } from '../../state/store';
import { SCENARIOS } from '../scenarios';
import type { Driver } from '../driver';
import { currentTexts, openInPlayground } from './playground';
import { openPanel, useFeatures } from './store';
import { rememberTraceFile } from './trace-file-store';

export interface TraceImportState {
  status: 'idle' | 'reading' | 'loaded' | 'failed' | 'cancelled';
  name: string;
  bytes: number;
  total: number;
  /** What happened, in words (problems as `file:line: message` lines). */
  message: string;
}

export const useTraceImport = create<TraceImportState>(() => ({
  status: 'idle',
  name: '',
  bytes: 0,
  total: 0,
  message: '',
}));

const BASE_ID = 'trace-synthetic-chat';

/** The scenario that replays `name` on the cluster of `base` (a cluster scenario), or on the shipped trace scenario's. */
export function replayScenarioText(base: string, name: string, spanS: number, requests: number): string {
  let doc = parseDocument(base);
  const usable = doc.errors.length === 0 && doc.get('version') !== undefined && doc.get('ops') === undefined;
  if (!usable) doc = parseDocument(SCENARIOS.find((s) => s.id === BASE_ID)?.text ?? 'version: 1\n');
  doc.set('name', `Replay of ${name}`);
  doc.set(
    'description',
    `Replays the request trace **${name}** (${requests.toLocaleString('en-US')} requests over ${Math.round(spanS).toLocaleString('en-US')} s) on this cluster, router and policy. The file was read in this browser and never left it. Its prefix blocks (Mooncake hash_ids) become shared prompt prefixes; CSV traces have none.`,
  );
  doc.set('duration_s', Math.min(86_400, Math.floor(spanS) + 1));
  doc.set('clients', []);
  doc.delete('requests');
  doc.set('trace', { file: name, format: 'auto' });
  return doc.toString();
}

/**
 * Read `file` in the worker and load it as the workload. The Import dialog shows the progress and any
 * problem; once the replay is loaded it closes and the page's banner says what loaded.
 */
export async function importTrace(driver: Driver, file: File): Promise<void> {
  openPanel('import');
  useTraceImport.setState({ status: 'reading', name: file.name, bytes: 0, total: file.size, message: '' });
  const res = await driver.loadTrace(file, file.name, (bytes, total) => {
    if (useTraceImport.getState().status === 'reading') useTraceImport.setState({ bytes, total });
  });
  if (!res.ok) {
    useTraceImport.setState({ status: res.cancelled ? 'cancelled' : 'failed', message: res.message });
    return;
  }
  rememberTraceFile(file);
  const texts = currentTexts();
  const scenario = replayScenarioText(texts.scenario, file.name, res.spanS, res.requests);
  // a replay is no longer the shipped scenario it started from: the Scenario list says (custom)
  const failed = await openInPlayground(driver, scenario, texts.policy, { id: '' });
  if (failed) {
    useTraceImport.setState({ status: 'failed', message: `The replay did not load: ${failed}` });
    return;
  }
  const message = `Loaded ${res.requests.toLocaleString('en-US')} requests (${res.format}) over ${Math.round(res.spanS).toLocaleString('en-US')} s from ${file.name} as the workload. Press Play.`;
  useTraceImport.setState({ status: 'loaded', bytes: res.bytes, message });
  // The run is ready: the dialog would stand over Play. Close it and say what loaded in the page's banner.
  if (useFeatures.getState().panel === 'import') openPanel(null);
  useUi.setState({ message });
}

export async function cancelTraceImport(driver: Driver): Promise<void> {
  await driver.cancelTrace();
}
