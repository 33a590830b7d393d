/**
 * DLPM's live order (#15.3) gives byte-identical runs: every shipped scenario that runs DLPM (on one
 * worker, or on each behind DoubleQ), with and without SGLang's FCFS fallback, and an overload that
 * keeps hundreds waiting, run once with the live order and once with the reference that re-reads and
 * sorts the queue every step. The run JSON, every `--trace` line and the final snapshot must be
 * equal, byte for byte; a copy forked mid-run must finish the same. (LPM's runs are in
 * live-lpm-scenarios.test.ts: two files, so that both test workers share them.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { livePrefixFaults } from '../../../src/core/algorithms/shared/live-prefix-order';
import { SCENARIO_DIR, scenarioFiles } from '../shipped-scenarios';
import { resetPrefixOrders, samePrefixOrderRuns } from './live-scenarios';

afterEach(resetPrefixOrders);

/** The shipped scenarios that run DLPM (on one worker, or on each behind DoubleQ), as they are. */
const dlpmFiles = scenarioFiles.filter((f) =>
  /^ {2}policy: dlpm$/m.test(readFileSync(join(SCENARIO_DIR, f), 'utf8')),
);

function capped(file: string, capS: number, extra = ''): string {
  return readFileSync(join(SCENARIO_DIR, file), 'utf8')
    .replace(/^ {2}policy: dlpm$/m, `  policy: dlpm${extra}`)
    .replace(/^duration_s: .*$/m, (m) => `duration_s: ${Math.min(Number(m.split(':')[1]), capS)}`);
}

describe('DLPM live order: byte-identical runs', () => {
  it('lists the scenarios it compares', () => expect(dlpmFiles.length).toBeGreaterThanOrEqual(20));
  for (const f of dlpmFiles) it(`${f}`, () => samePrefixOrderRuns(capped(f, 15)), 120_000);
  it(
    'paper-chat-s2-4w.yaml with lpm_fcfs_fallback: 40',
    () => samePrefixOrderRuns(capped('paper-chat-s2-4w.yaml', 15, '\n  lpm_fcfs_fallback: 40')),
    120_000,
  );
  const overload = `version: 1
name: dlpm overload (test)
duration_s: 0.6
cluster: { workers: 1, gpu: a10g-24gb, model: llama-3.1-8b }
router: { routing: round-robin }
scheduler: { policy: dlpm, quantum: 500 }
clients:
  - name: a
    arrival: { process: poisson, rate: 600 }
    program: { type: single, prompt_tokens: 256, output_tokens: 256, shared_prefix_tokens: 128 }
  - name: b
    arrival: { process: poisson, rate: 300 }
    program: { type: multi-turn, turns: 3, prompt_tokens: { dist: uniform, min: 100, max: 2000 }, output_tokens: 128, think_time_s: 1 }
  - name: c
    arrival: { process: poisson, rate: 100 }
    program: { type: single, prompt_tokens: { dist: uniform, min: 100, max: 6000 }, output_tokens: 64 }
`;
  it('an overload with hundreds waiting, three clients', () => samePrefixOrderRuns(overload), 240_000);
  it('fails when the live order ignores evictions', () => {
    livePrefixFaults.ignoreEvict = true;
    expect(() => samePrefixOrderRuns(capped('fig1-kv-pressure.yaml', 15))).toThrow();
  }, 120_000);
});
