/**
 * Whole-simulation checks of the local policies: the DLPM paper's headline on one worker (DLPM's
 * throughput beats VTC's while its Jain's index stays well above LPM's), snapshots carrying the
 * per-client state, invariants and determinism for every policy.
 */
import { describe, expect, it } from 'vitest';
import { type RunResult, Simulation } from '../../../src/core/sim';
import { SCHEDULER_NAMES } from '../../../src/core/algorithms';
import { parseScenarioText } from '../../../src/scenario';

function scenario(yaml: string) {
  const r = parseScenarioText(yaml);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`).join('\n'));
  return r.value;
}

/**
 * One A100 whose KV cache holds about two 6,000-token documents; three clients ask short questions
 * over their own document (prefix-heavy); max sends 7.5× as many as kim and lee (overload).
 */
const misbehaving = (policy: string, seed = 3) => `
version: 1
name: prefix-heavy misbehaving client, one worker
seed: ${seed}
duration_s: 30
cluster: { workers: 1, gpu: a100-80gb, model: llama-3.1-8b, kv_cache_tokens: 13000 }
router: { routing: round-robin }
scheduler: { policy: ${policy}, quantum: 2500 }
clients:
  - name: kim
    arrival: { process: gamma, rate: 4, cv: 1.0 }
    program: &qa
      type: long-qa
      documents: 1
      document_tokens: 6000
      questions: 1
      question_tokens: { dist: uniform, min: 16, max: 64 }
      output_tokens: { dist: normal, mean: 30, std: 6 }
  - name: lee
    arrival: { process: gamma, rate: 4, cv: 1.0 }
    program: *qa
  - name: max
    arrival: { process: gamma, rate: 30, cv: 1.0 }
    program: *qa
`;

function run(policy: string, seed = 3): { res: RunResult; sim: Simulation } {
  const sim = new Simulation(scenario(misbehaving(policy, seed)), { record: false });
  sim.runToEnd();
  return { res: sim.result(), sim };
}

describe('DLPM between LPM and VTC (seed 002, one worker)', () => {
  const lpm = run('lpm');
  const vtc = run('vtc');
  const dlpm = run('dlpm');

  it('serves everything', () => {
    for (const r of [lpm, vtc, dlpm]) {
      expect(r.res.requests.completed).toBe(r.res.requests.injected);
      expect(r.sim.checkInvariants()).toEqual([]);
    }
  });

  it('DLPM’s throughput beats VTC’s; its Jain’s index stays well above LPM’s', () => {
    const tput = (r: { res: RunResult }) => r.res.throughput.requests_per_s;
    // measured (seed 3; client-view Jain / Jain over extend tokens): LPM 30.8 req/s, 0.49 / 0.65;
    // DLPM 20.6, 0.73 / 0.96; VTC 16.0, 0.50 / 0.99
    expect(tput(dlpm)).toBeGreaterThan(1.1 * tput(vtc));
    expect(tput(lpm)).toBeGreaterThan(tput(dlpm));
    expect(dlpm.res.jain_index).toBeGreaterThan(lpm.res.jain_index + 0.1);
    // VTC as configured charges extend tokens, so its fairness is over extend service; on the
    // client-view measure (whole input + 2·output) it fell to LPM's level once the step-time model
    // priced the KV-cache write (#11.7): max's cached prefixes are nearly free to VTC's counter
    expect(vtc.res.jain_index_extend).toBeGreaterThanOrEqual(dlpm.res.jain_index_extend);
    expect(dlpm.res.cache_hit_rate).toBeGreaterThan(vtc.res.cache_hit_rate);
  });

  it('DLPM keeps the backlogged service gap within its bound; over seeds, LPM’s worst gap is far larger', () => {
    const bound = (r: { sim: Simulation }) => {
      const w = r.sim.snapshot().workers[0];
      if (w.policy !== 'dlpm' || w.policy_state === undefined)
        throw new Error(`not a DLPM worker: ${w.policy}`);
      return w.policy_state;
    };
    expect(bound(dlpm).quantum).toBe(2500);
    // LPM has no bound, and one run may still come out below DLPM's: measured with SGLang's ties
    // (its list kept sorted between steps), seed 3 gives LPM 11,120 against DLPM's 12,138 (34,506
    // with ties in arrival order); seeds 4 and 6 give LPM 32,961 and 43,051, DLPM 13,818 and 12,539
    let lpmWorst = lpm.res.max_backlogged_service_gap;
    let dlpmWorst = 0;
    for (const r of [dlpm, run('dlpm', 4), run('dlpm', 6)]) {
      expect(r.res.max_backlogged_service_gap).toBeLessThanOrEqual(bound(r).bound);
      dlpmWorst = Math.max(dlpmWorst, r.res.max_backlogged_service_gap);
    }
    for (const seed of [4, 6]) lpmWorst = Math.max(lpmWorst, run('lpm', seed).res.max_backlogged_service_gap);
    expect(lpmWorst).toBeGreaterThan(2 * dlpmWorst);
  });

  it('snapshots carry DLPM deficits and VTC counters per client', () => {
    const d = dlpm.sim.snapshot().clients;
    const v = vtc.sim.snapshot().clients;
    for (const c of ['kim', 'lee', 'max']) {
      expect(typeof d[c].deficit).toBe('number');
      expect(typeof v[c].counter).toBe('number');
      expect(d[c].counter).toBeUndefined();
    }
    expect(v.max.counter).toBeGreaterThan(0);
  });
});

const small = (policy: string, preemption: string) => `
version: 1
name: small mixed workload
seed: 11
duration_s: 6
cluster: { workers: 2, kv_cache_tokens: 3000, block_size: 16, max_batch_tokens: 512, max_running: 16, preemption: ${preemption} }
router: { routing: round-robin }
scheduler: { policy: ${policy}, quantum: 300 }
clients:
  - name: a
    slo_class: critical
    arrival: { process: poisson, rate: 6 }
    program: { type: multi-turn, turns: 3, prompt_tokens: 120, output_tokens: 40, think_time_s: 0.2, shared_prefix_tokens: 200 }
  - name: b
    slo_class: background
    arrival: { process: poisson, rate: 4 }
    program: { type: tree-of-thought, depth: 2, branching: 2, question_tokens: 300, thought_tokens: 30, answer_tokens: 30 }
`;

describe('every local policy in the engine', () => {
  for (const policy of SCHEDULER_NAMES)
    it(`${policy}: invariants hold, records are built, and runs are byte-identical`, () => {
      const once = (record: boolean, preemption: string) => {
        const sim = new Simulation(scenario(small(policy, preemption)), { record });
        let admits = 0;
        sim.onDecision = (d) => {
          if (d.kind === 'admit') admits++;
        };
        for (let i = 0; i < 200_000 && sim.stepEvent(); i++)
          if (i % 97 === 0) expect(sim.checkInvariants()).toEqual([]);
        const res = sim.result();
        expect(res.requests.completed).toBe(res.requests.injected - res.requests.rejected);
        return {
          json: JSON.stringify({ ...res, decisions: 0 }),
          admits,
          waiting: sim.snapshot().workers[0].waiting,
        };
      };
      const a = once(true, 'fcfs');
      const b = once(true, 'fcfs');
      const c = once(false, 'fcfs');
      expect(b.json).toBe(a.json);
      expect(c.json).toBe(a.json); // recording does not change decisions
      expect(a.admits).toBeGreaterThan(0);
      expect(c.admits).toBe(0);
      once(false, 'priority');
    });
});
