/**
 * DFS-weight's live order (#15.3) gives byte-identical runs: a few shipped `paper-*` workloads (one
 * and four workers, shared prefixes, tree-of-thought branches), the multi-turn and KV-pressure
 * scenarios, switched to `scheduler.policy: dfs-weight`, run once with the live order and once with
 * the reference that re-reads every match and walks the radix tree every step. The run JSON, every
 * `--trace` line (the record and the queue state, as the CLI writes it) and the snapshots must be
 * equal byte for byte, and a copy forked mid-run (restore points) must finish the same.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dfsWeightImplementation } from '../../../src/core/algorithms/dfs-weight/policy';
import { livePrefixFaults } from '../../../src/core/algorithms/shared/live-prefix-order';
import { traceRecordV1 } from '../../../src/core/export';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText } from '../../../src/scenario';
import { SCENARIO_DIR } from '../shipped-scenarios';

/** The scenario text with DFS-weight as the local policy (round-robin where DoubleQ routed). */
function asDfs(file: string, capS: number): string {
  const text = readFileSync(join(SCENARIO_DIR, file), 'utf8')
    .replace(/^ {2}policy: \w[\w-]*$/m, '  policy: dfs-weight')
    .replace(/^ {2}quantum: .*\n/m, '')
    .replace(/^ {2}dlpm_quantum_per_request: .*\n/m, '')
    .replace(/^ {2}lpm_fcfs_fallback: .*\n/m, '')
    .replace(/^ {2}routing: doubleq$/m, '  routing: round-robin')
    .replace(/^ {2}worker_quantum: .*\n/m, '')
    .replace(/^duration_s: .*$/m, (m) => `duration_s: ${Math.min(Number(m.split(':')[1]), capS)}`);
  expect(text).toMatch(/^ {2}policy: dfs-weight$/m);
  return text;
}

function run(
  text: string,
  reference: boolean,
): { json: string; trace: string[]; snapshot: string; forked: string } {
  dfsWeightImplementation.reference = reference;
  const parsed = parseScenarioText(text, {
    file: 'x.yaml',
    readFile: (p) => readFileSync(join(SCENARIO_DIR, p), 'utf8'),
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const sim = new Simulation(parsed.value, { record: true });
  const trace: string[] = [];
  sim.onDecision = (d) => {
    const state = {
      router_queued: sim.router.queuedCount,
      waiting: sim.workers.map((w) => w.waitingCount),
      running: sim.workers.map((w) => w.runningCount),
      kv_used_blocks: sim.workers.map((w) => w.kv.allocatedBlocks),
    };
    trace.push(JSON.stringify({ ...traceRecordV1(d), state }));
  };
  sim.runUntil(parsed.value.duration_s / 2);
  const mid = JSON.stringify(sim.snapshot());
  const copy = sim.fork().sim;
  sim.runToEnd();
  copy.runToEnd();
  return {
    json: JSON.stringify(sim.result()),
    trace,
    snapshot: mid + JSON.stringify(sim.snapshot()),
    forked: JSON.stringify(copy.result()),
  };
}

function same(text: string): void {
  const live = run(text, false);
  const ref = run(text, true);
  expect(live.trace.length).toBe(ref.trace.length);
  expect(ref.trace.some((t) => t.includes('"dfs-weight"'))).toBe(true);
  for (let i = 0; i < ref.trace.length; i++)
    if (live.trace[i] !== ref.trace[i]) expect(live.trace[i]).toBe(ref.trace[i]);
  expect(live.json).toBe(ref.json);
  expect(live.snapshot).toBe(ref.snapshot);
  expect(live.forked).toBe(live.json);
}

afterEach(() => {
  dfsWeightImplementation.reference = false;
  livePrefixFaults.ignoreEvict = false;
});

const files = [
  'paper-chat-s1-1w.yaml',
  'paper-qa-s2-4w.yaml',
  'paper-tot-s1-1w.yaml',
  'paper-judge-s2-1w.yaml',
  'multi-turn-chat.yaml',
  'fig1-kv-pressure.yaml',
];

describe('DFS-weight live order: byte-identical runs', () => {
  for (const f of files) it(`${f} as dfs-weight`, () => same(asDfs(f, 10)), 120_000);

  it('fails when the live order ignores evictions', () => {
    livePrefixFaults.ignoreEvict = true;
    expect(() => same(asDfs('fig1-kv-pressure.yaml', 10))).toThrow();
  }, 120_000);
});
