/**
 * What a sweep can vary, read from the scenario the playground holds: the DLPM quantum Q^u, the
 * DoubleQ worker quantum Q^w, the worker count, each root policy class's quantum and each client's
 * arrival rate; plus presets that re-create the DLPM paper's Fig. 1 and Fig. 10 on shipped scenarios.
 */
import { parse } from 'yaml';
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

export interface SweepPreset {
  id: string;
  title: string;
  /** Shipped scenario id. */
  scenario: string;
  key: string;
  from: number;
  to: number;
  points: number;
  scale: Scale;
  /** Extra runs for comparison: a label and the overrides that make it. */
  baselines: { label: string; sets: string[] }[];
}

export const SWEEP_PRESETS: SweepPreset[] = [
  {
    id: 'fig1',
    // Fig. 1's trade-off needs a cache that cannot hold every client's prefixes at once (the paper
    // ran it on one A10): ToT S2 with the KV cache scaled down to 15k tokens, as its description says.
    title: 'Paper Fig. 1 — DLPM Q^u frontier (one worker, ToT S2, KV cache under pressure)',
    scenario: 'fig1-kv-pressure',
    key: 'scheduler.quantum',
    from: 25,
    to: 200000,
    points: 5,
    scale: 'log',
    baselines: [
      { label: 'LPM', sets: ['scheduler.policy=lpm'] },
      { label: 'VTC', sets: ['scheduler.policy=vtc'] },
    ],
  },
  {
    id: 'fig10',
    // The paper's Fig. 10 workload. With the realistic KV cache every client's prefixes fit on every
    // worker and Q^w changes little here; long-document QA shows the trade-off (README).
    title: 'Paper Fig. 10 — DoubleQ Q^w (four workers, ToT S2)',
    scenario: 'paper-tot-s2-4w',
    key: 'router.worker_quantum',
    from: 1000,
    to: 80000,
    points: 5,
    scale: 'log',
    baselines: [
      { label: 'RR+LPM', sets: ['router.routing=round-robin', 'scheduler.policy=lpm'] },
      { label: 'Preble', sets: ['router.routing=preble', 'scheduler.policy=lpm'] },
    ],
  },
];

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
  const out: SweepParam[] = [
    {
      key: 'scheduler.quantum',
      label: 'Q^u — DLPM per-client quantum (scheduler.quantum)',
      unit: 'service units',
      integer: true,
      current: num(scheduler.quantum) ?? 2500,
      min: 1,
      max: 1e9,
    },
    {
      key: 'router.worker_quantum',
      label: 'Q^w — DoubleQ worker quantum (router.worker_quantum)',
      unit: 'service units',
      integer: true,
      current: num(router.worker_quantum) ?? 20000,
      min: 1,
      max: 1e9,
    },
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
