/**
 * The last request trace the user dropped or picked, and the name the page's worker holds it under
 * (the `trace.file` a scenario names): Compare's second worker reads it too, and a shared link that
 * names it opens without asking for the file again.
 */
import { parse } from 'yaml';
import { SCENARIOS } from '../scenarios';

let lastFile: File | null = null;
let lastName: string | null = null;

export function rememberTraceFile(file: File, name: string = file.name): void {
  lastFile = file;
  lastName = name;
}

export function lastTraceFile(): File | null {
  return lastFile;
}

/** The `trace.file` name the last dropped or picked file is held under in the page's worker. */
export function lastTraceName(): string | null {
  return lastName;
}

/** `trace.file` of a scenario text, when it has one (null for a text that does not parse). */
export function traceFileOf(scenarioText: string): string | null {
  if (!scenarioText.includes('trace')) return null;
  let doc: unknown;
  try {
    doc = parse(scenarioText);
  } catch {
    return null;
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return null;
  const trace: unknown = Reflect.get(doc, 'trace');
  if (trace === null || typeof trace !== 'object' || Array.isArray(trace)) return null;
  const file: unknown = Reflect.get(trace, 'file');
  return typeof file === 'string' ? file : null;
}

let shipped: Set<string> | null = null;

/**
 * The trace file a scenario replays when it is a local file (dropped or picked on some page), not one
 * bundled with the shipped scenarios; null when the scenario replays no trace or a bundled one.
 */
export function localTraceFile(scenarioText: string): string | null {
  const file = traceFileOf(scenarioText);
  if (file === null) return null;
  if (shipped === null) {
    shipped = new Set();
    for (const s of SCENARIOS) {
      const f = traceFileOf(s.text);
      if (f !== null) shipped.add(f);
    }
  }
  return shipped.has(file) ? null : file;
}
