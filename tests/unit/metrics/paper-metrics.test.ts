/**
 * The DLPM paper's metrics (§6.1): client-perspective service (whole input + 2·output, each token
 * once) for Jain's index, and program-level end-to-end latency. Hand-made cases with the numbers
 * worked out by hand, then an engine run checked against the requests it completed.
 */
import { describe, expect, it } from 'vitest';
import { MetricsCollector } from '../../../src/core/metrics/collector';
import { jainMeaningful } from '../../../src/core/metrics/jain';
import { ProgramTracker } from '../../../src/core/metrics/programs';
import { Simulation } from '../../../src/core/sim';
import { scenario } from '../sim/helpers';

describe('client-perspective Jain index', () => {
  it('counts the whole input (cached too), so a client whose prompts hit the cache is not "under-served"', () => {
    const m = new MetricsCollector(['a', 'b'], { input: 1, output: 2 });
    m.onSubmit(0, 0);
    m.onSubmit(1, 0);
    // a: 1000-token prompt, 900 cached; b: 1000-token prompt, nothing cached; both 10 output tokens
    m.onAdmit(0, 0, 1000, 900);
    m.onAdmit(1, 0, 1000, 0);
    m.onService(0, 100, 10);
    m.onService(1, 1000, 10);
    m.onClientService(0, 1000, 10);
    m.onClientService(1, 1000, 10);
    m.onComplete(0, 2, 0, 1, 10);
    m.onComplete(1, 2, 0, 1, 10);
    // system view: 120 vs 1020 -> (1140)^2 / (2 * (120^2 + 1020^2))
    expect(m.jain(2, 'system').index).toBeCloseTo(1140 ** 2 / (2 * (120 ** 2 + 1020 ** 2)), 12);
    // client view: 1020 vs 1020 -> 1
    expect(m.jain(2, 'client').index).toBe(1);
    expect(m.jain(2).index).toBe(1);
  });

  it('jainSoFar is 1 with one active client, then tracks service since the last client became active', () => {
    const m = new MetricsCollector(['a', 'b'], { input: 1, output: 2 });
    m.onSubmit(0, 0);
    m.onClientService(0, 500, 0);
    expect(m.jainSoFar(1)).toBe(1);
    m.onSubmit(1, 1);
    m.onClientService(0, 30, 0);
    m.onClientService(1, 10, 0);
    // since t=1: a 30, b 10 -> 40^2 / (2 * 1000) = 0.8
    expect(m.jainSoFar(2)).toBeCloseTo(0.8, 12);
  });

  it('carries what the index compares, so views can tell a measured 1 from the convention (#15)', () => {
    const m = new MetricsCollector(['a', 'b', 'c'], { input: 1, output: 2 });
    m.onSubmit(0, 0);
    m.onClientService(0, 500, 0);
    // one client, served: the engine says 1, which means nothing
    expect(m.jainSoFar(1)).toBe(1);
    expect({ clients: m.jainClientsSoFar, served: m.jainServedSoFar(1) }).toEqual({ clients: 1, served: 1 });
    expect(jainMeaningful({ clients: 1, served: 1 })).toBe(false);
    expect(m.jain(1)).toMatchObject({ index: 1, clients: 1, served: 1 });
    // b arrives: the window restarts, nobody served in it yet -> still the convention
    m.onSubmit(1, 1);
    expect(m.jainSoFar(1.5)).toBe(1);
    expect(m.jainServedSoFar(1.5)).toBe(0);
    expect(jainMeaningful({ clients: m.jainClientsSoFar, served: m.jainServedSoFar(1.5) })).toBe(false);
    // a is served, b is not: a real 1/2 (b starved), meaningful with one client served
    m.onClientService(0, 40, 0);
    expect(m.jainSoFar(2)).toBeCloseTo(0.5, 12);
    expect(m.jainServedSoFar(2)).toBe(1);
    expect(jainMeaningful({ clients: 2, served: 1 })).toBe(true);
    m.onClientService(1, 40, 0);
    expect({ clients: m.jainClientsSoFar, served: m.jainServedSoFar(3) }).toEqual({ clients: 2, served: 2 });
    // the headline over the whole run (c never sent anything, so it is not compared)
    expect(m.jain(3)).toMatchObject({ clients: 2, served: 2, whole_run: true });
    expect(jainMeaningful({ clients: 0, served: 0 })).toBe(false);
  });
});

describe('program tracker', () => {
  it('times a program from its first request to its last, across announced follow-ups', () => {
    const p = new ProgramTracker(2);
    p.submit('a#0', 'a#0.0', 0, 1);
    // root completes at 3 and announces two children, to be submitted later (think time)
    p.announce('a#0', 'a#0.1', 0, 3);
    p.announce('a#0', 'a#0.2', 0, 3);
    p.finish('a#0', 3, true);
    expect(p.inFlight).toBe(1);
    p.submit('a#0', 'a#0.1', 0, 4);
    p.submit('a#0', 'a#0.2', 0, 4);
    p.finish('a#0', 6, true);
    expect(p.e2e[0].length).toBe(0);
    p.finish('a#0', 9, true);
    expect(Array.from(p.e2e[0].sorted())).toEqual([8]);
    expect(p.inFlight).toBe(0);
  });

  it('counts a program with a rejected request as failed, not timed', () => {
    const p = new ProgramTracker(1);
    p.submit('b#0', 'b#0.0', 0, 0);
    p.submit('b#0', 'b#0.1', 0, 0);
    p.finish('b#0', 1, false);
    p.finish('b#0', 2, true);
    expect(p.e2e[0].length).toBe(0);
    expect(p.failed[0]).toBe(1);
  });
});

const TOT = `
version: 1
name: tot
seed: 7
duration_s: 20
cluster: { workers: 1, gpu: a100-80gb, model: llama-3.1-8b, kv_cache_tokens: 3000 }
scheduler: { policy: dlpm, quantum: 2000, weights: { input: 1, output: 2 } }
clients:
  - name: a
    arrival: { process: poisson, rate: 3 }
    program: { type: tree-of-thought, depth: 3, branching: 2, question_tokens: 300, thought_tokens: 64, answer_tokens: 64 }
  - name: b
    arrival: { process: poisson, rate: 3 }
    program: { type: single, prompt_tokens: 400, output_tokens: 32 }
`;

describe('paper metrics in a run', () => {
  it('client service = Σ over completed requests of w_e·prompt + w_q·output; programs end after their last request', () => {
    const s = scenario(TOT);
    const sim = new Simulation(s, { record: false });
    const expected = [0, 0];
    let doneTokens = 0;
    const lastDone = new Map<string, number>();
    const firstSubmit = new Map<string, number>();
    sim.onRequestArrived = (r) => {
      if (!firstSubmit.has(r.spec.program)) firstSubmit.set(r.spec.program, r.arrivalT);
    };
    sim.onRequestDone = (r) => {
      if (Number.isNaN(r.completionT)) return;
      expected[r.client] += r.promptLen + 2 * r.outputLen;
      doneTokens += r.promptLen + r.outputLen;
      lastDone.set(r.spec.program, Math.max(lastDone.get(r.spec.program) ?? 0, r.completionT));
    };
    sim.runToEnd();
    const res = sim.result();
    expect(res.preemptions).toBeGreaterThan(0); // KV pressure: regenerated tokens must not count twice
    expect(res.clients.a.client_service).toBe(expected[0]);
    expect(res.clients.b.client_service).toBe(expected[1]);
    // the paper's throughput: prompt + output tokens of completed requests per simulated second
    expect(res.throughput.completed_tokens_per_s).toBeCloseTo(doneTokens / res.sim_time_s, 9);
    // every program finished: the slowest one's e2e is the p100 we can check against the requests
    const e2e = [...lastDone.entries()]
      .filter(([p]) => p.startsWith('a#'))
      .map(([p, t]) => t - (firstSubmit.get(p) ?? 0))
      .sort((x, y) => x - y);
    expect(res.clients.a.programs_completed).toBe(e2e.length);
    expect(res.clients.a.program_e2e_p50_s).toBe(e2e[Math.ceil(0.5 * e2e.length) - 1]);
    // a tree's program takes longer than any of its requests
    expect(res.clients.a.program_e2e_p50_s ?? 0).toBeGreaterThan(res.clients.a.e2e_p50_s ?? 0);
    expect(res.jain_index).toBeGreaterThan(0);
    expect(res.jain_index_extend).toBeGreaterThan(0);
    expect(res.jain_index).not.toBe(res.jain_index_extend);
  });
});
