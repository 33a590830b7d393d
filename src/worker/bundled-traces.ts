/**
 * The small request traces shipped next to the scenarios (`scenarios/traces/`), bundled as text so a
 * shipped scenario's `trace.file` replays offline in the page. Larger traces are dropped or picked
 * by the user and read from disk in the worker (./trace-upload.ts).
 */
function bundled(): Record<string, string> {
  try {
    return import.meta.glob('../../scenarios/traces/*', {
      query: '?raw',
      import: 'default',
      eager: true,
    }) as Record<string, string>;
  } catch {
    // Outside Vite (the benchmarks run the worker API under tsx): no bundled traces.
    return {};
  }
}
const files = bundled();

/** Text of a bundled trace by the path a scenario names (`traces/<file>`), or undefined. */
export function bundledTrace(relPath: string): string | undefined {
  const name = relPath.replace(/^\.\//, '');
  for (const [path, text] of Object.entries(files)) if (path.endsWith(`/scenarios/${name}`)) return text;
  return undefined;
}
