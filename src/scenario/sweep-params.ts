/**
 * What a sweep can vary in a scenario, read from its text without validating it: the algorithms'
 * own knobs (DLPM's Q^u, DoubleQ's Q^w, ...), the worker count, each root policy class's quantum and
 * each client's arrival rate, with the value the text holds (or the default). Reading the keys is
 * this format's job; the Sweep dialog (src/ui/features) only shows them.
 */
import { parse } from 'yaml';
import { SWEEP_KNOBS } from '../core/algorithms';
import { flowTooDeep } from '../format/yaml';
import { clusterInput } from './schema';

/** The worker count of a scenario that does not write `cluster.workers` (the schema's default). */
const DEFAULT_WORKERS = clusterInput.parse({}).workers;

export interface SweepParam {
  key: string;
  label: string;
  unit: string;
  integer: boolean;
  /** The value in the scenario (or its default), when known. */
  current: number | null;
  /** Smallest valid value. */
  min: number;
  max: number;
  /** An algorithm's own knob (DLPM's Q^u, DoubleQ's Q^w, ...), as opposed to the cluster or the workload. */
  knob?: boolean;
}

type Mapping = { readonly [key: string]: unknown };

function isMap(v: unknown): v is Mapping {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The sweepable parameters of a scenario (empty for an arbitration script or unreadable text). */
export function sweepParams(scenarioText: string, policyText?: string): SweepParam[] {
  if (flowTooDeep(scenarioText)) return []; // refused by the load; seconds for the parser
  let doc: unknown;
  try {
    doc = parse(scenarioText);
  } catch {
    return [];
  }
  if (!isMap(doc) || 'ops' in doc) return [];
  const router = isMap(doc.router) ? doc.router : {};
  const scheduler = isMap(doc.scheduler) ? doc.scheduler : {};
  const cluster = isMap(doc.cluster) ? doc.cluster : {};
  const sections: { readonly [section: string]: Mapping } = { router, scheduler, cluster };
  const out: SweepParam[] = [
    // the algorithms' own knobs (Q^u, Q^w, ...), from their descriptors: only those of the
    // algorithms this scenario runs (DoubleQ's Q^w does nothing behind round-robin routing)
    ...SWEEP_KNOBS.filter((k) => {
      const [section, key] = k.selectedBy.split('.');
      const chosen = sections[section]?.[key];
      return typeof chosen === 'string' ? chosen === k.owner : k.ownerIsDefault;
    }).map((k) => {
      const [section, key] = k.key.split('.');
      return {
        key: k.key,
        label: k.label,
        unit: k.unit,
        integer: k.integer,
        current: num(sections[section]?.[key]) ?? k.fallback,
        min: k.min,
        max: k.max,
        knob: true,
      };
    }),
    {
      key: 'cluster.workers',
      label: 'Workers (cluster.workers)',
      unit: 'workers',
      integer: true,
      current: num(cluster.workers) ?? DEFAULT_WORKERS,
      min: 1,
      max: 64,
    },
  ];
  let policy: unknown = router.policy;
  if (policyText !== undefined) {
    try {
      policy = parse(policyText);
    } catch {
      policy = undefined;
    }
  }
  if (isMap(policy) && Array.isArray(policy.policy_classes))
    for (const c of policy.policy_classes)
      if (isMap(c) && typeof c.name === 'string')
        out.push({
          key: `router.policy.policy_classes.${c.name}.quantum`,
          label: `Quantum of policy class ${c.name}`,
          unit: 'tokens per round',
          integer: true,
          current: num(c.quantum),
          min: 1,
          max: 1e9,
        });
  if (Array.isArray(doc.clients))
    for (const c of doc.clients)
      if (isMap(c) && typeof c.name === 'string' && isMap(c.arrival) && num(c.arrival.rate) !== null)
        out.push({
          key: `clients.${c.name}.arrival.rate`,
          label: `Arrival rate of client ${c.name}`,
          unit: 'requests/s',
          integer: false,
          current: num(c.arrival.rate),
          min: 1e-6,
          max: 10000,
        });
  return out;
}
