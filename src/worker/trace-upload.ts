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
  TraceReader,
  type TraceReadOptions,
} from '../format/trace';

export type TraceLoadResult =
  | { ok: true; name: string; requests: number; spanS: number; format: string; bytes: number }
  | { ok: false; cancelled: boolean; message: string };

/** Most dropped tables held at once (the oldest is let go), so a session of drops stays bounded. */
const MAX_HELD = 8;
/** The tables read or adopted, by file name, oldest first. */
const held = new Map<string, TraceTable>();
let cancelToken = 0;

function hold(table: TraceTable): void {
  held.delete(table.source);
  held.set(table.source, table);
  while (held.size > MAX_HELD) {
    const oldest = held.keys().next().value;
    if (oldest === undefined) break;
    held.delete(oldest);
  }
}

/** The table of a dropped (or adopted) trace whose file name is `name`, or null. */
export function droppedTrace(name: string): TraceTable | null {
  return held.get(name) ?? null;
}

/**
 * Hold a table another worker already read (a sweep or export worker is handed the page worker's
 * parsed tables, so a file is neither read again nor sent anywhere but between this page's workers).
 */
export function adoptTrace(table: TraceTable): void {
  hold(table);
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
  const token = ++cancelToken;
  // the size first, as the command line checks it (#15.2): a table of a larger file is more than a tab holds
  if (file.size > MAX_TRACE_FILE_BYTES) {
    const mb = (n: number) => `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} MB`;
    return {
      ok: false,
      cancelled: false,
      message: `${name}: cannot read the trace file: it is ${mb(file.size)}; the limit is ${mb(MAX_TRACE_FILE_BYTES)}`,
    };
  }
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
        return { ok: false, cancelled: true, message: `reading ${name} was cancelled` };
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
    return { ok: false, cancelled: false, message: `${name}:1: cannot read the file: ${why}` };
  }
  const res = reader.end();
  if (!res.ok)
    return { ok: false, cancelled: false, message: formatTraceProblems(name, res.problems, res.more, res.moreFrom) };
  const t = res.value;
  hold(t);
  let span = 0;
  for (let i = 0; i < t.count; i++) if (t.arrivalS[i] > span) span = t.arrivalS[i];
  onProgress?.(bytes, file.size);
  return { ok: true, name, requests: t.count, spanS: span, format: t.format, bytes };
}
