/**
 * What a sweep can vary, read from the scenario the playground holds: the DLPM quantum Q^u, the
 * DoubleQ worker quantum Q^w, the worker count, each root policy class's quantum and each client's
 * arrival rate; plus presets that re-create the DLPM paper's Fig. 1 and Fig. 10 on shipped scenarios.
 */
import { parse } from 'yaml';
import { SWEEP_PRESETS as CORE_PRESETS, SWEEP_KNOBS, type SweepPresetSpec } from '../../core/algorithms';
import type { Scale } from './store';

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
}

/** A sweep that re-creates a figure (declared by the algorithm it is about, in src/core/algorithms). */
export type SweepPreset = SweepPresetSpec;

export const SWEEP_PRESETS: readonly SweepPreset[] = CORE_PRESETS;

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The sweepable parameters of a scenario (empty for an arbitration script or unreadable text). */
export function sweepParams(scenarioText: string, policyText?: string): SweepParam[] {
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
  const sections: Record<string, Record<string, unknown>> = { router, scheduler, cluster };
  const out: SweepParam[] = [
    // the algorithms' own knobs (Q^u, Q^w, ...), from their descriptors
    ...SWEEP_KNOBS.map((k) => {
      const [section, key] = k.key.split('.');
      return {
        key: k.key,
        label: k.label,
        unit: k.unit,
        integer: k.integer,
        current: num(sections[section]?.[key]) ?? k.fallback,
        min: k.min,
        max: k.max,
      };
    }),
    {
      key: 'cluster.workers',
      label: 'Workers (cluster.workers)',
      unit: 'workers',
      integer: true,
      current: num(cluster.workers),
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

/** A sensible starting range around the current value. */
export function defaultRange(p: SweepParam): { from: number; to: number; scale: Scale } {
  const c = p.current ?? (p.integer ? 4 : 1);
  if (p.key === 'cluster.workers')
    return { from: 1, to: Math.min(p.max, Math.max(2, c * 2)), scale: 'linear' };
  const round = (v: number) => (p.integer ? Math.max(p.min, Math.round(v)) : Number(v.toPrecision(3)));
  return { from: round(c / 4), to: round(c * 4), scale: 'log' };
}

/** `key=value` for one point. */
export function setFor(key: string, value: number): string {
  return `${key}=${value}`;
}
