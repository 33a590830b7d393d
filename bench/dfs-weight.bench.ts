/**
 * DFS-weight's per-step cost (#15.3): the order kept live under the radix cache's changes
 * (src/core/algorithms/dfs-weight/live-policy.ts) against the reference that re-reads every waiting
 * request's match and walks the whole tree at every step (what SGLang does). Ratios, so the figures
 * mean the same on any machine, of the process's CPU time rather than wall time, which other
 * processes on a shared box stretch (wall-time ratios of the same runs varied 1.0–1.4× and 1.6–3.9×):
 *   dfs_weight.overload_ratio     CPU time of bench/lpm-overload.yaml (2 clients × 500 req/s × 20 s
 *                                 on one a10g, about 20,000 requests, nearly all waiting) under
 *                                 `dfs-weight` over the same run under `fcfs` (best of 3 each, after
 *                                 a warm-up; runs of 5 s of arrivals, under a second, varied 4× on a
 *                                 loaded box)
 *   dfs_weight.doubling_ratio     the live order at 20 s of arrivals over 10 s (twice the requests and
 *                                 the peak backlog): about 2 when a step costs polylog(n), 4 when it
 *                                 costs n
 *   dfs_weight.ref_doubling_ratio the same for the reference, at 2.5 s against 1.25 s of arrivals (it
 *                                 is quadratic, so larger runs take minutes)
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Figure } from './types';

const here = dirname(fileURLToPath(import.meta.url));

async function runCpu(text: string, reference = false): Promise<number> {
  const { CLI_BUDGET, parseScenarioText } = await import('../src/scenario/index');
  const { Simulation } = await import('../src/core/sim/index');
  const { dfsWeightImplementation } = await import('../src/core/algorithms/dfs-weight/policy');
  // the reference's walks are refused by the page budget: the bench takes the command line's
  const parsed = parseScenarioText(text, { budget: CLI_BUDGET });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  dfsWeightImplementation.reference = reference;
  try {
    const t0 = process.cpuUsage();
    const sim = new Simulation(parsed.value, { record: false });
    sim.runToEnd({ maxEvents: Number.MAX_SAFE_INTEGER });
    const used = process.cpuUsage(t0);
    return (used.user + used.system) / 1e6;
  } finally {
    dfsWeightImplementation.reference = false;
  }
}

const withDuration = (text: string, s: number) => text.replace(/^duration_s: .*$/m, `duration_s: ${s}`);

async function best(runs: number, text: string, reference = false): Promise<number> {
  let t = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) t = Math.min(t, await runCpu(text, reference));
  return t;
}

export default async function bench(): Promise<Figure[]> {
  const base = readFileSync(join(here, 'lpm-overload.yaml'), 'utf8').replace(
    'policy: lpm',
    'policy: dfs-weight',
  );
  if (!base.includes('policy: dfs-weight')) throw new Error('lpm-overload.yaml no longer names lpm');
  // one unmeasured run first, so the first figure does not pay for loading and compiling the code
  await runCpu(withDuration(base, 5));
  const fcfs = await best(3, base.replace('policy: dfs-weight', 'policy: fcfs'));
  const live = await best(3, base);
  const half = await best(3, withDuration(base, 10));
  const refHalf = await best(1, withDuration(base, 1.25), true);
  const refFull = await best(1, withDuration(base, 2.5), true);
  return [
    {
      name: 'dfs_weight.overload_ratio',
      value: live / fcfs,
      unit: 'x',
      target: '≤ 2',
      note: `dfs-weight ${live.toFixed(2)} s, fcfs ${fcfs.toFixed(2)} s (bench/lpm-overload.yaml, ~20,000 requests)`,
    },
    {
      name: 'dfs_weight.doubling_ratio',
      value: live / half,
      unit: 'x',
      target: '≤ 2.5',
      note: `live order: ${half.toFixed(2)} → ${live.toFixed(2)} s for 10 → 20 s of arrivals (2 for polylog per step, 4 for linear)`,
    },
    {
      name: 'dfs_weight.ref_doubling_ratio',
      value: refFull / refHalf,
      unit: 'x',
      note: `the re-read and walk it replaced: ${refHalf.toFixed(2)} → ${refFull.toFixed(2)} s for 1.25 → 2.5 s of arrivals`,
    },
  ];
}
