import fc from 'fast-check';
import { it } from 'vitest';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText } from '../../../src/scenario';
it('ratio', () => {
  for (const [routing, policy, ws] of [
    ['doubleq', 'dlpm', 1],
    ['round-robin', 'dlpm', 1],
    ['doubleq', 'dlpm', 3],
    ['per-client-rr', 'dlpm', 3],
  ] as const) {
    let max = 0;
    let arg = '';
    const samples = fc.sample(
      fc.record({
        q: fc.integer({ min: 50, max: 3000 }),
        b: fc.integer({ min: 128, max: 2048 }),
        r: fc.double({ min: 5, max: 40, noNaN: true }),
        p: fc.integer({ min: 16, max: 600 }),
        o: fc.integer({ min: 1, max: 120 }),
      }),
      { numRuns: 20, seed: 3 },
    );
    for (const x of samples) {
      const y = `version: 1\nname: t\nseed: 1\nduration_s: 4\ncluster: { workers: ${ws}, kv_cache_tokens: 60000, max_batch_tokens: ${x.b}, max_running: 64 }\nrouter: { routing: ${routing} }\nscheduler: { policy: ${policy}, quantum: ${x.q} }\nclients:\n  - { name: a, arrival: { process: poisson, rate: ${x.r * 3} }, program: { type: single, prompt_tokens: ${x.p}, output_tokens: ${x.o} } }\n  - { name: b, arrival: { process: poisson, rate: ${x.r} }, program: { type: single, prompt_tokens: 32, output_tokens: 8 } }\n`;
      const s = parseScenarioText(y);
      if (!s.ok) throw new Error('bad');
      const sim = new Simulation(s.value, { record: false });
      sim.runToEnd();
      const U = Math.max(x.p, 32) + 2 * x.b;
      const bound = 2 * ws * (U + x.q);
      const res = sim.result();
      const ratio = res.max_backlogged_service_gap / bound;
      if (ratio > max) {
        max = ratio;
        arg = JSON.stringify({ ...x, gap: res.max_backlogged_service_gap, bound, at: res.max_gap });
      }
    }
    console.log(routing, policy, ws, 'max gap/bound', max.toFixed(3), arg);
  }
});
