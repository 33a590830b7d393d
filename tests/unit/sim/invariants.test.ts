/**
 * Engine invariants over random small scenarios (fast-check): conservation, KV ledger, radix locks,
 * monotone clock, causality of each request's timestamps, work conservation, determinism.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/core/sim';
import type { SimRequest } from '../../../src/core/sim/request';
import { scenario, scenarioOrNull } from './helpers';

interface Shape {
  workers: number;
  kv: number;
  block: number;
  batch: number;
  running: number;
  preemption: 'fcfs' | 'priority';
  clients: {
    program: 'single' | 'multi-turn' | 'tree-of-thought';
    rate: number;
    prompt: number;
    output: number;
    slo: string;
  }[];
  duration: number;
  policy: boolean;
  seed: number;
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  workers: fc.integer({ min: 1, max: 3 }),
  kv: fc.integer({ min: 1200, max: 4000 }),
  block: fc.constantFrom(1, 4, 16),
  batch: fc.integer({ min: 32, max: 2048 }),
  running: fc.integer({ min: 1, max: 12 }),
  preemption: fc.constantFrom('fcfs' as const, 'priority' as const),
  clients: fc.array(
    fc.record({
      program: fc.constantFrom('single' as const, 'multi-turn' as const, 'tree-of-thought' as const),
      rate: fc.double({ min: 0.5, max: 12, noNaN: true }),
      prompt: fc.integer({ min: 1, max: 300 }),
      output: fc.integer({ min: 1, max: 150 }),
      slo: fc.constantFrom('critical', 'standard', 'batch'),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  duration: fc.integer({ min: 1, max: 4 }),
  policy: fc.boolean(),
  seed: fc.integer({ min: 0, max: 1000 }),
});

function yamlOf(s: Shape): string {
  const programs = {
    single: (c: Shape['clients'][number]) =>
      `{ type: single, prompt_tokens: ${c.prompt}, output_tokens: ${c.output}, shared_prefix_tokens: ${Math.floor(c.prompt / 2)} }`,
    'multi-turn': (c: Shape['clients'][number]) =>
      `{ type: multi-turn, turns: 3, prompt_tokens: ${Math.max(1, Math.floor(c.prompt / 4))}, output_tokens: ${c.output}, think_time_s: 0.2 }`,
    'tree-of-thought': (c: Shape['clients'][number]) =>
      `{ type: tree-of-thought, depth: 2, branching: 2, question_tokens: ${c.prompt}, thought_tokens: ${c.output}, answer_tokens: ${c.output} }`,
  };
  const policy = s.policy
    ? `
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: small}, {min_tokens: 200, bucket: big}]
    policy_classes:
      - {name: s, policy_family: std, cache_bucket: small, quantum: 300, prefill_busy_threshold: 100, request_queue_limit_per_worker: 6}
      - {name: b, policy_family: std, cache_bucket: big, queue_policy: wspt, quantum: 900, prefill_busy_threshold: 300, busy_worker_ratio: 0.5}`
    : '';
  return `version: 1
name: prop
seed: ${s.seed}
duration_s: ${s.duration}
cluster:
  workers: ${s.workers}
  kv_cache_tokens: ${s.kv}
  block_size: ${s.block}
  max_batch_tokens: ${s.batch}
  max_running: ${s.running}
  preemption: ${s.preemption}
router:
  routing: round-robin${policy}
clients:
${s.clients
  .map(
    (c, i) => `  - name: c${i}
    slo_class: ${c.slo}
    arrival: { process: poisson, rate: ${c.rate} }
    program: ${programs[c.program](c)}`,
  )
  .join('\n')}
`;
}

function tryScenario(s: Shape) {
  return scenarioOrNull(yamlOf(s));
}

function causalityProblem(r: SimRequest): string | null {
  if (Number.isNaN(r.completionT)) return null; // rejected
  const chain = [r.arrivalT, r.enqueueT, r.firstScheduleT, r.firstTokenT, r.completionT];
  for (let i = 1; i < chain.length; i++)
    if (!(chain[i - 1] <= chain[i])) return `${r.id}: timestamps out of order ${chain.join(' ')}`;
  return null;
}

/**
 * CI checks 30 seeded random scenarios; `FAIRGROUND_PROPERTY_RUNS=2000 npx vitest run
 * tests/unit/sim/invariants.test.ts` checks thousands with fresh seeds (minutes, not for every run).
 */
const LONG_RUNS = Number(process.env.FAIRGROUND_PROPERTY_RUNS ?? 0) || 0;

describe('engine invariants on random small scenarios', () => {
  it(
    'conservation, KV ledger, radix locks, clock, causality and work conservation hold after every event',
    () => {
      fc.assert(
        fc.property(shapeArb, (shape) => {
          const sc = tryScenario(shape);
          fc.pre(sc !== null);
          const sim = new Simulation(sc!, { record: false });
          const problems: string[] = [];
          sim.onRequestDone = (r) => {
            const p = causalityProblem(r);
            if (p) problems.push(p);
          };
          let last = sim.now;
          let events = 0;
          while (sim.stepEvent()) {
            events++;
            if (sim.now < last) problems.push(`clock went back from ${last} to ${sim.now}`);
            last = sim.now;
            problems.push(...sim.checkInvariants());
            if (problems.length > 0) break;
            if (events > 200_000) throw new Error('runaway scenario');
          }
          expect(problems).toEqual([]);
          const res = sim.result();
          expect(res.requests.queued + res.requests.running).toBe(0);
          expect(res.requests.completed + res.requests.rejected).toBe(res.requests.injected);
        }),
        LONG_RUNS ? { numRuns: LONG_RUNS } : { numRuns: 30, seed: 4242 },
      );
    },
    15_000 + LONG_RUNS * 1_000,
  );

  it('is deterministic: same scenario and seed give identical results and decision streams', () => {
    fc.assert(
      fc.property(shapeArb, (shape) => {
        const sc = tryScenario(shape);
        fc.pre(sc !== null);
        const run = () => {
          const sim = new Simulation(sc!, { record: true });
          const lines: string[] = [];
          sim.onDecision = (d) => lines.push(JSON.stringify(d));
          sim.runToEnd();
          return { result: JSON.stringify(sim.result()), trace: lines.join('\n') };
        };
        const a = run();
        const b = run();
        expect(a.result).toBe(b.result);
        expect(a.trace).toBe(b.trace);
      }),
      { numRuns: 8, seed: 99 },
    );
  }, 15_000);

  it('stepDecision walks the same decisions as a recorded run', () => {
    const yaml = yamlOf({
      workers: 2,
      kv: 4000,
      block: 4,
      batch: 256,
      running: 4,
      preemption: 'fcfs',
      clients: [{ program: 'tree-of-thought', rate: 2, prompt: 200, output: 30, slo: 'standard' }],
      duration: 3,
      policy: true,
      seed: 5,
    });
    const full = new Simulation(scenario(yaml));
    const all: string[] = [];
    full.onDecision = (d) => all.push(JSON.stringify(d));
    full.runToEnd();
    const stepped = new Simulation(scenario(yaml), { record: false });
    const got: string[] = [];
    for (let d = stepped.stepDecision(); d !== null; d = stepped.stepDecision()) got.push(JSON.stringify(d));
    expect(got.length).toBeGreaterThan(50);
    expect(got).toEqual(all);
    expect(JSON.stringify(stepped.result())).toBe(JSON.stringify(full.result()));
    // the decision count does not depend on whether records were built
    expect(full.decisions).toBe(all.length);
    const quiet = new Simulation(scenario(yaml), { record: false });
    quiet.runToEnd();
    expect(quiet.recordsBuilt).toBe(0);
    expect(quiet.decisions).toBe(all.length);
    expect(JSON.stringify(quiet.result())).toBe(JSON.stringify(full.result()));
  });
});
