/**
 * Preble's fcfs-mpq at O(log n) per step (#15) gives byte-identical runs: the shipped scenario that
 * runs it (preble-qa-s1-4w), the eight 4-worker `paper-*` workloads as `npm run reproduce` runs
 * Preble on them (`routing: preble` + `fcfs-mpq`), and an overload with KV pressure and a backlog of
 * hundreds per worker, each run once with the live groups and once with the reference that tries
 * every request of the served group. The run JSON, every `--trace` line, the snapshots and a copy
 * forked mid-run must be equal, byte for byte (./live-scenarios.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mpqFaults } from '../../../src/core/algorithms/fcfs-mpq/live-policy';
import { fcfsMpqImplementation } from '../../../src/core/algorithms/fcfs-mpq/policy';
import { SCENARIO_DIR, scenarioFiles } from '../shipped-scenarios';
import { expectSameRuns } from './live-scenarios';
import { clearFaults } from './live-workload';

/** The scenario text with Preble's router and local scheduler, its duration capped. */
function asPreble(file: string, capS: number): string {
  return readFileSync(join(SCENARIO_DIR, file), 'utf8')
    .replace(/^ {2}policy: \w[\w-]*$/m, '  policy: fcfs-mpq')
    .replace(/^ {2}quantum: .*\n/m, '')
    .replace(/^ {2}dlpm_quantum_per_request: .*\n/m, '')
    .replace(/^ {2}routing: \w[\w-]*$/m, '  routing: preble')
    .replace(/^ {2}worker_quantum: .*\n/m, '')
    .replace(/^duration_s: .*$/m, (m) => `duration_s: ${Math.min(Number(m.split(':')[1]), capS)}`);
}

function same(text: string): void {
  expect(text).toMatch(/policy: fcfs-mpq\b/);
  expectSameRuns(text, (on) => {
    fcfsMpqImplementation.reference = on;
  });
}

afterEach(() => {
  fcfsMpqImplementation.reference = false;
  clearFaults(mpqFaults);
});

const files = scenarioFiles.filter(
  (f) =>
    (f.startsWith('paper-') && f.includes('-4w')) ||
    /^ {2}policy: fcfs-mpq$/m.test(readFileSync(join(SCENARIO_DIR, f), 'utf8')),
);

/** 0.25 s of 3 × 300 req/s on one a10g with a 20k-token cache: long prompts, most of a group waits. */
const overload = `version: 1
name: fcfs-mpq overload with shared prefixes (test)
duration_s: 0.25
cluster: { workers: 1, gpu: a10g-24gb, model: llama-3.1-8b, kv_cache_tokens: 20000 }
router: { routing: round-robin }
scheduler: { policy: fcfs-mpq }
clients:
  - name: a
    arrival: { process: poisson, rate: 300 }
    program: { type: single, prompt_tokens: 256, output_tokens: 128, shared_prefix_tokens: 128 }
  - name: b
    arrival: { process: poisson, rate: 300 }
    program: { type: multi-turn, turns: 3, prompt_tokens: { dist: uniform, min: 100, max: 2000 }, output_tokens: 64, think_time_s: 0.2 }
  - name: c
    arrival: { process: poisson, rate: 300 }
    program: { type: single, prompt_tokens: { dist: uniform, min: 100, max: 6000 }, output_tokens: 32 }
`;

describe('fcfs-mpq live groups: byte-identical runs', () => {
  it('lists the scenarios it compares', () => {
    expect(files).toContain('preble-qa-s1-4w.yaml');
    expect(files.length).toBeGreaterThanOrEqual(9);
  });
  for (const f of files) it(`${f} as preble + fcfs-mpq`, () => same(asPreble(f, 0.5)), 120_000);

  it('an overload with KV pressure and hundreds waiting', () => same(overload), 120_000);

  it('fails when keys ignore the cached prefix', () => {
    mpqFaults.ignoreMatch = true;
    expect(() => same(overload.replace('duration_s: 0.25', 'duration_s: 0.1'))).toThrow();
  }, 120_000);
});
