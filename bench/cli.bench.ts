/**
 * cli.cold_start_ms (#12.8): wall time of a whole `fairground run` process on a 10-request scenario,
 * start to exit, with the plain-Node bundle (dist-cli/fairground.mjs, built first if stale). The
 * median of several runs; the machine's load moves it, so the minimum is noted too.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs helper without type declarations
import { ensureCliBundle, root } from '../scripts/cli-bundle.mjs';
import type { Bench } from './types';

const RUNS = 7;

const bench: Bench = async () => {
  const bundle: string = await ensureCliBundle();
  const scenario = join(root as string, 'bench', 'cold-start.yaml');
  const times: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const t0 = performance.now();
    const p = spawnSync(process.execPath, [bundle, 'run', scenario, '--json'], { encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (p.status !== 0) throw new Error(`cold-start run failed: ${p.stderr}`);
    const out = JSON.parse(p.stdout) as { requests: { completed: number } };
    if (out.requests.completed !== 10)
      throw new Error(`expected 10 completed requests, got ${out.requests.completed}`);
    if (i > 0) times.push(ms); // the first run warms the file-system cache
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  return [
    {
      name: 'cli.cold_start_ms',
      value: median,
      unit: 'ms',
      target: '≤ 300',
      note: `10-request run, whole process, median of ${RUNS} (min ${times[0].toFixed(0)} ms)`,
    },
  ];
};

export default bench;
