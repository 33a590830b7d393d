/**
 * Where a scenario's `trace.file` comes from in the page: the file the user dropped or picked (read
 * in this worker, see ./trace-upload.ts), else a trace bundled next to the shipped scenarios.
 */
import { parse } from 'yaml';
import { readTraceText } from '../format/trace';
import type { ParseScenarioOptions } from '../scenario';
import { bundledTrace } from './bundled-traces';
import { droppedTrace } from './trace-upload';

/** Where `trace.file` comes from in the page: the file the user dropped or picked, else a bundled trace. */
function traceSource(file: string | null): Pick<ParseScenarioOptions, 'readTrace' | 'trace'> {
  const dropped = file === null ? null : droppedTrace(file);
  if (dropped !== null) return { trace: dropped };
  return {
    readTrace: (rel, opts) => {
      const text = bundledTrace(rel);
      if (text === undefined)
        throw new Error('in the playground, drop the trace file on the page or pick it in Import');
      return readTraceText(rel, text, opts);
    },
  };
}

/** `trace.file` of a scenario document, when it is a string. */
function traceFileOf(doc: Record<string, unknown>): string | null {
  const t = doc.trace;
  if (t === null || typeof t !== 'object' || Array.isArray(t)) return null;
  const f = (t as { file?: unknown }).file;
  return typeof f === 'string' ? f : null;
}

/** The trace options for a scenario document (already parsed) or its text. */
export function pageTraceSource(doc: unknown): Pick<ParseScenarioOptions, 'readTrace' | 'trace'> {
  let value = doc;
  if (typeof doc === 'string') {
    try {
      value = parse(doc);
    } catch {
      value = null;
    }
  }
  const file =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? traceFileOf(value as Record<string, unknown>)
      : null;
  return traceSource(file);
}
