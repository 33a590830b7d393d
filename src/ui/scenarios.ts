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

/** Groups of the scenario picker, in order; each scenario falls in the first whose test it passes. */
const GROUPS: { label: string; test: (s: ShippedScenario) => boolean }[] = [
  { label: 'Start here', test: (s) => s.id === 'default' },
  { label: 'DRR sandbox: the policy-class queue alone', test: (s) => s.kind === 'arbitration' },
  { label: 'DLPM paper re-creations', test: (s) => s.id.startsWith('paper-') },
  {
    label: 'Locality first: LPM and Preble',
    test: (s) => s.id.startsWith('lpm-') || s.id.startsWith('preble-'),
  },
  { label: 'VTC artifact', test: (s) => s.id.startsWith('vtc-') },
  { label: 'BLIS and Vajra schedulers', test: (s) => s.id.startsWith('blis-') || s.id.startsWith('vajra-') },
  {
    label: 'Routers and guarantees',
    test: (s) => s.id.startsWith('cluster-') || s.id.startsWith('guarantee-') || s.id.startsWith('dynamo-'),
  },
  { label: 'Benchmark', test: (s) => s.id.startsWith('bench-') },
  { label: 'Workloads', test: () => true },
];

/** The scenarios by picker group (groups without scenarios left out), each group in SCENARIOS order. */
export function scenarioGroups(list: readonly ShippedScenario[] = SCENARIOS): {
  label: string;
  scenarios: ShippedScenario[];
}[] {
  const out = GROUPS.map((g) => ({ label: g.label, scenarios: [] as ShippedScenario[] }));
  for (const s of list) {
    const i = GROUPS.findIndex((g) => g.test(s));
    out[i].scenarios.push(s);
  }
  return out.filter((g) => g.scenarios.length > 0);
}

export const DEFAULT_SCENARIO_ID = SCENARIOS.find((s) => s.id === 'default')?.id ?? SCENARIOS[0]?.id ?? '';

export function scenarioText(id: string): string {
  return SCENARIOS.find((s) => s.id === id)?.text ?? SCENARIOS[0]?.text ?? '';
}
