/**
 * `npm run reproduce`: the DLPM paper's comparisons, re-run headlessly on the simulator.
 *
 * For every `scenarios/paper-*.yaml` workload (long-context QA, Tree of Thoughts, LLM-as-a-Judge,
 * multi-turn chat; S1 and S2 misbehaving client; 1 and 4 workers) it runs the same seeded workload
 * under each scheduler of the paper:
 *   1 worker:  RR+LPM (lpm), VTC (vtc), DLPM (dlpm)
 *   4 workers: RR+LPM (round-robin + lpm), Preble (preble + lpm), VTC (per-client-rr + vtc),
 *              DoubleQ (doubleq + dlpm)
 * and prints throughput (prompt + output tokens of completed requests per simulated second), Jain's
 * index over the clients' service rates, the well-behaved clients' p50/p99 end-to-end latency (the
 * mean over clients other than `eve`, the misbehaving one) and the cache hit rate. Then two sweeps:
 * DLPM's Q^u on one worker (Fig. 1: from VTC-like fairness toward LPM-like throughput) and DoubleQ's
 * Q^w on four (Fig. 10). The markdown goes to stdout and to bench-results/reproduce.md; the wall time
 * is printed as a figure at the end.
 *
 * Usage: npm run reproduce [-- <filter>]   (filter: a substring of the scenario file names)
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Simulation } from '../src/core/sim';
import type { RunResult } from '../src/core/sim/result';
import { implementedLocalPolicies } from '../src/core/replica/policies/registry';
import { formatProblems } from '../src/format/yaml';
import { parseScenarioText, type Scenario } from '../src/scenario';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const SCEN = join(root, 'scenarios');
/** The misbehaving client's name in every paper scenario. */
export const MISBEHAVING = 'eve';

export interface Variant {
  label: string;
  routing: string;
  policy: string;
  quantum?: number;
  workerQuantum?: number;
}

export const SINGLE: Variant[] = [
  { label: 'RR+LPM', routing: 'round-robin', policy: 'lpm' },
  { label: 'VTC', routing: 'round-robin', policy: 'vtc' },
  { label: 'DLPM', routing: 'round-robin', policy: 'dlpm' },
];
export const MULTI: Variant[] = [
  { label: 'RR+LPM', routing: 'round-robin', policy: 'lpm' },
  { label: 'Preble', routing: 'preble', policy: 'lpm' },
  { label: 'VTC', routing: 'per-client-rr', policy: 'vtc' },
  { label: 'DoubleQ', routing: 'doubleq', policy: 'dlpm' },
];

export interface Row {
  scenario: string;
  variant: string;
  tokensPerS: number;
  jain: number;
  goodP50: number;
  goodP99: number;
  hit: number;
  gap: number;
  wallS: number;
}

export function loadScenario(file: string): Scenario {
  const text = readFileSync(join(SCEN, file), 'utf8');
  const res = parseScenarioText(text, { file });
  if (!res.ok) throw new Error(formatProblems(res.problems, file));
  return res.value;
}

/** The scenario with another router / local policy (and quanta). */
export function withVariant(s: Scenario, v: Variant): Scenario {
  return {
    ...s,
    router: {
      ...s.router,
      routing: v.routing as Scenario['router']['routing'],
      worker_quantum: v.workerQuantum ?? s.router.worker_quantum,
    },
    scheduler: {
      ...s.scheduler,
      policy: v.policy as Scenario['scheduler']['policy'],
      quantum: v.quantum ?? s.scheduler.quantum,
    },
  };
}

const mean = (xs: number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Run one variant to completion (no decision records) and reduce it to a table row. */
export function runVariant(file: string, s: Scenario, v: Variant): Row {
  const t0 = performance.now();
  const sim = new Simulation(withVariant(s, v), { record: false });
  let goodTokens = 0;
  sim.onRequestDone = (req) => {
    if (!Number.isNaN(req.completionT)) goodTokens += req.promptLen + req.outputLen;
  };
  sim.runToEnd();
  const r: RunResult = sim.result();
  const good = Object.entries(r.clients).filter(([c]) => c !== MISBEHAVING);
  return {
    scenario: file.replace(/\.yaml$/, ''),
    variant: v.label,
    tokensPerS: r.sim_time_s > 0 ? goodTokens / r.sim_time_s : 0,
    jain: r.jain_index,
    goodP50: mean(good.map(([, c]) => c.e2e_p50_s ?? Number.NaN)),
    goodP99: mean(good.map(([, c]) => c.e2e_p99_s ?? Number.NaN)),
    hit: r.cache_hit_rate,
    gap: r.max_backlogged_service_gap,
    wallS: (performance.now() - t0) / 1000,
  };
}

const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–');
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '–');

function table(head: string[], rows: string[][]): string {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(w[i])).join(' | ')} |`;
  return [line(head), `| ${w.map((n) => '-'.repeat(n)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

function comparisonTable(rows: Row[]): string {
  return table(
    ['scenario', 'scheduler', 'tokens/s', 'Jain', 'good p50 s', 'good p99 s', 'cache hit', 'wall s'],
    rows.map((r) => [
      r.scenario,
      r.variant,
      f0(r.tokensPerS),
      f3(r.jain),
      f1(r.goodP50),
      f1(r.goodP99),
      f3(r.hit),
      r.wallS.toFixed(2),
    ]),
  );
}

/** Per scenario: the fair scheduler of the paper (DLPM / DoubleQ) against each baseline. */
function ratiosTable(rows: Row[]): string {
  const out: string[][] = [];
  const byScen = new Map<string, Row[]>();
  for (const r of rows) {
    const list = byScen.get(r.scenario) ?? [];
    list.push(r);
    byScen.set(r.scenario, list);
  }
  for (const [scen, rs] of [...byScen.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const ours = rs.find((r) => r.variant === 'DLPM' || r.variant === 'DoubleQ');
    if (!ours) continue;
    for (const b of rs) {
      if (b === ours) continue;
      out.push([
        scen,
        `${ours.variant} vs ${b.variant}`,
        (ours.tokensPerS / b.tokensPerS).toFixed(2),
        (ours.jain - b.jain).toFixed(3),
        (b.goodP99 / ours.goodP99).toFixed(2),
      ]);
    }
  }
  return table(['scenario', 'pair', 'throughput ×', 'Δ Jain', 'good p99 lower ×'], out);
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const filter = process.argv[2] ?? '';
  const have = new Set(implementedLocalPolicies());
  const missing = ['lpm', 'vtc', 'dlpm'].filter((p) => !have.has(p));
  if (missing.length > 0) {
    process.stderr.write(`reproduce: local policies not available yet: ${missing.join(', ')}\n`);
    process.exitCode = 2;
    return;
  }
  const files = readdirSync(SCEN)
    .filter((f) => f.startsWith('paper-') && f.endsWith('.yaml') && f.includes(filter))
    .sort();
  const rows: Row[] = [];
  for (const f of files) {
    const s = loadScenario(f);
    for (const v of s.cluster.workers === 1 ? SINGLE : MULTI) {
      rows.push(runVariant(f, s, v));
      if (process.stderr.isTTY) process.stderr.write(`\r${f} ${v.label}        `);
    }
  }
  const md: string[] = [];
  md.push('# Reproducing the DLPM paper in the simulator', '');
  md.push(
    'Throughput = prompt + output tokens of completed requests per simulated second (the same work for every',
    'scheduler, so a better cache finishes it sooner). Jain = index over client service rates while all clients',
    `are active. good p50/p99 = mean over the well-behaved clients (all but \`${MISBEHAVING}\`) of their end-to-end`,
    'latency percentiles. Cache hit = cached / admitted prompt tokens.',
    '',
  );
  md.push('## Schedulers on the paper workloads', '', comparisonTable(rows), '');
  md.push('## DLPM / DoubleQ against each baseline', '', ratiosTable(rows), '');

  const sweepFile = 'paper-tot-s2-1w.yaml';
  if (files.includes(sweepFile) || filter === '') {
    const s = loadScenario(sweepFile);
    const sweep: Row[] = [];
    sweep.push(runVariant(sweepFile, s, { label: 'VTC', routing: 'round-robin', policy: 'vtc' }));
    for (const q of [250, 1000, 2500, 10_000, 40_000, 200_000])
      sweep.push(
        runVariant(sweepFile, s, {
          label: `DLPM Q^u=${q}`,
          routing: 'round-robin',
          policy: 'dlpm',
          quantum: q,
        }),
      );
    sweep.push(runVariant(sweepFile, s, { label: 'LPM', routing: 'round-robin', policy: 'lpm' }));
    md.push(`## Q^u sweep (Fig. 1), ${sweepFile}`, '', comparisonTable(sweep), '');
  }
  const wSweepFile = 'paper-tot-s2-4w.yaml';
  if (files.includes(wSweepFile) || filter === '') {
    const s = loadScenario(wSweepFile);
    const sweep: Row[] = [];
    for (const qw of [2000, 5000, 20_000, 40_000, 1_000_000_000])
      sweep.push(
        runVariant(wSweepFile, s, {
          label: `DoubleQ Q^w=${qw >= 1e9 ? '∞' : qw}`,
          routing: 'doubleq',
          policy: 'dlpm',
          workerQuantum: qw,
        }),
      );
    sweep.push(runVariant(wSweepFile, s, { label: 'Preble', routing: 'preble', policy: 'lpm' }));
    md.push(`## Q^w sweep (Fig. 10), ${wSweepFile}`, '', comparisonTable(sweep), '');
  }
  const wall = (performance.now() - t0) / 1000;
  md.push(`reproduce.wall_time_s = ${wall.toFixed(1)} s (target < 120 s on 2 cores)`, '');
  const text = md.join('\n');
  if (process.stderr.isTTY) process.stderr.write('\n');
  process.stdout.write(`${text}\n`);
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  writeFileSync(join(root, 'bench-results', 'reproduce.md'), `${text}\n`);
  process.stdout.write(`${JSON.stringify({ name: 'reproduce.wall_time_s', value: wall, unit: 's' })}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    process.stderr.write(`reproduce: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 2;
  });
}
