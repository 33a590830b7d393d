/**
 * A trace file the user dropped on the page or picked in Import, read inside the worker: the File is
 * structured-cloned to the worker (never uploaded anywhere), streamed through the parser chunk by
 * chunk (so a 100 MB file is never one string), with progress reports and cancellation between
 * chunks. The parsed table stays here; a scenario whose `trace.file` names it replays it.
 */
import type { TraceTable } from '../core/trace';
import { formatTraceProblems, TraceReader, type TraceReadOptions } from '../format/trace';

export type TraceLoadResult =
  | { ok: true; name: string; requests: number; spanS: number; format: string; bytes: number }
  | { ok: false; cancelled: boolean; message: string };

let current: TraceTable | null = null;
let cancelToken = 0;

/** The table of the last trace read, when its file name is `name`. */
export function droppedTrace(name: string): TraceTable | null {
  return current !== null && current.source === name ? current : null;
}

/**
 * Hold a table another worker already read (a sweep or export worker is handed the page worker's
 * parsed table, so the file is neither read again nor sent anywhere but between this page's workers).
 */
export function adoptTrace(table: TraceTable): void {
  current = table;
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
    return { ok: false, cancelled: false, message: formatTraceProblems(name, res.problems, res.more) };
  const t = res.value;
  current = t;
  let span = 0;
  for (let i = 0; i < t.count; i++) if (t.arrivalS[i] > span) span = t.arrivalS[i];
  onProgress?.(bytes, file.size);
  return { ok: true, name, requests: t.count, spanS: span, format: t.format, bytes };
}
