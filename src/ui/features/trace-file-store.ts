/**
 * The request traces the user dropped or picked on this page, by the name the page's worker holds
 * each under (the `trace.file` a scenario names, top-level or in a client): Compare's second worker
 * reads them too, sweep and export workers get copies of their tables, and a shared link that names
 * them opens without asking for the files again.
 */
import { parse } from 'yaml';
import { flowTooDeep } from '../../format/yaml';
import type { TraceTable } from '../../core/trace';
import type { Driver } from '../driver';
import { SCENARIOS } from '../scenarios';

/** Files held, by name, oldest first (the page's worker holds as many; see worker/trace-upload). */
const files = new Map<string, File>();
const MAX_HELD = 8;

export function rememberTraceFile(file: File, name: string = file.name): void {
  files.delete(name);
  files.set(name, file);
  while (files.size > MAX_HELD) {
    const oldest = files.keys().next().value;
    if (oldest === undefined) break;
    files.delete(oldest);
  }
}

/** The file held under `name` on this page, or null. */
export function heldTraceFile(name: string): File | null {
  return files.get(name) ?? null;
}

function isMap(v: unknown): v is object {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function fileIn(section: unknown): string | null {
  if (!isMap(section)) return null;
  const file: unknown = Reflect.get(section, 'file');
  return typeof file === 'string' ? file : null;
}

/**
 * The trace files a scenario text names: `trace.file`, then each client's `trace.file`, without
 * repeats (empty for a text that does not parse).
 */
export function traceFilesOf(scenarioText: string): string[] {
  if (!scenarioText.includes('trace')) return [];
  // a share link's scenario, not yet validated: nesting too deep for any format takes the parser seconds
  if (flowTooDeep(scenarioText)) return [];
  let doc: unknown;
  try {
    doc = parse(scenarioText);
  } catch {
    return [];
  }
  if (!isMap(doc)) return [];
  const out: string[] = [];
  const add = (f: string | null) => {
    if (f !== null && !out.includes(f)) out.push(f);
  };
  add(fileIn(Reflect.get(doc, 'trace')));
  const clients: unknown = Reflect.get(doc, 'clients');
  if (Array.isArray(clients)) for (const c of clients) if (isMap(c)) add(fileIn(Reflect.get(c, 'trace')));
  return out;
}

let shipped: Set<string> | null = null;

/**
 * The trace files a scenario replays that are local files (dropped or picked on some page), not
 * ones bundled with the shipped scenarios; empty when it replays none or only bundled ones.
 */
export function localTraceFiles(scenarioText: string): string[] {
  const named = traceFilesOf(scenarioText);
  if (named.length === 0) return named;
  if (shipped === null) {
    shipped = new Set();
    for (const s of SCENARIOS) for (const f of traceFilesOf(s.text)) shipped.add(f);
  }
  const bundled = shipped;
  return named.filter((f) => !bundled.has(f));
}

/** The first local trace file a scenario names that this page does not hold, or null. */
export function missingTraceFile(scenarioText: string): string | null {
  return localTraceFiles(scenarioText).find((f) => !files.has(f)) ?? null;
}

/**
 * The page worker's tables of the local traces a scenario replays, for a sweep, export or one-off
 * worker (a dropped file lives only in the page's worker).
 */
export async function localTraceTables(driver: Driver, scenarioText: string): Promise<TraceTable[]> {
  const out: TraceTable[] = [];
  for (const name of localTraceFiles(scenarioText)) {
    const t = await driver.droppedTrace(name);
    if (t !== null) out.push(t);
  }
  return out;
}
