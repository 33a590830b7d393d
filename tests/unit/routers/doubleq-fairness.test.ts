/**
 * DoubleQ in the engine: Theorem 5.1's service bound as a property over random workloads (with
 * RR+LPM and RR+FCFS shown to exceed it on the same workloads), and the paper's headline trade-off
 * on a prefix-heavy misbehaving-client cluster. A missing policy makes these tests fail, not skip.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText, type Scenario, switchRouting, switchScheduler } from '../../../src/scenario';

function scenario(yaml: string): Scenario {
  const r = parseScenarioText(yaml);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`).join('\n'));
  return r.value;
}

interface Shape {
  workers: number;
  quantum: number;
  workerQuantum: number;
  kv: number;
  block: number;
  seed: number;
  flood: { rate: number; prefix: number; suffix: number; output: number };
  clients: { rate: number; prompt: number; output: number }[];
}

/**
 * Property runs: sized for CI by default; FAIRGROUND_PROPERTY_RUNS=100 (say) for a deep run. Each
 * run simulates three cluster configurations of a few thousand requests.
 */
const RUNS = Number(process.env.FAIRGROUND_PROPERTY_RUNS ?? 4);

/**
 * A misbehaving client (c0: a high rate of requests sharing a long document) and two or three
 * well-behaved ones, on two workers, every rate (per worker) high enough to keep each client
 * backlogged on every worker — the setting of Theorem 5.1's proof — under KV pressure: 2–3k tokens
 * of KV per worker, a few thousand requests per run.
 *
 * What is checked, exactly: the engine's max_backlogged_service_gap (over pairs of clients and
 * intervals in which both had a request waiting *somewhere* in the cluster) against the theorem's
 * bound with the theorem's M (one worker's KV pool, as theorem-bound.ts has it). Measured over 12
 * draws (seed 51): DoubleQ 0.12–0.55 of the bound, RR+LPM 5–14×, RR+FCFS 3.4–10×. With three
 * workers the same generator gave DoubleQ gaps of 1.0× and 2.1× the bound on 2 of 12 draws: the
 * cluster-wide notion of backlog counts a client waiting at one worker as backlogged, while the
 * proof needs it waiting at every worker; the simulator does not track per-worker backlog, so the
 * three-worker case is not asserted (README, "what does not hold").
 */
const shapeArb: fc.Arbitrary<Shape> = fc.record({
  workers: fc.constant(2),
  quantum: fc.integer({ min: 200, max: 2000 }),
  workerQuantum: fc.integer({ min: 1000, max: 30_000 }),
  kv: fc.integer({ min: 2048, max: 3072 }),
  block: fc.constantFrom(1, 16),
  seed: fc.integer({ min: 0, max: 10_000 }),
  flood: fc.record({
    rate: fc.double({ min: 75, max: 150, noNaN: true }),
    prefix: fc.integer({ min: 200, max: 400 }),
    suffix: fc.integer({ min: 40, max: 120 }),
    output: fc.integer({ min: 48, max: 128 }),
  }),
  clients: fc.array(
    fc.record({
      rate: fc.double({ min: 25, max: 50, noNaN: true }),
      prompt: fc.integer({ min: 60, max: 240 }),
      output: fc.integer({ min: 32, max: 96 }),
    }),
    { minLength: 2, maxLength: 3 },
  ),
});

function yamlOf(s: Shape, routing = 'doubleq', policy = 'dlpm'): string {
  const f = s.flood;
  const clients = [
    `  - name: c0
    arrival: { process: poisson, rate: ${(f.rate * s.workers).toFixed(3)} }
    program: { type: single, prompt_tokens: ${f.prefix + f.suffix}, output_tokens: ${f.output}, shared_prefix_tokens: ${f.prefix} }`,
    ...s.clients.map(
      (c, i) => `  - name: c${i + 1}
    arrival: { process: poisson, rate: ${(c.rate * s.workers).toFixed(3)} }
    program: { type: single, prompt_tokens: ${c.prompt}, output_tokens: ${c.output} }`,
    ),
  ].join('\n');
  return `version: 1
name: doubleq bound
seed: ${s.seed}
duration_s: 3
cluster: { workers: ${s.workers}, kv_cache_tokens: ${s.kv}, block_size: ${s.block}, max_batch_tokens: 2048, max_running: 64 }
router: { routing: ${routing}, worker_quantum: ${s.workerQuantum} }
scheduler: { policy: ${policy}, quantum: ${s.quantum}, weights: { input: 1, output: 2 } }
clients:
${clients}
`;
}

/** Theorem 5.1's bound with the theorem's M (one worker's KV pool, whole blocks), as theorem-bound.ts has it. */
function theoremBound(s: Shape): number {
  const L = s.flood.prefix + s.flood.suffix;
  const longest = Math.max(L, ...s.clients.map((c) => c.prompt));
  const M = Math.floor(s.kv / s.block) * s.block;
  return 2 * s.workers * (1 * longest + 2 * M + s.quantum);
}

function runShape(s: Shape, routing?: string, policy?: string) {
  const sim = new Simulation(scenario(yamlOf(s, routing, policy)), { record: false });
  sim.runToEnd();
  return sim.result();
}

describe('DoubleQ fairness (Theorem 5.1)', () => {
  it('keeps backlogged clients within 2·|W|·(U + Q^u), U = w_e·L_input + w_q·M; RR+LPM and RR+FCFS exceed it on the same workloads', () => {
    fc.assert(
      fc.property(shapeArb, (shape) => {
        const bound = theoremBound(shape);
        const r = runShape(shape);
        expect(r.requests.completed).toBe(r.requests.injected);
        // the engine's own bound (theorem-bound.ts) is the same number
        expect(r.guarantee.theorem).toBe('DoubleQ Theorem 5.1');
        expect(r.guarantee.bound).toBe(bound);
        expect(r.max_backlogged_service_gap).toBeLessThanOrEqual(bound);
        expect(r.guarantee.violations).toBe(0);
        for (const [routing, policy] of [
          ['round-robin', 'lpm'],
          ['round-robin', 'fcfs'],
        ])
          expect(runShape(shape, routing, policy).max_backlogged_service_gap).toBeGreaterThan(bound);
      }),
      { numRuns: RUNS, seed: 51, endOnFailure: true },
    );
  }, 120_000);
});

function paperVariant(routing: string, policy: string) {
  const file = 'paper-tot-s2-4w.yaml';
  const text = readFileSync(join(__dirname, '../../../scenarios', file), 'utf8');
  const s = scenario(text);
  // The claim is about locality under KV pressure: the shipped file now runs the realistic A100 pool
  // (~467k tokens), where ToT S2 at this load never fills it and every scheduler is alike, so this
  // test keeps the 60k-token pool the file used before (#11).
  const v = {
    ...s,
    cluster: { ...s.cluster, kv_cache_tokens: 60_000 },
    router: switchRouting(s.router, routing),
    scheduler: switchScheduler(s.scheduler, policy),
  };
  const sim = new Simulation(v, { record: false });
  let tokens = 0;
  sim.onRequestDone = (req) => {
    if (!Number.isNaN(req.completionT)) tokens += req.promptLen + req.outputLen;
  };
  sim.runToEnd();
  const r = sim.result();
  return {
    throughput: tokens / r.sim_time_s,
    jain: r.jain_index,
    jainExtend: r.jain_index_extend,
    hit: r.cache_hit_rate,
  };
}

describe('DoubleQ on a prefix-heavy misbehaving client, 4 workers (ToT S2)', () => {
  it('beats VTC + per-client RR on throughput and stays well above RR+LPM on fairness', () => {
    const dq = paperVariant('doubleq', 'dlpm');
    const vtc = paperVariant('per-client-rr', 'vtc');
    const rr = paperVariant('round-robin', 'lpm');
    expect(dq.throughput).toBeGreaterThan(1.2 * vtc.throughput);
    expect(dq.hit).toBeGreaterThan(vtc.hit);
    // Jain's index from the client's view (whole input + 2·output, the paper's §6.1 measure): DoubleQ
    // well above RR+LPM, below VTC, near the paper's 0.83–0.855 (Fig. 10a); measured 0.80 / 0.71 / 0.98
    expect(dq.jain).toBeGreaterThan(rr.jain + 0.05);
    expect(vtc.jain).toBeGreaterThan(dq.jain);
    // over the cost DoubleQ balances (computed tokens), it is close to even
    expect(dq.jainExtend).toBeGreaterThan(0.95);
  }, 120_000);
});
