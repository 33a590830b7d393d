/**
 * Decode fast-forward (#14) never changes a run: every shipped scenario (its first 6 simulated
 * seconds, and a synchronised two-worker run where step ends tie exactly) gives the same result and
 * the same snapshots with the fast path on and off, whether run to the end in one call or in slices
 * (where cruises stop at every slice end). The fast path must also really run (skipped step ends > 0).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/core/sim/index';
import { applyOverrides, parseScenarioText, type Scenario } from '../../../src/scenario';
import { SCENARIO_DIR, scenarioFiles } from '../shipped-scenarios';

function load(text: string, file: string, sets: string[]): Scenario {
  const o = applyOverrides(text, sets);
  if (!o.ok) throw new Error(JSON.stringify(o.problems));
  const res = parseScenarioText(o.value, {
    file,
    readFile: (p) => readFileSync(join(SCENARIO_DIR, p), 'utf8'),
  });
  if (!res.ok) throw new Error(JSON.stringify(res.problems));
  return res.value;
}

/** Result JSON, plus snapshots at every slice end when run in slices. */
function run(s: Scenario, fastForward: boolean, slice: number | null): { out: string; skipped: number } {
  const sim = new Simulation(s, { record: false, fastForward });
  const snaps: string[] = [];
  if (slice === null) sim.runToEnd();
  else
    for (let t = slice; !sim.done(); t += slice) {
      sim.runUntil(t);
      snaps.push(JSON.stringify(sim.snapshot()));
    }
  const res = sim.result();
  return { out: JSON.stringify({ res, snaps }), skipped: sim.fastForwardedSteps };
}

describe('decode fast-forward', () => {
  let skippedTotal = 0;
  for (const file of scenarioFiles) {
    if (file.startsWith('bench-')) continue;
    it(`${file}: same result and snapshots with and without it`, () => {
      const text = readFileSync(join(SCENARIO_DIR, file), 'utf8');
      // 6 s of each, unless its scripted requests come later (the periodic update's example, at 60 s:
      // a short scenario, run whole)
      const whole = load(text, file, []);
      const late = (whole.requests ?? []).some((r) => r.t > 6);
      const s = late ? whole : load(text, file, ['duration_s=6']);
      const off = run(s, false, null);
      const on = run(s, true, null);
      expect(on.out).toBe(off.out);
      expect(run(s, true, 0.7).out).toBe(run(s, false, 0.7).out);
      skippedTotal += on.skipped;
    });
  }

  it("fcfs-mpq: Preble's decode runs end where the same decode counter says, quiet steps or not", () => {
    // three long decodes run alone for a second (quiet steps); then a 20k-token prompt does not fit
    // beside their output room while over half the pool is free: each scan that admits nothing starts
    // a run of decode steps (about a hundred here) whose end depends on the decode counter the quiet
    // steps advanced, until the room has decayed enough to admit it
    const text = `version: 1
name: preble decode runs
seed: 5
duration_s: 20
cluster: { workers: 1, gpu: h100-80gb, model: llama-3.1-8b, kv_cache_tokens: 30000 }
router: { routing: round-robin }
scheduler: { policy: fcfs-mpq }
requests:
  - { t: 0.0, client: a, prompt_tokens: 100, output_tokens: 4000 }
  - { t: 0.0, client: a, prompt_tokens: 120, output_tokens: 4000 }
  - { t: 0.0, client: a, prompt_tokens: 140, output_tokens: 4000 }
  - { t: 1.0, client: b, prompt_tokens: 20000, output_tokens: 4000 }
  - { t: 3.0, client: a, prompt_tokens: 90, output_tokens: 500 }
`;
    const s = load(text, 'preble-runs.yaml', []);
    const on = run(s, true, null);
    expect(on.out).toBe(run(s, false, null).out);
    expect(run(s, true, 0.45).out).toBe(run(s, false, 0.45).out);
    expect(on.skipped).toBeGreaterThan(0);
  });

  it('two synchronised workers with clients arriving together (step ends tie exactly)', () => {
    // round-robin over two identical workers, one client whose requests arrive in pairs: both
    // workers start together and their step ends coincide, so the tie rules decide the order
    const text = `version: 1
name: ties
seed: 3
duration_s: 30
cluster: { workers: 2, gpu: h100-80gb, model: llama-3.1-8b }
router: { routing: round-robin }
scheduler: { policy: fcfs }
clients:
  - name: a
    arrival: { process: constant, rate: 0.4 }
    program: { type: single, prompt_tokens: 600, output_tokens: 300 }
  - name: b
    arrival: { process: constant, rate: 0.4 }
    program: { type: single, prompt_tokens: 600, output_tokens: 300 }
  - name: c
    arrival: { process: constant, rate: 0.15 }
    program: { type: single, prompt_tokens: 900, output_tokens: 500 }
`;
    const s = load(text, 'ties.yaml', []);
    const on = run(s, true, null);
    expect(on.out).toBe(run(s, false, null).out);
    expect(run(s, true, 0.45).out).toBe(run(s, false, 0.45).out);
    expect(on.skipped).toBeGreaterThan(0);
  });

  it('skips step ends on the shipped scenarios (the fast path runs)', () => {
    expect(skippedTotal).toBeGreaterThan(1000);
  });
});
