/**
 * Request traces dropped on the page or picked in Import: the worker reads each file locally
 * (streamed, with progress and Cancel) and holds it by name. A scenario in the editor that names the
 * files (top-level `trace.file` or clients' `trace.file`) is loaded again with them; otherwise the
 * playground loads the current scenario's cluster, router and policy with its clients replaced by
 * the files (`trace: {file: <name>}` for one, a trace client per file for several).
 */
import { isMap, isNode, parseDocument } from 'yaml';
import { MAX_COLUMN_NAME_CHARS, type TraceReadOptions } from '../../format/trace';
import { traceReadingsOf } from '../../scenario';
import { create } from 'zustand';
import { useUi } from '../../state/store';
import { SCENARIOS } from '../scenarios';
import type { Driver } from '../driver';
import { fmtCount, fmtNum } from '../views/format';
import { currentTexts, openInPlayground } from './playground';
import { openPanel, useFeatures } from './store';
import { rememberTraceFile, traceFilesOf } from './trace-file-store';

export interface TraceImportState {
  /** `columns`: a CSV of no known layout; the dialog asks which column is which (`header`). */
  status: 'idle' | 'reading' | 'loaded' | 'failed' | 'cancelled' | 'columns';
  name: string;
  bytes: number;
  total: number;
  /** What happened, in words (problems as `file:line:col: message` lines). */
  message: string;
  /** Under `columns`: the CSV header's fields (the reader hands on at most the first 200). */
  header: string[];
  /** Under `columns`: how many fields the header has (more than `header` holds: the form says so). */
  columns: number;
  /**
   * Under `columns`, after a read with the user's columns failed: the columns they chose (the form
   * shows them again) and which of its fields the first problem points at; `message` holds the problems.
   */
  tried: { mapping: CsvMapping; hint: string } | null;
}

export const useTraceImport = create<TraceImportState>(() => ({
  status: 'idle',
  name: '',
  bytes: 0,
  total: 0,
  message: '',
  header: [],
  columns: 0,
  tried: null,
}));

/** The files of an import that stopped to ask for a CSV's columns, read again once they are given. */
let pending: { files: readonly File[]; readAs: ReadonlyMap<string, TraceReadOptions> } | null = null;

/** A CSV trace's columns as the page asks for them (`trace.columns` and `time_unit` in YAML). */
export interface CsvMapping {
  timestamp: string;
  input: string;
  output: string;
  /** '' for none. */
  client: string;
  timeUnit: 's' | 'ms' | 'us' | 'datetime';
}

/**
 * Whether a header field can be chosen for a role: `trace.columns` names it, so it needs a name of at
 * most MAX_COLUMN_NAME_CHARS characters (the reader keeps one more, to tell).
 */
export function choosableColumn(h: string): boolean {
  return h !== '' && h.length <= MAX_COLUMN_NAME_CHARS;
}

/** A header field as the form lists it (one it cannot choose says why). */
export function columnLabel(h: string): string {
  if (h === '') return '(a column without a name: name it in the file to choose it)';
  if (!choosableColumn(h))
    // (the reader kept only one character past the cap: no length to tell)
    return `${h.slice(0, 60)}… (a name over ${MAX_COLUMN_NAME_CHARS} characters: shorten it in the file to choose it)`;
  return h;
}

/**
 * The form's words when it offers fewer of a CSV's columns than its header has (`total`; the reader
 * hands on the first `offered`), or null when it offers them all: before, the columns past the 200th
 * were left out without a word.
 */
export function columnsCutText(total: number, offered: number): string | null {
  if (total <= offered) return null;
  return `This file has ${fmtCount(total)} columns; the first ${fmtCount(offered)} are offered. To use a later one, move it among the first ${fmtCount(offered)} in the file, or name it in the scenario's trace.columns.`;
}

/**
 * A first guess at which header field is which, by name (the user confirms or changes it): the first
 * field that reads like a time, a prompt length, an output length, a client.
 */
export function guessColumns(header: readonly string[]): CsvMapping {
  const find = (re: RegExp, not: readonly string[] = []) =>
    header.find((h) => choosableColumn(h) && re.test(h.toLowerCase()) && !not.includes(h)) ?? '';
  const timestamp = find(/time|^ts(?:$|[^a-z])|date|arriv/);
  const input = find(/input|prompt|context|request.?tok|in.?tok/, [timestamp]);
  const output = find(/output|generat|response|completion|out.?tok|decode/, [timestamp, input]);
  const client = find(/client|user|tenant|customer|app|session/, [timestamp, input, output]);
  return { timestamp, input, output, client, timeUnit: unitOfName(timestamp) };
}

/**
 * The unit a time column's name says (`ts_ms`, `arrival_ms`, `time (us)`, `timestamp_micros`), else
 * seconds: a name that states its unit is believed, so the dialog does not offer seconds for `ts_ms`
 * and replay a 45 s trace over 12 hours when the user keeps the default.
 */
function unitOfName(name: string): CsvMapping['timeUnit'] {
  const n = name.toLowerCase();
  if (/(?:^|[^a-z])(?:ms|msec|millis|milliseconds?)(?:$|[^a-z])/.test(n)) return 'ms';
  if (/(?:^|[^a-z])(?:us|µs|usec|micros|microseconds?)(?:$|[^a-z])/.test(n)) return 'us';
  return 's';
}

/** The reading options a mapping gives (format csv, its columns and time unit). */
export function mappingOptions(m: CsvMapping): TraceReadOptions {
  const columns: NonNullable<TraceReadOptions['columns']> = {
    timestamp: m.timestamp,
    input: m.input,
    output: m.output,
  };
  if (m.client !== '') columns.client = m.client;
  return { format: 'csv', columns, timeUnit: m.timeUnit };
}

/** Read the files of the import that asked for columns again, the CSV with `mapping`. */
export async function importWithColumns(driver: Driver, mapping: CsvMapping): Promise<void> {
  const p = pending;
  if (p === null) return;
  const { name, header, columns } = useTraceImport.getState();
  const readAs = new Map(p.readAs);
  readAs.set(name, mappingOptions(mapping));
  await importTraces(driver, p.files, readAs, { name, header, columns, mapping });
}

const ROLE_LABELS = {
  timestamp: 'Arrival time',
  input: 'Prompt (input) tokens',
  output: 'Output tokens',
} as const;

/**
 * Which field of the columns form the first of `problems` (the reader's `file:line:col: message`
 * lines) is about, in words that name the field as the form does: the problems themselves point into
 * the CSV, but what the user changes is a choice in the form.
 */
export function mappingHint(problems: string, m: CsvMapping): string {
  const first = problems.split('\n')[0] ?? '';
  const field = (role: keyof typeof ROLE_LABELS) => `${ROLE_LABELS[role]} (now '${m[role]}')`;
  if (/: input tokens '/.test(first))
    return `The column chosen for ${field('input')} does not hold token counts: choose another one there.`;
  if (/: output tokens '/.test(first))
    return `The column chosen for ${field('output')} does not hold token counts: choose another one there.`;
  if (/: timestamp '.*' is not a date-time/.test(first))
    return `The column chosen for ${field('timestamp')} does not hold dates and times: choose another unit in Times are in, or another column.`;
  if (/: timestamp '/.test(first))
    return `The column chosen for ${field('timestamp')} does not hold times as numbers: choose another column there, or "date and time (UTC)" in Times are in.`;
  return 'Change the columns or the unit above, then read again.';
}

const BASE_ID = 'trace-synthetic-chat';

/** A client name (letters, digits, _ . -; at most 64) for a dropped file, unique among `taken`. */
function clientNameOf(file: string, taken: Set<string>): string {
  const stem =
    file
      .replace(/\.[^.]*$/, '')
      .replace(/[^A-Za-z0-9_.-]+/g, '-')
      .slice(0, 56) || 'trace';
  let name = stem;
  for (let k = 2; taken.has(name); k++) name = `${stem}-${k}`;
  taken.add(name);
  return name;
}

/**
 * The scenario that replays the dropped files on the cluster of `base` (a cluster scenario), or on the
 * shipped trace scenario's: one file is the top-level `trace:` (its client column, if any, kept);
 * several become one trace client each.
 */
export function replayScenarioText(
  base: string,
  traces: readonly { name: string; spanS: number; requests: number; opts?: TraceReadOptions }[],
): string {
  let doc = parseDocument(base);
  const usable = doc.errors.length === 0 && doc.get('version') !== undefined && doc.get('ops') === undefined;
  if (!usable) doc = parseDocument(SCENARIOS.find((s) => s.id === BASE_ID)?.text ?? 'version: 1\n');
  const names = traces.map((t) => t.name);
  const requests = traces.reduce((n, t) => n + t.requests, 0);
  const spanS = Math.max(0, ...traces.map((t) => t.spanS));
  const what =
    traces.length === 1
      ? `the request trace **${names[0]}**`
      : `the request traces ${names.map((n) => `**${n}**`).join(', ')}, one client each,`;
  // the base's opening comment describes the base (the default's says every view has something to
  // show within seconds), not the replay
  doc.commentBefore = null;
  if (isMap(doc.contents)) {
    doc.contents.commentBefore = null;
    const first = doc.contents.items[0]?.key;
    if (isNode(first)) first.commentBefore = null;
  }
  doc.set('name', `Replay of ${names.join(', ')}`);
  // plain digits: the description is YAML the editor shows and the CLI reads, where the page's
  // grouping space (U+202F) would be an invisible character (Monaco marks it) and a comma is not the
  // page's format either
  doc.set(
    'description',
    `Replays ${what} (${Math.round(requests)} requests over ${spanWords(spanS, String)} s) on this cluster, router and policy. The ${traces.length === 1 ? 'file was' : 'files were'} read in this browser and never left it. Prefix blocks (Mooncake hash_ids) become shared prompt prefixes within a file; CSV traces have none.`,
  );
  doc.set('duration_s', Math.min(86_400, Math.floor(spanS) + 1));
  doc.delete('requests');
  // how each file was read goes in the YAML too (a CSV's columns and time unit), so the command line
  // and a shared link read it the same way
  const section = (t: (typeof traces)[number]) => {
    const o = t.opts ?? {};
    const out: Record<string, unknown> = { file: t.name, format: o.format ?? 'auto' };
    if (o.columns !== undefined) out.columns = { ...o.columns };
    if (o.timeUnit !== undefined) out.time_unit = o.timeUnit;
    return out;
  };
  if (traces.length === 1) {
    doc.set('clients', []);
    doc.set('trace', section(traces[0]));
  } else {
    const taken = new Set<string>();
    doc.delete('trace');
    doc.set(
      'clients',
      traces.map((t) => ({ name: clientNameOf(t.name, taken), trace: section(t) })),
    );
  }
  return doc.toString();
}

/** What the dialog and the page's banner say was read: counts in the page's format (12 345, not 12,345). */
export function readList(read: readonly { name: string; requests: number; format: string }[]): string {
  return read.map((r) => `${fmtCount(r.requests)} requests (${r.format}) from ${r.name}`).join(', ');
}

/** The banner once the files are the workload. */
export function loadedMessage(
  read: readonly {
    name: string;
    requests: number;
    format: string;
    spanS: number;
    opts?: TraceReadOptions;
  }[],
): string {
  const spanS = Math.max(0, ...read.map((r) => r.spanS));
  const hints = read.map(unitHint).filter((h) => h !== null);
  return `Loaded ${readList(read)} over ${spanWords(spanS, fmtCount)} s as the workload.${hints.map((h) => ` ${h}`).join('')}${PRESS_PLAY}`;
}

/** The banner's last words while the replay has not started. */
const PRESS_PLAY = ' Press Play.';

/**
 * A trace's span in seconds as words: whole seconds from 10 s on (`format` groups them), two
 * significant digits below (a 250 ms trace was "over 0 s"), and 0 only for a single instant.
 */
export function spanWords(spanS: number, format: (v: number) => string): string {
  if (!(spanS > 0)) return '0';
  if (spanS >= 10) return format(Math.round(spanS));
  return String(Number(spanS.toPrecision(2)));
}

/**
 * The banner `message` says "Press Play." until the replay moves: then those words go (the banner
 * kept asking for Play after the replay had run to the end). Ends when the banner changes.
 */
export function dropPressPlay(message: string): void {
  if (!message.endsWith(PRESS_PLAY)) return;
  const unsubscribe = useUi.subscribe((s) => {
    if (s.message !== message) {
      unsubscribe();
      return;
    }
    if (s.playing || s.decisionCount > 0 || s.done) {
      unsubscribe();
      useUi.setState({ message: message.slice(0, -PRESS_PLAY.length) });
    }
  });
}

/**
 * A CSV read with a time unit the user chose, whose arrivals look like another unit's: milliseconds
 * read as seconds space requests minutes apart; seconds read as milliseconds pack thousands into a
 * second. A question, not a verdict (some traces are that sparse or that dense).
 */
export function unitHint(r: {
  name: string;
  requests: number;
  spanS: number;
  opts?: TraceReadOptions;
}): string | null {
  const unit = r.opts?.format === 'csv' ? r.opts.timeUnit : undefined;
  if (unit === undefined || r.requests < 10 || r.spanS <= 0) return null;
  const gapS = r.spanS / (r.requests - 1);
  if ((unit === 's' || unit === 'datetime') && gapS > 60)
    return `${r.name}'s requests are ${fmtCount(Math.round(gapS))} s apart on average: if its times are milliseconds, import it again and choose milliseconds.`;
  if ((unit === 'ms' || unit === 'us') && gapS < 1e-3)
    return `${r.name}'s ${fmtCount(r.requests)} requests arrive within ${fmtNum(r.spanS)} s: if its times are ${unit === 'us' ? 'milliseconds or seconds' : 'seconds'}, import it again and choose that unit.`;
  return null;
}

/**
 * Read the dropped or picked files in the worker, one after the other (the Import dialog shows the
 * progress and any problem). When the scenario in the editor names every file (its `trace.file` or
 * a client's), it is loaded again with them; otherwise the files become the workload of the current
 * cluster, router and policy. Once loaded the dialog closes and the page's banner says what loaded.
 */
export async function importTraces(
  driver: Driver,
  files: readonly File[],
  readAs: ReadonlyMap<string, TraceReadOptions> = new Map(),
  /** The columns the user chose in the form for one CSV (its name and header): a failure goes back to the form. */
  chosen?: { name: string; header: string[]; columns: number; mapping: CsvMapping },
): Promise<void> {
  if (files.length === 0) return;
  pending = null;
  openPanel('import');
  // a YAML file is not a trace (read as one, a BLIS spec asked which CSV column held the timestamp):
  // say where it goes instead, and read nothing
  const yaml = files.find((f) => /\.ya?ml$/i.test(f.name));
  if (yaml !== undefined) {
    useTraceImport.setState({
      status: 'failed',
      name: yaml.name,
      bytes: 0,
      total: yaml.size,
      message: `${yaml.name}: a YAML file, not a request trace (Mooncake JSONL, Azure or BurstGPT CSV); nothing was loaded. A BLIS workload spec goes in "Import a BLIS workload spec" below (its file button reads it); a scenario or a policy goes in the editor.`,
    });
    return;
  }
  const texts = currentTexts();
  // a file the scenario in the editor names is read its way (its trace.columns, time_unit, …)
  const readings = traceReadingsOf(texts.scenario);
  const read: {
    name: string;
    spanS: number;
    requests: number;
    format: string;
    bytes: number;
    opts: TraceReadOptions;
  }[] = [];
  for (const file of files) {
    const opts = readAs.get(file.name) ?? readings.find((r) => r.file === file.name)?.opts ?? {};
    useTraceImport.setState({
      status: 'reading',
      name: file.name,
      bytes: 0,
      total: file.size,
      message: '',
      tried: null,
    });
    const res = await driver.loadTrace(
      file,
      file.name,
      (bytes, total) => {
        if (useTraceImport.getState().status === 'reading') useTraceImport.setState({ bytes, total });
      },
      opts,
    );
    if (!res.ok) {
      if (res.csvHeader !== undefined && !res.cancelled) {
        // a CSV of no known layout: ask which column is which, then read these files again
        pending = { files, readAs };
        useTraceImport.setState({
          status: 'columns',
          message: res.message,
          header: res.csvHeader,
          columns: res.csvColumns ?? res.csvHeader.length,
          tried: null,
        });
        return;
      }
      if (!res.cancelled && chosen !== undefined && chosen.name === file.name) {
        // read with the columns the user chose and refused: back to the form with their choices, the
        // problems and which choice to change (before, the form was gone and the file had to be
        // picked again, its columns chosen again from the first guess)
        pending = { files, readAs };
        useTraceImport.setState({
          status: 'columns',
          message: res.message,
          header: chosen.header,
          columns: chosen.columns,
          tried: { mapping: chosen.mapping, hint: mappingHint(res.message, chosen.mapping) },
        });
        return;
      }
      useTraceImport.setState({ status: res.cancelled ? 'cancelled' : 'failed', message: res.message });
      return;
    }
    rememberTraceFile(file);
    read.push({ ...res, opts });
  }
  const named = traceFilesOf(texts.scenario);
  const list = readList(read);
  let message: string;
  if (read.every((r) => named.includes(r.name))) {
    // the scenario in the editor names these files: load it with them
    const failed = await openInPlayground(driver, texts.scenario, texts.policy, {
      id: useUi.getState().scenarioId,
      original: texts.original,
    });
    if (failed) {
      useTraceImport.setState({ status: 'failed', message: `The scenario did not load: ${failed}` });
      return;
    }
    message = `Read ${list}: the scenario that names ${read.length === 1 ? 'it' : 'them'} is loaded.${PRESS_PLAY}`;
  } else {
    const scenario = replayScenarioText(texts.scenario, read);
    // a replay is no longer the shipped scenario it started from: the Scenario list says (custom)
    const failed = await openInPlayground(driver, scenario, texts.policy, { id: '' });
    if (failed) {
      useTraceImport.setState({ status: 'failed', message: `The replay did not load: ${failed}` });
      return;
    }
    message = loadedMessage(read);
  }
  useTraceImport.setState({ status: 'loaded', bytes: read[read.length - 1].bytes, message });
  // The run is ready: the dialog would stand over Play. Close it and say what loaded in the page's banner.
  if (useFeatures.getState().panel === 'import') openPanel(null);
  useUi.setState({ message });
  dropPressPlay(message);
}

export async function cancelTraceImport(driver: Driver): Promise<void> {
  await driver.cancelTrace();
}
