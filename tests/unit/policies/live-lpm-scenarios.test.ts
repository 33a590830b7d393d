/**
 * LPM's live order (#15.3) gives byte-identical runs: the shipped scenarios that show LPM (the 16
 * `paper-*` workloads with `scheduler.policy: lpm`, as `npm run reproduce` runs them, rr-lpm on four
 * workers; the multi-turn and KV-pressure ones; an overload that keeps thousands waiting), with and
 * without SGLang's FCFS fallback, run once with the live order and once with the reference that
 * re-reads and sorts the queue every step. The run JSON, every `--trace` line (as the CLI writes it:
 * the record and the queue state) and the final snapshot must be equal, byte for byte. A copy forked
 * mid-run (restore points) must finish the same as well.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { livePrefixFaults } from '../../../src/core/algorithms/shared/live-prefix-order';
import { SCENARIO_DIR, scenarioFiles } from '../shipped-scenarios';
import { resetPrefixOrders, samePrefixOrderRuns } from './live-scenarios';

/** The scenario text with LPM as the local policy (and round-robin where DoubleQ routed). */
function asLpm(file: string, fallback: number, capS: number): string {
  let text = readFileSync(join(SCENARIO_DIR, file), 'utf8');
  text = text
    .replace(
      /^ {2}policy: \w[\w-]*$/m,
      `  policy: lpm${fallback > 0 ? `\n  lpm_fcfs_fallback: ${fallback}` : ''}`,
    )
    .replace(/^ {2}quantum: .*\n/m, '')
    .replace(/^ {2}dlpm_quantum_per_request: .*\n/m, '')
    .replace(/^ {2}routing: doubleq$/m, '  routing: round-robin')
    .replace(/^ {2}worker_quantum: .*\n/m, '')
    .replace(/^duration_s: .*$/m, (m) => `duration_s: ${Math.min(Number(m.split(':')[1]), capS)}`);
  return text;
}

afterEach(resetPrefixOrders);

const files = scenarioFiles.filter(
  (f) =>
    f.startsWith('paper-') ||
    ['multi-turn-chat.yaml', 'fig1-kv-pressure.yaml', 'long-qa-s1.yaml'].includes(f),
);

describe('LPM live order: byte-identical runs', () => {
  it('lists the scenarios it compares', () => expect(files.length).toBeGreaterThanOrEqual(19));
  for (const f of files)
    it(`${f} as lpm`, () => samePrefixOrderRuns(asLpm(f, f.includes('-4w') ? 128 : 0, 15)), 120_000);

  /** 1.4 s of 2 × 500 req/s on one a10g: about 2,000 requests, nearly all waiting at the peak. */
  const overload = `version: 1
name: lpm overload with shared prefixes (test)
duration_s: 1.4
cluster: { workers: 1, gpu: a10g-24gb, model: llama-3.1-8b }
router: { routing: round-robin }
scheduler: { policy: lpm }
clients:
  - name: a
    arrival: { process: poisson, rate: 500 }
    program: { type: single, prompt_tokens: 256, output_tokens: 256, shared_prefix_tokens: 128 }
  - name: b
    arrival: { process: poisson, rate: 500 }
    program: { type: multi-turn, turns: 3, prompt_tokens: { dist: uniform, min: 100, max: 2000 }, output_tokens: 128, think_time_s: 1 }
`;
  it('an overload with thousands waiting', () => samePrefixOrderRuns(overload), 240_000);
  it(
    'the same overload with lpm_fcfs_fallback: 700',
    () => samePrefixOrderRuns(overload.replace('policy: lpm }', 'policy: lpm, lpm_fcfs_fallback: 700 }')),
    240_000,
  );

  it('fails when the live order ignores evictions', () => {
    livePrefixFaults.ignoreEvict = true;
    expect(() => samePrefixOrderRuns(asLpm('fig1-kv-pressure.yaml', 0, 15))).toThrow();
  }, 120_000);
});
