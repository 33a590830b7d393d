/**
 * Reads a trace file for `run` in 1 MB pieces through the streaming parser (src/format/trace), so a
 * large trace is never one string in memory. Problems come back as `file:line: message` lines.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { TraceTable } from '../core/trace';
import {
  formatTraceProblems,
  TraceReader,
  type TraceReadOptions,
  type TraceReadResult,
} from '../format/trace';
import type { ScenarioTrace } from '../scenario/schema';

/** The defaults of `trace:` when `--replay` is given to a scenario without one. */
export function defaultTraceSpec(file: string): ScenarioTrace {
  return {
    file,
    format: 'auto',
    time_scale: 1,
    start_s: 0,
    client: 'trace',
    slo_class: 'standard',
    block_tokens: 512,
    data: null,
  };
}

/** Streams a trace file through the parser; problems as `{line, message}`. */
export function streamTraceFile(
  path: string,
  shownAs: string,
  opts: TraceReadOptions,
  onProgress?: (bytes: number) => void,
): TraceReadResult {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return {
      ok: false,
      problems: [{ line: 1, message: 'cannot read the trace file (does it exist?)' }],
      more: 0,
    };
  }
  const reader = new TraceReader(shownAs, opts);
  const decoder = new TextDecoder('utf-8');
  const buf = new Uint8Array(1 << 20);
  let total = 0;
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      reader.push(decoder.decode(buf.subarray(0, n), { stream: true }));
      onProgress?.(total);
    }
    reader.push(decoder.decode());
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, problems: [{ line: 1, message: `cannot read the trace file: ${why}` }], more: 0 };
  } finally {
    closeSync(fd);
  }
  return reader.end();
}

/** `streamTraceFile` with problems already formatted as `file:line: message` lines. */
export function readTraceFile(
  path: string,
  shownAs: string,
  opts: TraceReadOptions,
  onProgress?: (bytes: number) => void,
): { ok: true; table: TraceTable } | { ok: false; message: string } {
  const res = streamTraceFile(path, shownAs, opts, onProgress);
  if (!res.ok) return { ok: false, message: formatTraceProblems(shownAs, res.problems, res.more) };
  return { ok: true, table: res.value };
}
