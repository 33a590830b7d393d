/** Routers inside the engine: determinism, invariants, pull's late binding, explainable records. */
import { describe, expect, it } from 'vitest';
import { explainDecisionText } from '../../../src/core/explain';
import type { DecisionRecord } from '../../../src/core/sim';
import { Simulation } from '../../../src/core/sim';
import { ROUTING_NAMES } from '../../../src/core/algorithms';
import { parseScenarioText, type Scenario } from '../../../src/scenario';

function scenario(routing: string, extra = ''): Scenario {
  const r = parseScenarioText(`version: 1
name: routers
seed: 4
duration_s: 6
cluster: { workers: 3, kv_cache_tokens: 40000, max_batch_tokens: 1024, max_running: 16 }
router: { routing: ${routing}${extra} }
scheduler: { policy: fcfs }
clients:
  - name: a
    arrival: { process: poisson, rate: 6 }
    program: { type: tree-of-thought, depth: 2, branching: 2, question_tokens: 300, thought_tokens: 40, answer_tokens: 40 }
  - name: b
    arrival: { process: poisson, rate: 12 }
    program: { type: single, prompt_tokens: 400, output_tokens: 60, shared_prefix_tokens: 300 }
`);
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join('\n'));
  return r.value;
}

describe('routers in the engine', () => {
  for (const routing of [...ROUTING_NAMES]) {
    it(`${routing}: same seed, same result; invariants hold; everything completes`, () => {
      const run = (record: boolean) => {
        const sim = new Simulation(scenario(routing), { record });
        sim.runToEnd();
        expect(sim.checkInvariants()).toEqual([]);
        const r = sim.result();
        expect(r.requests.completed).toBe(r.requests.injected);
        return JSON.stringify({ ...r, decisions: 0 });
      };
      expect(run(false)).toBe(run(false));
      expect(run(true)).toBe(run(false)); // recording never changes a choice
    });
  }

  it('pull binds late: requests wait in the router and a worker never has more than one waiting', () => {
    const sim = new Simulation(scenario('pull'), { record: false });
    let maxHeld = 0;
    let maxWaiting = 0;
    while (sim.stepEvent()) {
      maxHeld = Math.max(maxHeld, sim.router.queuedCount);
      for (const w of sim.workers) maxWaiting = Math.max(maxWaiting, w.waitingCount);
      expect(sim.checkInvariants()).toEqual([]);
    }
    expect(maxHeld).toBeGreaterThan(0);
    expect(maxWaiting).toBeLessThanOrEqual(1);
    expect(sim.result().requests.completed).toBe(sim.result().requests.injected);
  });

  it('DoubleQ and Preble dispatch records feed their explainers; DoubleQ shows its deficits', () => {
    for (const routing of ['doubleq', 'preble']) {
      const sim = new Simulation(scenario(routing), { record: true });
      const dispatches: DecisionRecord[] = [];
      sim.onDecision = (d) => {
        if (d.kind === 'dispatch') dispatches.push(d);
      };
      sim.runToEnd();
      expect(dispatches.length).toBeGreaterThan(10);
      const text = explainDecisionText(dispatches[dispatches.length - 1]);
      expect(text).toMatch(routing === 'doubleq' ? /G_avail/ : /explore|exploit/);
      const d = sim.snapshot().router;
      expect(d.routing).toBe(routing);
      if (d.routing === 'doubleq') expect(Object.keys(d.state?.deficits ?? {})).toEqual(['a', 'b']);
      else expect(d.routing === 'preble' && d.state).toHaveProperty('exploits');
    }
  });
});
