/**
 * DoubleQ in the engine: Theorem 5.1's service bound as a property over random workloads, and the
 * paper's headline trade-off on a prefix-heavy misbehaving-client cluster (needs the dlpm, lpm and vtc
 * local policies).
 *
 * The workloads give every client a rate that keeps it backlogged on every worker, the setting the
 * theorem's proof works in. (With fcfs + round-robin the same workloads exceed the bound about 3×.)
 * Outside that setting — a client with tiny requests that is backlogged on one worker while the others
 * serve only its competitor — the simulator's cluster-wide gap can exceed the bound; see the notes of
 * `npm run reproduce`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText, type Scenario } from '../../../src/scenario';

function scenario(yaml: string): Scenario {
  const r = parseScenarioText(yaml);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`).join('\n'));
  return r.value;
}

interface Shape {
  workers: number;
  quantum: number;
  workerQuantum: number;
  batch: number;
  block: number;
  seed: number;
  clients: { rate: number; prompt: number; output: number; prefix: number }[];
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  workers: fc.integer({ min: 1, max: 3 }),
  quantum: fc.integer({ min: 50, max: 3000 }),
  workerQuantum: fc.integer({ min: 100, max: 30_000 }),
  batch: fc.integer({ min: 128, max: 2048 }),
  block: fc.constantFrom(4, 16),
  seed: fc.integer({ min: 0, max: 10_000 }),
  clients: fc.array(
    fc.record({
      rate: fc.double({ min: 5, max: 40, noNaN: true }),
      prompt: fc.integer({ min: 16, max: 600 }),
      output: fc.integer({ min: 1, max: 120 }),
      prefix: fc.integer({ min: 0, max: 100 }),
    }),
    { minLength: 2, maxLength: 3 },
  ),
});

function yamlOf(s: Shape): string {
  const clients = s.clients
    .map(
      (c, i) => `  - name: c${i}
    arrival: { process: poisson, rate: ${c.rate.toFixed(3)} }
    program: { type: single, prompt_tokens: ${c.prompt}, output_tokens: ${c.output}, shared_prefix_tokens: ${Math.floor((c.prompt * c.prefix) / 100)} }`,
    )
    .join('\n');
  return `version: 1
name: doubleq bound
seed: ${s.seed}
duration_s: 4
cluster: { workers: ${s.workers}, kv_cache_tokens: 60000, block_size: ${s.block}, max_batch_tokens: ${s.batch}, max_running: 64 }
router: { routing: doubleq, worker_quantum: ${s.workerQuantum} }
scheduler: { policy: dlpm, quantum: ${s.quantum}, weights: { input: 1, output: 2 } }
clients:
${clients}
`;
}

describe('DoubleQ fairness (Theorem 5.1)', () => {
  it('keeps backlogged clients within 2·|W|·(U + Q^u) of each other', () => {
    fc.assert(
      fc.property(shapeArb, (shape) => {
        const s = scenario(yamlOf(shape));
        const sim = new Simulation(s, { record: false });
        sim.runToEnd();
        const r = sim.result();
        // U = w_e · longest prompt + w_q · most tokens one batch step can hold
        const U = 1 * Math.max(...shape.clients.map((c) => c.prompt)) + 2 * shape.batch;
        const bound = 2 * shape.workers * (U + shape.quantum);
        expect(r.requests.completed).toBe(r.requests.injected);
        expect(r.max_backlogged_service_gap).toBeLessThanOrEqual(bound);
      }),
      { numRuns: 20, seed: 51 },
    );
  });
});

function paperVariant(routing: string, policy: string) {
  const file = 'paper-tot-s2-4w.yaml';
  const text = readFileSync(join(__dirname, '../../../scenarios', file), 'utf8');
  const s = scenario(text);
  const v = {
    ...s,
    router: { ...s.router, routing: routing as Scenario['router']['routing'] },
    scheduler: { ...s.scheduler, policy: policy as Scenario['scheduler']['policy'] },
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
  });
});
