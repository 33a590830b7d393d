/**
 * `Simulation.fork` on random small clusters (fast-check): every router, every local policy, with and
 * without the policy-class queue, forked at a random event. The copy and the original each run to the
 * end; their results and final snapshots must be byte-identical. CI runs 20 cases;
 * `FAIRGROUND_PROPERTY_RUNS=500` runs more with fresh seeds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/core/sim';
import { ROUTING_NAMES } from '../../../src/core/algorithms';
import { SCHEDULER_POLICIES } from '../../../src/scenario/schema';
import { scenarioOrNull } from './helpers';

const ROUTERS = [...ROUTING_NAMES];
const LOCAL = SCHEDULER_POLICIES;

interface Shape {
  workers: number;
  routing: string;
  local: string;
  policy: boolean;
  clients: { program: 'single' | 'multi-turn' | 'tree-of-thought'; rate: number; prompt: number }[];
  seed: number;
  /** Where to fork, in thousandths of the run's events. */
  at: number;
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  workers: fc.integer({ min: 1, max: 3 }),
  routing: fc.constantFrom(...ROUTERS),
  local: fc.constantFrom(...LOCAL),
  policy: fc.boolean(),
  clients: fc.array(
    fc.record({
      program: fc.constantFrom('single' as const, 'multi-turn' as const, 'tree-of-thought' as const),
      rate: fc.double({ min: 1, max: 10, noNaN: true }),
      prompt: fc.integer({ min: 8, max: 300 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  seed: fc.integer({ min: 0, max: 10_000 }),
  at: fc.integer({ min: 1, max: 999 }),
});

function yamlOf(s: Shape): string {
  const program = (c: Shape['clients'][number]) =>
    c.program === 'single'
      ? `{ type: single, prompt_tokens: ${c.prompt}, output_tokens: 40, shared_prefix_tokens: ${Math.floor(c.prompt / 2)} }`
      : c.program === 'multi-turn'
        ? `{ type: multi-turn, turns: 3, prompt_tokens: ${Math.ceil(c.prompt / 4)}, output_tokens: 30, think_time_s: 0.2 }`
        : `{ type: tree-of-thought, depth: 2, branching: 2, question_tokens: ${c.prompt}, thought_tokens: 30, answer_tokens: 20 }`;
  const policy = s.policy
    ? `
  policy:
    policy_classes:
      - {name: s, quantum: 300, prefill_busy_threshold: 100}
      - {name: b, quantum: 900, prefill_busy_threshold: 300}`
    : '';
  return `version: 1
name: fork-prop
seed: ${s.seed}
duration_s: 3
cluster:
  workers: ${s.workers}
  kv_cache_tokens: 4000
  block_size: 16
  max_batch_tokens: 512
  max_running: 8
scheduler:
  policy: ${s.local}
router:
  routing: ${s.routing}${policy}
clients:
${s.clients
  .map(
    (c, i) => `  - name: c${i}
    arrival: { process: poisson, rate: ${c.rate} }
    program: ${program(c)}`,
  )
  .join('\n')}
`;
}

function tryScenario(s: Shape) {
  return scenarioOrNull(yamlOf(s));
}

const RUNS = Number(process.env.FAIRGROUND_PROPERTY_RUNS ?? 0) || 0;

describe('Simulation.fork on random clusters', () => {
  it('a copy taken at any event ends exactly as the original', () => {
    let forkedMidRun = 0;
    fc.assert(
      fc.property(shapeArb, (shape) => {
        const sc = tryScenario(shape);
        fc.pre(sc !== null);
        // how many events the run has, to fork at a share of them
        const probe = new Simulation(sc!, { record: false });
        probe.runToEnd({ maxEvents: 100_000 });
        const total = probe.eventsProcessed;
        const sim = new Simulation(sc!);
        const k = Math.floor((shape.at / 1000) * total);
        for (let i = 0; i < k && sim.stepEvent(); i++) {
          /* to the fork point */
        }
        if (k > 0 && k < total) forkedMidRun++;
        const copy = sim.fork().sim;
        sim.runToEnd();
        copy.runToEnd();
        expect(JSON.stringify(copy.result())).toBe(JSON.stringify(sim.result()));
        expect(JSON.stringify(copy.snapshot())).toBe(JSON.stringify(sim.snapshot()));
        expect(JSON.stringify(sim.result())).toBe(JSON.stringify(probe.result()));
      }),
      RUNS > 0 ? { numRuns: RUNS } : { numRuns: 20, seed: 20261122 },
    );
    // most cases must really fork in the middle of a run (not before the first or after the last event)
    expect(forkedMidRun).toBeGreaterThan(RUNS > 0 ? RUNS / 2 : 10);
  }, 120_000);
});
