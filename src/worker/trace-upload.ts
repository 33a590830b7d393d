/**
 * A trace file the user dropped on the page or picked in Import, read inside the worker: the File is
 * structured-cloned to the worker (never uploaded anywhere), streamed through the parser chunk by
 * chunk (so a 100 MB file is never one string), with progress reports and cancellation between
 * chunks. The parsed tables stay here, by file name; a scenario whose `trace.file` (or a client's
 * `trace.file`) names one replays it.
 */
import type { TraceTable } from '../core/trace';
import {
  formatTraceProblems,
  MAX_TRACE_FILE_BYTES,
  readingKey,
  sameReading,
  TraceReader,
  type TraceReadOptions,
  type TraceReadResult,
} from '../format/trace';

export type TraceLoadResult =
  | { ok: true; name: string; requests: number; spanS: number; format: string; bytes: number }
  | {
      ok: false;
      cancelled: boolean;
      message: string;
      /** A CSV of no known layout: its header's fields, to ask which column is which. */
      csvHeader?: string[];
      /** With `csvHeader`: how many fields the header has (`csvHeader` lists at most the first 200). */
      csvColumns?: number;
    };

/** Most dropped tables held at once (the oldest is let go), so a session of drops stays bounded. */
const MAX_HELD = 8;

/** A table held by file name: how it was read, and the file to read it again otherwise. */
interface Held {
  /** null: the last reading failed (a CSV of no known layout, say); the file is kept to read again. */
  table: TraceTable | null;
  /** The options it was read with; null: adopted from the page's worker (its scenario's reading). */
  opts: TraceReadOptions | null;
  /** The dropped file (a reference: its bytes stay on disk), to read it again with other options. */
  blob: Blob | null;
}

/** The tables read or adopted, by file name, oldest first. */
const held = new Map<string, Held>();
/** Readings with a scenario's options that failed, by file name: their problems, and the options. */
const failed = new Map<string, { opts: TraceReadOptions; result: TraceReadResult }>();
let cancelToken = 0;

function hold(
  name: string,
  table: TraceTable | null,
  opts: TraceReadOptions | null,
  blob: Blob | null,
): void {
  held.delete(name);
  held.set(name, { table, opts, blob });
  if (table !== null) failed.delete(name);
  while (held.size > MAX_HELD) {
    const oldest = held.keys().next().value;
    if (oldest === undefined) break;
    held.delete(oldest);
  }
}

/**
 * The table of a dropped (or adopted) trace whose file name is `name`, or null; with `want`, only if
 * it was read that way (see `sameReading`: a scenario's `time_unit` or `columns` must not replay a
 * table read otherwise).
 */
export function droppedTrace(name: string, want?: TraceReadOptions): TraceTable | null {
  const h = held.get(name);
  if (h === undefined || h.table === null) return null;
  if (want === undefined || h.opts === null || sameReading(h.opts, h.table.format, want)) return h.table;
  return null;
}

/** What reading the dropped file `name` with `want` gave, when that failed (else undefined). */
export function failedReading(name: string, want: TraceReadOptions): TraceReadResult | undefined {
  const f = failed.get(name);
  return f !== undefined && readingKey(f.opts) === readingKey(want) ? f.result : undefined;
}

/**
 * Before a scenario loads: every dropped file it names but reads otherwise than it was read (another
 * `time_unit`, `columns`, format or block size) is read again, from the dropped file, the scenario's
 * way; a reading that fails is kept for the scenario's problems (`failedReading`).
 */
export async function rereadFor(
  readings: readonly { file: string; opts: TraceReadOptions }[],
): Promise<void> {
  for (const { file, opts } of readings) {
    const h = held.get(file);
    if (h === undefined || h.blob === null || droppedTrace(file, opts) !== null) continue;
    if (failedReading(file, opts) !== undefined) continue;
    const res = await readBlob(h.blob, file, opts);
    if (res !== CANCELLED && !res.ok) failed.set(file, { opts, result: res });
  }
}

/** Whether any dropped file is held (so a scenario might need one read again its way). */
export function holdsDroppedFiles(): boolean {
  for (const h of held.values()) if (h.blob !== null) return true;
  return false;
}

/**
 * Hold a table another worker already read (a sweep or export worker is handed the page worker's
 * parsed tables, so a file is neither read again nor sent anywhere but between this page's workers).
 */
export function adoptTrace(table: TraceTable): void {
  hold(table.source, table, null, null);
}

/** Stop the read in progress (it answers `cancelled`). */
export function cancelTraceRead(): void {
  cancelToken++;
}

export async function readTraceBlob(
  file: Blob,
  name: string,
  opts: TraceReadOptions,
  onProgress?: (bytes: number, total: number) => void,
): Promise<TraceLoadResult> {
  // the size first, as the command line checks it (#15.2): a table of a larger file is more than a tab holds
  if (file.size > MAX_TRACE_FILE_BYTES) {
    const mb = (n: number) => `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} MB`;
    return {
      ok: false,
      cancelled: false,
      message: `${name}: cannot read the trace file: it is ${mb(file.size)}; the limit is ${mb(MAX_TRACE_FILE_BYTES)}`,
    };
  }
  const res = await readBlob(file, name, opts, onProgress);
  if (res === CANCELLED) return { ok: false, cancelled: true, message: `reading ${name} was cancelled` };
  if (!res.ok) {
    const out: TraceLoadResult = {
      ok: false,
      cancelled: false,
      message: formatTraceProblems(name, res.problems, res.more, res.moreFrom),
    };
    if (res.csvHeader !== undefined) out.csvHeader = res.csvHeader;
    if (res.csvColumns !== undefined) out.csvColumns = res.csvColumns;
    return out;
  }
  const t = res.value;
  let span = 0;
  for (let i = 0; i < t.count; i++) if (t.arrivalS[i] > span) span = t.arrivalS[i];
  onProgress?.(file.size, file.size);
  return { ok: true, name, requests: t.count, spanS: span, format: t.format, bytes: file.size };
}

const CANCELLED = Symbol('cancelled');

/** Stream `file` through the trace reader with `opts`; a table read is held under `name`. */
async function readBlob(
  file: Blob,
  name: string,
  opts: TraceReadOptions,
  onProgress?: (bytes: number, total: number) => void,
): Promise<TraceReadResult | typeof CANCELLED> {
  // (its size was checked when it was dropped: readTraceBlob; a file held is one that passed)
  const token = ++cancelToken;
  const reader = new TraceReader(name, opts);
  const decoder = new TextDecoder('utf-8');
  const stream = file.stream().getReader();
  let bytes = 0;
  let lastReport = 0;
  try {
    for (;;) {
      const { done, value } = await stream.read();
      if (token !== cancelToken) {
        await stream.cancel();
        return CANCELLED;
      }
      if (done) break;
      bytes += value.byteLength;
      reader.push(decoder.decode(value, { stream: true }));
      if (reader.stopped) {
        // the rest of the file cannot change the answer (e.g. a line too long for a trace)
        await stream.cancel();
        break;
      }
      if (onProgress && (bytes - lastReport > 1 << 20 || bytes === file.size)) {
        lastReport = bytes;
        onProgress(bytes, file.size);
      }
    }
    reader.push(decoder.decode());
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, problems: [{ line: 1, message: `cannot read the file: ${why}` }], more: 0 };
  }
  const res = reader.end();
  // a failed reading keeps the file too: a scenario that says how to read it (its trace.columns,
  // say) reads it again before it loads
  if (res.ok) hold(name, res.value, opts, file);
  else if (!held.get(name)?.table) hold(name, null, opts, file);
  return res;
}
