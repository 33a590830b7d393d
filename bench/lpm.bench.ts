/**
 * LPM's per-step cost (#15.3): the order kept live under the radix cache's changes
 * (src/core/algorithms/shared/live-prefix-order.ts) against the reference that re-reads every
 * waiting request's match and sorts the queue at every step (what SGLang does below its fallback).
 *   lpm.overload_ratio     wall time of bench/lpm-overload.yaml (2 clients × 500 req/s × 20 s on one
 *                          a10g, about 20,000 requests, a backlog of nearly all of them) under `lpm`
 *                          over the same run under `fcfs` (best of 2 each)
 *   lpm.doubling_ratio     wall time of the overload with twice the requests (and so twice the peak
 *                          backlog: 10 s against 5 s of arrivals), live order: about 2 when a step
 *                          costs polylog(n) (the run's work grows with the requests), 4 when it costs n
 *   lpm.ref_doubling_ratio the same for the reference, at 2.5 s against 1.25 s of arrivals (it is
 *                          quadratic, so larger runs take minutes)
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Figure } from './types';

const here = dirname(fileURLToPath(import.meta.url));

async function runWall(text: string, reference = false): Promise<number> {
  const { parseScenarioText } = await import('../src/scenario/index');
  const { Simulation } = await import('../src/core/sim/index');
  const { lpmImplementation } = await import('../src/core/algorithms/lpm/policy');
  // the reference's walks are refused by the page budget: the bench takes the command line's
  const { CLI_BUDGET } = await import('../src/scenario/index');
  const parsed = parseScenarioText(text, { budget: CLI_BUDGET });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  lpmImplementation.reference = reference;
  try {
    const t0 = performance.now();
    const sim = new Simulation(parsed.value, { record: false });
    sim.runToEnd({ maxEvents: Number.MAX_SAFE_INTEGER });
    return (performance.now() - t0) / 1000;
  } finally {
    lpmImplementation.reference = false;
  }
}

const withDuration = (text: string, s: number) => text.replace(/^duration_s: .*$/m, `duration_s: ${s}`);

async function best(runs: number, text: string, reference = false): Promise<number> {
  let t = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) t = Math.min(t, await runWall(text, reference));
  return t;
}

export default async function bench(): Promise<Figure[]> {
  const base = readFileSync(join(here, 'lpm-overload.yaml'), 'utf8');
  const fcfs = await best(2, base.replace('policy: lpm', 'policy: fcfs'));
  const lpm = await best(2, base);
  const half = await best(2, withDuration(base, 5));
  const full = await best(2, withDuration(base, 10));
  const refHalf = await best(1, withDuration(base, 1.25), true);
  const refFull = await best(1, withDuration(base, 2.5), true);
  return [
    {
      name: 'lpm.overload_ratio',
      value: lpm / fcfs,
      unit: 'x',
      target: '≤ 2',
      note: `lpm ${lpm.toFixed(2)} s, fcfs ${fcfs.toFixed(2)} s (bench/lpm-overload.yaml, ~20,000 requests)`,
    },
    {
      name: 'lpm.doubling_ratio',
      value: full / half,
      unit: 'x',
      target: '≤ 2.5',
      note: `live order: ${half.toFixed(2)} → ${full.toFixed(2)} s for 5 → 10 s of arrivals (2 for polylog per step, 4 for linear)`,
    },
    {
      name: 'lpm.ref_doubling_ratio',
      value: refFull / refHalf,
      unit: 'x',
      note: `the re-read and sort it replaced: ${refHalf.toFixed(2)} → ${refFull.toFixed(2)} s for 1.25 → 2.5 s of arrivals`,
    },
  ];
}
