/**
 * Class service (#14.3/#14.6): the per-class figures of the run JSON equal the sums over the
 * per-request rows (served uncached tokens = prompt − router cached_tokens of every dispatched
 * request; dispatched, rejected and the p99 queue wait likewise), and under saturation DRR's shares
 * follow the quanta.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type RequestRecord, requestRecord } from '../../../src/core/export';
import type { DecisionRecord } from '../../../src/core/sim/decision';
import { ClassServiceCollector } from '../../../src/core/metrics/class-service';
import { nearestRank } from '../../../src/core/metrics/percentile';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText } from '../../../src/scenario';

function load(text: string, files: Record<string, string> = {}) {
  const res = parseScenarioText(text, {
    readFile: (p) => files[p] ?? readFileSync(`scenarios/${p}`, 'utf8'),
  });
  if (!res.ok) throw new Error(JSON.stringify(res.problems));
  return res.value;
}

function runWithRows(
  text: string,
  files: Record<string, string> = {},
  onDecision?: (d: DecisionRecord) => void,
) {
  const sim = new Simulation(load(text, files), { record: onDecision !== undefined });
  const rows: RequestRecord[] = [];
  sim.onRequestDone = (r) => rows.push(requestRecord(r, sim.clients));
  if (onDecision) sim.onDecision = onDecision;
  sim.runToEnd();
  return { res: sim.result(), rows };
}

function expectSumsMatch(
  text: string,
  files: Record<string, string> = {},
  onDecision?: (d: DecisionRecord) => void,
) {
  const { res, rows } = runWithRows(text, files, onDecision);
  const classes = res.classes;
  expect(classes).toBeDefined();
  if (!classes) return res;
  let total = 0;
  for (const [name, c] of Object.entries(classes)) {
    const mine = rows.filter((r) => r.policy_class === name);
    const sent = mine.filter((r) => r.dispatch_s !== null && r.dispatch_s !== undefined);
    const served = sent.reduce(
      (s, r) => s + (r.prompt_tokens ?? 0) - Math.min(r.router_cached_tokens ?? 0, r.prompt_tokens ?? 0),
      0,
    );
    expect(c.served_uncached_tokens, name).toBe(served);
    expect(c.dispatched, name).toBe(sent.length);
    // a class's rejected rows are its queue-limit rejections (529) and its due-time sheds (429)
    expect(c.rejected + c.shed, name).toBe(mine.filter((r) => r.state === 'rejected').length);
    const waits = Float64Array.from(sent, (r) => (r.dispatch_s as number) - r.arrival_s).sort();
    expect(c.p99_queue_wait_s, name).toBe(nearestRank(waits, 99));
    total += c.share;
  }
  expect(total).toBeCloseTo(1, 12);
  return res;
}

describe('class service = sums of the per-request rows', () => {
  it('on the shipped synthetic trace behind the sample policy; the contended charge = the sums over the recorded DRR pops', () => {
    // the reference for DRR's charge: queue lengths and costs from the decision records alone
    const queued = new Map<string, number>();
    const contended = new Map<string, number>();
    const charged = new Map<string, number>();
    const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
    const onDecision = (d: DecisionRecord) => {
      const cls = d.class;
      if (cls === undefined) return;
      // (this run rejects and sheds nothing: an enqueue adds one, a pop takes one)
      if (d.kind === 'enqueue') add(queued, cls, 1);
      if (d.kind === 'drr-pop') {
        add(charged, cls, d.detail.cost);
        if ([...queued].some(([k, n]) => k !== cls && n > 0)) add(contended, cls, d.detail.cost);
        add(queued, cls, -1);
      }
    };
    const res = expectSumsMatch(readFileSync('scenarios/trace-synthetic-chat.yaml', 'utf8'), {}, onDecision);
    const c = res.classes ?? {};
    expect(c.cached.dispatched + c.uncached.dispatched).toBe(res.requests.completed);
    expect(c.cached.quantum_share).toBeCloseTo(0.8, 12);
    expect(c.uncached.quantum_share).toBeCloseTo(0.2, 12);
    expect(c.latency_cached.quantum_share).toBeNull();
    for (const name of ['cached', 'uncached']) {
      expect(c[name].charged_cost, name).toBe(charged.get(name));
      expect(c[name].contended_cost, name).toBe(contended.get(name));
      // DRR's charge is the served uncached tokens (no prompt here is fully cached)
      expect(c[name].charged_cost, name).toBe(c[name].served_uncached_tokens);
    }
    // measured on this run: cached gets 75.7 % of the charge while both queue, against the quanta's
    // 80 %; over the whole run 55.8 % (uncached's backlog drains alone at the end)
    expect(c.cached.contended_share).toBeCloseTo(0.7572, 4);
    expect(c.cached.contended_quantum_share).toBeCloseTo(0.8, 12);
    expect(c.cached.share).toBeCloseTo(0.558, 3);
  });

  it('with queue limits that reject (HTTP 529)', () => {
    const text = readFileSync('scenarios/trace-synthetic-chat.yaml', 'utf8').replace(
      /request_queue_limit_per_worker: 512/,
      'request_queue_limit_per_worker: 4',
    );
    const res = expectSumsMatch(text);
    expect(res.classes?.uncached.rejected).toBeGreaterThan(0);
    expect(res.rejections.request_queue_limit).toBe(res.classes?.uncached.rejected);
  });
});

describe('requests shed for a passed due time (HTTP 429)', () => {
  // worker 0 prefills p0's 4,000 tokens; d0 and d1, pinned to it, wait in the class's lane; d0's
  // due time (10 ms after arrival) passes while it waits, d1's (100 s) does not
  const text = `version: 1
name: due sheds
seed: 1
duration_s: 2
cluster: { workers: 2, kv_cache_tokens: 60000, max_batch_tokens: 1024, max_running: 16 }
router:
  routing: least-loaded
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
    policy_classes:
      - {name: main, policy_family: std, cache_bucket: any, quantum: 100, prefill_busy_threshold: 0}
requests:
  - { t: 0.000, client: c, id: p0, prompt_tokens: 4000, output_tokens: 4, worker: 0 }
  - { t: 0.003, client: c, id: d0, prompt_tokens: 500, output_tokens: 4, worker: 0, due_in_s: 0.01 }
  - { t: 0.004, client: c, id: d1, prompt_tokens: 500, output_tokens: 4, worker: 0, due_in_s: 100 }
`;
  it('are counted per class as shed, apart from the queue-limit rejections, and match the rows', () => {
    const res = expectSumsMatch(text);
    const main = res.classes?.main;
    expect(main?.shed).toBe(1);
    expect(main?.rejected).toBe(0);
    expect(main?.queued).toBe(0);
    expect(res.rejections.due_time_passed).toBe(1);
    expect(main?.dispatched).toBe(2);
  });

  it('have a series over time: 0 until the pop that shed d0, then 1', () => {
    const sim = new Simulation(load(text), { record: false });
    let shedAt = -1;
    sim.onRequestDone = (r) => {
      if (r.id === 'd0') shedAt = sim.now;
    };
    sim.runToEnd();
    const cs = sim.snapshot().class_service;
    if (cs === undefined) throw new Error('no class service');
    const i = cs.classes.findIndex((c) => c.name === 'main');
    const shed = cs.series.shed[i];
    expect(shed.length).toBe(cs.series.t.length);
    expect(shed[0]).toBe(0);
    expect(shed[shed.length - 1]).toBe(1);
    expect(shedAt).toBeGreaterThan(0.013);
    // every sample before the shed reads 0, every sample from it on reads 1
    cs.series.t.forEach((t, k) => {
      expect(shed[k], `t=${t}`).toBe(t < shedAt ? 0 : 1);
    });
    // the 529 rejections' series stays 0
    expect(cs.series.rejected[i].every((v) => v === 0)).toBe(true);
  });
});

describe('under saturation the shares follow the quanta', () => {
  // 300 requests of each class at t = 0, 1,000 fresh tokens each; the pool is busy as soon as one
  // prefill runs, so everything waits in the class queues and DRR alone decides the order
  const rows: string[] = [];
  for (let i = 0; i < 300; i++) for (const cls of ['a', 'b']) rows.push(`0,1000,1,${cls}`);
  const csv = `t,in,out,cls\n${rows.join('\n')}`;
  const scenario = (qa: number, qb: number) => `
version: 1
name: two saturated classes
duration_s: 10
cluster: { workers: 1, max_batch_tokens: 2048 }
router:
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{ min_tokens: 0, bucket: all }]
    policy_classes:
      - { name: std_all, policy_family: std, cache_bucket: all, quantum: 1 }
      - { name: a, quantum: ${qa}, prefill_busy_threshold: 0 }
      - { name: b, quantum: ${qb}, prefill_busy_threshold: 0 }
trace: { file: t.csv, format: csv, columns: { timestamp: t, input: in, output: out, class: cls } }
`;
  // Quanta below the cost: the router calls pop while the pool is busy (every head blocked), which
  // drops DRR's carry; with quanta at or above one request's cost the split then degrades towards
  // 1 : 1 (see the README's class service notes), so this test keeps quanta under the cost.
  it('3 : 1 quanta give a 3 : 1 split while both stay backlogged', () => {
    for (const [qa, qb] of [
      [300, 100],
      [100, 100],
    ]) {
      const sim = new Simulation(load(scenario(qa, qb), { 't.csv': csv }), { record: false });
      // a has 300 requests; stop while both still queue (a would empty first at 3 : 1 after ~400 pops)
      while (sim.router.classService !== null && sim.router.classService.dispatched[1] < 200) sim.stepEvent();
      const c = sim.result().classes ?? {};
      expect(c.a.quantum_share).toBeCloseTo(qa / (qa + qb), 12);
      // within one request's cost of the DRR ideal
      const served = c.a.served_uncached_tokens + c.b.served_uncached_tokens;
      expect(Math.abs(c.a.share - qa / (qa + qb))).toBeLessThanOrEqual(1000 / served + 1e-12);
    }
  });
});

describe("DRR's charge while the classes contend (what the quanta divide)", () => {
  it('collector: only pops made while another class is queued count, split by the quanta of the queued', () => {
    const c = new ClassServiceCollector(
      [
        { name: 'a', quantum: 3 },
        { name: 'b', quantum: 1 },
        { name: 'c', quantum: 4 },
      ],
      { capacity: 16, initialDt: 1 },
    );
    const pop = (name: string, t: number, cost: number) => {
      c.onPopped(name, t);
      c.onCharged(name, cost);
    };
    c.onQueued('a', 0);
    pop('a', 0, 100); // alone: charged, not contended
    c.onQueued('a', 1);
    c.onQueued('b', 1);
    pop('a', 1, 40); // b queued: a and b contend, 40 split 3 : 1
    pop('b', 2, 8); // a empty: alone again
    c.onQueued('a', 3);
    c.onQueued('b', 3);
    c.onQueued('c', 3);
    pop('b', 3, 16); // a, b and c queued: 16 split 3 : 1 : 4
    const rows = c.rows(4);
    expect([rows.a.charged_cost, rows.b.charged_cost, rows.c.charged_cost]).toEqual([140, 24, 0]);
    expect([rows.a.contended_cost, rows.b.contended_cost, rows.c.contended_cost]).toEqual([40, 16, 0]);
    expect(rows.a.contended_share).toBeCloseTo(40 / 56, 12);
    expect(rows.c.contended_share).toBe(0);
    // predicted: a 30 + 6, b 10 + 2, c 8 (of 56)
    expect(rows.a.contended_quantum_share).toBeCloseTo(36 / 56, 12);
    expect(rows.b.contended_quantum_share).toBeCloseTo(12 / 56, 12);
    expect(rows.c.contended_quantum_share).toBeCloseTo(8 / 56, 12);
  });
});
