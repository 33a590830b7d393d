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
import { SCENARIO_DIR } from '../shipped-scenarios';
import { expectSameRuns } from './live-scenarios';

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

/** The live and the reference run of `text` are byte-identical, and DFS-weight did decide. */
function same(text: string): void {
  const ref = expectSameRuns(text, (on) => {
    dfsWeightImplementation.reference = on;
  });
  expect(ref.trace.some((t) => t.includes('"dfs-weight"'))).toBe(true);
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
