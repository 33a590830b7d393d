/**
 * Reads a trace file for `run` in 1 MB pieces through the streaming parser (src/format/trace), so a
 * large trace is never one string in memory. Problems come back as `file:line:col: message` lines.
 */
import { closeSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { quote } from '../format/yaml';
import type { TraceTable } from '../core/trace';
import {
  formatTraceProblems,
  TraceReader,
  type TraceReadOptions,
  type TraceReadResult,
} from '../format/trace';
import type { ScenarioTrace } from '../scenario/schema';
import { FILE_LIMITS, FileLimitError, grewPast, openLimited, readFailure } from './read-limited';

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
  // a regular file within the trace cap, checked before it is opened (#15.2): a pipe, a device or a
  // directory is refused with the reason, and the read stops at the cap
  const maxBytes = FILE_LIMITS.traceBytes;
  let fd: number;
  try {
    fd = openLimited(path, maxBytes).fd;
  } catch (err) {
    // the whole file, not a line of it (line 0); where it was looked for, when the name was relative
    const looked =
      resolve(path) !== resolve(shownAs)
        ? ` (looked for ${quote(path)}: a relative path is read from the scenario's folder)`
        : '';
    return {
      ok: false,
      problems: [{ line: 0, message: `cannot read the trace file${looked}: ${readFailure(err)}` }],
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
      if (total > maxBytes) throw grewPast(maxBytes);
      reader.push(decoder.decode(buf.subarray(0, n), { stream: true }));
      onProgress?.(total);
      if (reader.stopped) break;
    }
    reader.push(decoder.decode());
  } catch (err) {
    const why = err instanceof FileLimitError ? err.message : readFailure(err);
    return { ok: false, problems: [{ line: 0, message: `cannot read the trace file: ${why}` }], more: 0 };
  } finally {
    closeSync(fd);
  }
  return reader.end();
}

/** `streamTraceFile` with problems already formatted as `file:line:col: message` lines. */
export function readTraceFile(
  path: string,
  shownAs: string,
  opts: TraceReadOptions,
  onProgress?: (bytes: number) => void,
): { ok: true; table: TraceTable } | { ok: false; message: string; firstLineBad: boolean } {
  const res = streamTraceFile(path, shownAs, opts, onProgress);
  if (!res.ok)
    return {
      ok: false,
      message: formatTraceProblems(shownAs, res.problems, res.more, res.moreFrom),
      // the file's first line is already wrong (a header or a row in another layout)
      firstLineBad: res.problems.some((p) => p.line === 1),
    };
  return { ok: true, table: res.value };
}
