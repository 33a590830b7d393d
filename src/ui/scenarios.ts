/** The shipped scenarios and DRR sandbox scripts, bundled into the app (no network at run time). */
const files = import.meta.glob('../../scenarios/*.yaml', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

export interface ShippedScenario {
  id: string;
  text: string;
  title: string;
  kind: 'cluster' | 'arbitration';
}

function titleOf(id: string, text: string): string {
  const m = /^name:\s*(.+)$/m.exec(text);
  return m ? m[1].trim().replace(/^['"]|['"]$/g, '') : id;
}

export const SCENARIOS: ShippedScenario[] = Object.entries(files)
  .map(([path, text]) => {
    const id = path.replace(/^.*\//, '').replace(/\.yaml$/, '');
    const kind: ShippedScenario['kind'] = /^ops:/m.test(text) ? 'arbitration' : 'cluster';
    return { id, text, title: titleOf(id, text), kind };
  })
  // Policy files (no `version:` and no `ops:`) are not runnable on their own: they go in the Policy tab.
  .filter((s) => s.kind === 'arbitration' || /^version:/m.test(s.text))
  .sort((a, b) =>
    a.id === 'default'
      ? -1
      : b.id === 'default'
        ? 1
        : a.kind !== b.kind
          ? a.kind === 'cluster'
            ? -1
            : 1
          : a.title.localeCompare(b.title),
  );

export const DEFAULT_SCENARIO_ID = SCENARIOS.find((s) => s.id === 'default')?.id ?? SCENARIOS[0]?.id ?? '';

export function scenarioText(id: string): string {
  return SCENARIOS.find((s) => s.id === id)?.text ?? SCENARIOS[0]?.text ?? '';
}
