/**
 * Dynamo v1.6.0's "every arrival through the queue" (PR #14176) against v1.5 in cluster runs.
 *
 * From the router code after #14176 (`SchedulerQueueActor::handle_enqueue` then `handle_enqueued` →
 * `drain_ready`): an arrival is stored in its class's queue and the actor drains the ready backlog in
 * the same turn, popping through DRR until `pop_next` returns nothing. Up to v1.5
 * (`should_queue`: the class has a threshold and a backlog or a busy pool) an uncontended arrival
 * went straight to worker selection, with no DRR turn. The dispatch of the arrival itself is the same
 * instant; what changes is the DRR state it leaves behind: the pop moves the round cursor past the
 * arrival's class, so when two blocked classes become dispatchable together, a different one goes
 * first. Carve-outs that keep the direct path in v1.6: a class with any per-worker queue limit of 0,
 * and no discovered workers (never the case here).
 *
 * The worked example (one worker; classes in ring order x, A, B, C; quantum 1000 each; A, C and x are
 * busy while the worker has any active prefill token, B has no threshold):
 *   t=0     a0 (A, 2000 tokens): the worker is idle. v1.5: straight to the worker. v1.6: stored, and
 *           the drain pops it: A gets 1000 (< 2000), one bulk round to 2000, take; cursor → B.
 *   t=0.001 a1 (A, 500) and t=0.002 c1 (C, 500): the worker has active prefill → both queue (both
 *           releases); v1.6's drains after them find every head blocked (no credit, cursor stays).
 *   t=0.003 b1 (B, 500): B never counts the worker busy. v1.5: straight to the worker, the cursor
 *           stays on x. v1.6: stored and popped at once from cursor B: 0 + 1000 ≥ 500, take; cursor → C.
 *   When the worker's prefill is done, one drain pops one head (the dispatch makes the worker busy
 *   again): v1.5 scans from x → A: a1; v1.6 scans from C → c1. So the dispatch order is
 *   v1.5: a0 b1 a1 c1 — v1.6: a0 b1 c1 a1.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../../src/core/sim';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText, type Scenario } from '../../../src/scenario';

const POLICY = `  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
    policy_classes:
      - {name: x, policy_family: std, cache_bucket: any, quantum: 1000, prefill_busy_threshold: 0}
      - {name: A, quantum: 1000, prefill_busy_threshold: 0}
      - {name: B, quantum: 1000}
      - {name: C, quantum: 1000, prefill_busy_threshold: 0}
      - {name: Z, quantum: 1000, request_queue_limit_per_worker: 0}
`;

const REQUESTS = `  - { t: 0.000, client: c, id: a0, prompt_tokens: 2000, output_tokens: 2, policy_class: A }
  - { t: 0.001, client: c, id: a1, prompt_tokens: 500, output_tokens: 2, policy_class: A }
  - { t: 0.002, client: c, id: c1, prompt_tokens: 500, output_tokens: 2, policy_class: C }
  - { t: 0.003, client: c, id: b1, prompt_tokens: 500, output_tokens: 2, policy_class: B }`;

function scenario(release: string | null, requests = REQUESTS): Scenario {
  const r = parseScenarioText(`version: 1
name: arrivals
seed: 1
duration_s: 2
cluster: { workers: 1, kv_cache_tokens: 60000, max_batch_tokens: 1024, max_running: 16 }
router:
  routing: least-loaded${release !== null ? `\n  dynamo_release: ${release}` : ''}
${POLICY}scheduler: { policy: fcfs }
requests:
${requests}
`);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col} ${p.message}`).join('\n'));
  return r.value;
}

function run(release: string | null, requests = REQUESTS) {
  const sim = new Simulation(scenario(release, requests), { record: true });
  const decisions: DecisionRecord[] = [];
  sim.onDecision = (d) => decisions.push(d);
  sim.runUntil(2);
  expect(sim.checkInvariants()).toEqual([]);
  const of = (kind: string) => decisions.filter((d) => d.kind === kind);
  return {
    sim,
    decisions,
    order: of('dispatch').map((d) => d.request),
    pops: of('drr-pop').map((d) => d.request),
    enqueued: of('enqueue').map((d) => d.request),
    at: (id: string) => of('dispatch').find((d) => d.request === id)?.t ?? -1,
  };
}

describe('v1.6: every arrival goes through the queue (PR #14176)', () => {
  const v15 = run('v1.5');
  const v16 = run('v1.6');

  it('v1.5 and v1.6 dispatch the worked example in different orders', () => {
    expect(v15.order).toEqual(['a0', 'b1', 'a1', 'c1']);
    expect(v16.order).toEqual(['a0', 'b1', 'c1', 'a1']);
  });

  it('v1.5: uncontended arrivals bypass the queue, no DRR turn; v1.6: every arrival is stored and popped', () => {
    expect(v15.enqueued).toEqual(['a1', 'c1']);
    expect(v15.pops).toEqual(['a1', 'c1']);
    expect(v16.enqueued).toEqual(['a0', 'a1', 'c1', 'b1']);
    expect(v16.pops).toEqual(['a0', 'b1', 'c1', 'a1']);
    const b1 = v16.decisions.find((d) => d.kind === 'enqueue' && d.request === 'b1');
    expect(b1?.summary).toContain('Dynamo v1.6 stores every arrival');
    expect(b1?.detail).toMatchObject({ every_arrival_queued: true, backlog: false, pool_busy: false });
  });

  it("v1.6: b1's pop leaves the round cursor on C, where v1.5 never moved it off x", () => {
    const pop = v16.decisions.find((d) => d.kind === 'drr-pop' && d.request === 'b1');
    expect(pop?.t).toBe(0.003);
    expect(pop?.detail).toMatchObject({ cursor: 'C' });
    const first = v15.decisions.find((d) => d.kind === 'drr-pop');
    expect(first?.request).toBe('a1');
  });

  it('an uncontended arrival still leaves at its arrival time in v1.6', () => {
    for (const id of ['a0', 'b1']) expect(v16.at(id)).toBe(v15.at(id));
  });

  it('v1.3 and v1.4 behave as v1.5 here (no pins, so lanes change nothing)', () => {
    expect(run('v1.4').order).toEqual(v15.order);
    expect(run('v1.3').order).toEqual(v15.order);
  });

  it('the default release for a policy every release accepts is the newest, v1.6', () => {
    expect(run(null).order).toEqual(v16.order);
    expect(run(null).sim.result().config.dynamo_release).toBe('v1.6');
  });

  it('carve-out: a class with a per-worker queue limit of 0 keeps the direct path in v1.6', () => {
    const z = `  - { t: 0.000, client: c, id: z0, prompt_tokens: 500, output_tokens: 2, policy_class: Z }`;
    const r = run('v1.6', z);
    expect(r.order).toEqual(['z0']);
    expect(r.enqueued).toEqual([]);
    expect(r.pops).toEqual([]);
  });

  it('v1.6 refuses an arrival whose due time is not after its arrival, before storing it', () => {
    const d = `  - { t: 0.000, client: c, id: d0, prompt_tokens: 500, output_tokens: 2, policy_class: B, due_in_s: 0 }
  - { t: 0.001, client: c, id: d1, prompt_tokens: 500, output_tokens: 2, policy_class: B, due_in_s: 1 }`;
    const r = run('v1.6', d);
    expect(r.order).toEqual(['d1']);
    const refused = r.decisions.find((x) => x.kind === 'reject' && x.request === 'd0');
    expect(refused?.detail).toMatchObject({ reason: 'due_time_passed', due_s: 0 });
    expect(r.enqueued).toEqual(['d1']);
    expect(r.sim.result().classes?.B).toMatchObject({ shed: 1, dispatched: 1 });
  });
});

describe('v1.6 against v1.5 on random small workloads (fast-check)', () => {
  /** One worker or two, classes P (threshold 0), Q (threshold 600) and R (none), a few requests. */
  const workload = fc.record({
    workers: fc.integer({ min: 1, max: 2 }),
    reqs: fc.array(
      fc.record({
        gapMs: fc.integer({ min: 0, max: 40 }),
        cls: fc.constantFrom('P', 'Q', 'R'),
        tokens: fc.integer({ min: 50, max: 1500 }),
      }),
      { minLength: 2, maxLength: 10 },
    ),
  });
  const build = (
    w: { workers: number; reqs: { gapMs: number; cls: string; tokens: number }[] },
    release: string,
    thresholds: boolean,
  ) => {
    let t = 0;
    const reqs = w.reqs
      .map((r, i) => {
        t += r.gapMs;
        return `  - { t: ${(t / 1000).toFixed(3)}, client: c, id: q${i}, prompt_tokens: ${r.tokens}, output_tokens: 2, policy_class: ${r.cls} }`;
      })
      .join('\n');
    const th = (v: string) => (thresholds ? `, prefill_busy_threshold: ${v}` : '');
    const parsed = parseScenarioText(`version: 1
name: random arrivals
seed: 3
duration_s: 3
cluster: { workers: ${w.workers}, kv_cache_tokens: 60000, max_batch_tokens: 512, max_running: 16 }
router:
  routing: least-loaded
  dynamo_release: ${release}
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
    policy_classes:
      - {name: P, policy_family: std, cache_bucket: any, quantum: 300${th('0')}}
      - {name: Q, quantum: 500${th('600')}}
      - {name: R, quantum: 700}
scheduler: { policy: fcfs }
requests:
${reqs}
`);
    if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join('\n'));
    const sim = new Simulation(parsed.value, { record: true });
    const log: DecisionRecord[] = [];
    sim.onDecision = (d) => log.push(d);
    sim.runUntil(3);
    expect(sim.checkInvariants()).toEqual([]);
    return log;
  };

  it('v1.6 stores every arrival, and one that need not wait leaves through a DRR pop at its arrival time', () => {
    fc.assert(
      fc.property(workload, (w) => {
        const log = build(w, 'v1.6', true);
        const arrivals = log.filter((d) => d.kind === 'arrive');
        for (const a of arrivals) {
          const enq = log.find((d) => d.kind === 'enqueue' && d.request === a.request);
          expect(enq?.t).toBe(a.t);
          if (enq?.kind !== 'enqueue') throw new Error('no enqueue');
          if (!enq.detail.backlog && !enq.detail.pool_busy) {
            const pop = log.find((d) => d.kind === 'drr-pop' && d.request === a.request);
            expect(pop?.t).toBe(a.t);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('without busy thresholds v1.6 dispatches exactly as v1.5 (each arrival is popped at once)', () => {
    fc.assert(
      fc.property(workload, (w) => {
        const sent = (release: string) =>
          build(w, release, false)
            .filter((d) => d.kind === 'dispatch')
            .map((d) => `${d.request}@${d.t}->${d.worker}`);
        expect(sent('v1.6')).toEqual(sent('v1.5'));
      }),
      { numRuns: 30 },
    );
  });
});
