/**
 * When the router drains its policy-class queue after an arrival, per Dynamo release.
 *
 * From Dynamo's router before PR #14176 (`SchedulerQueueActor` in `lib/kv-router`'s scheduling
 * queue): an `Enqueue` command runs `handle_enqueue`, which either hands the request to worker
 * selection (`should_queue` false) or stores it and returns; the pop loop (`handle_update`) runs only
 * on an `Update` command, which the scheduler sends when a request's prefill completes or a request
 * is freed on a worker (`mark_prefill_completed`, `free` → `update_worker`), or on a reconcile; an
 * enqueue triggers it only when a queue-admission policy made a deferred request ready (not modelled
 * here). So up to v1.5 a stored arrival waits for the next update even when it could leave at once.
 * v1.6 (#14176) drains in the same turn as every enqueue.
 *
 * The worked example: two workers, one class A that is busy while a worker has any active prefill
 * token (prefill_busy_threshold 0); 512-token prompts, 1024-token steps, so a prefill takes one step.
 *   t=0      p1, pinned to worker 1: worker 1 is idle → worker 1 (v1.6: stored and popped at once).
 *   t=0.001  p2, pinned to worker 1: worker 1 is busy → stored in A (worker 1's lane from v1.4).
 *   t=0.002  u3, unpinned: A has a backlog → stored (every release). Worker 0 is idle, so u3 could
 *            leave: from v1.4 a blocked lane head does not block the shared heap; under v1.3 the
 *            variant below gives u3 strict priority 1, so it heads A's single heap.
 *            v1.6 drains now: u3 leaves at 0.002. v1.3 – v1.5 do not: u3 stays.
 *   T        worker 1's first step ends (p1's prefill done, T ≈ 0.0439 s): the update drains A.
 *            v1.4/v1.5: p2 (earlier arrival, its lane now dispatchable) then u3 — both at T.
 *            v1.3 (u3 strict priority 1): u3 then p2 — both at T.
 * The engine's earlier rule (a drain after every arrival, in every release) dispatched u3 at 0.002
 * under v1.3 – v1.5 too; these tests fail for it.
 */
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../../src/core/sim';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText } from '../../../src/scenario';

/** The end of worker 1's first step (p1's 512-token prefill), the first update after t=0. */
const T = 0.04393688548444448;

function run(release: string, u3Extra = '') {
  const r = parseScenarioText(`version: 1
name: drain after arrival
seed: 1
duration_s: 2
cluster: { workers: 2, kv_cache_tokens: 60000, max_batch_tokens: 1024, max_running: 16 }
router:
  routing: least-loaded
  dynamo_release: ${release}
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
    policy_classes:
      - {name: A, policy_family: std, cache_bucket: any, quantum: 1000, prefill_busy_threshold: 0}
scheduler: { policy: fcfs }
requests:
  - { t: 0.000, client: c, id: p1, prompt_tokens: 512, output_tokens: 2, worker: 1 }
  - { t: 0.001, client: c, id: p2, prompt_tokens: 512, output_tokens: 2, worker: 1 }
  - { t: 0.002, client: c, id: u3, prompt_tokens: 512, output_tokens: 2${u3Extra} }
`);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col} ${p.message}`).join('\n'));
  const sim = new Simulation(r.value, { record: true });
  const decisions: DecisionRecord[] = [];
  sim.onDecision = (d) => decisions.push(d);
  sim.runUntil(2);
  expect(sim.checkInvariants()).toEqual([]);
  const of = (kind: string) => decisions.filter((d) => d.kind === kind);
  return {
    dispatches: of('dispatch').map((d) => [d.request, d.t]),
    enqueued: of('enqueue').map((d) => [d.request, d.t]),
    steps: decisions.flatMap((d) => (d.kind === 'step' ? [{ t: d.t, worker: d.worker, ...d.detail }] : [])),
  };
}

describe('the drain after an arrival, per release', () => {
  it('v1.6 drains in the same turn: u3 leaves at its arrival, p2 at the update', () => {
    const v16 = run('v1.6');
    expect(v16.enqueued).toEqual([
      ['p1', 0],
      ['p2', 0.001],
      ['u3', 0.002],
    ]);
    expect(v16.dispatches).toEqual([
      ['p1', 0],
      ['u3', 0.002],
      ['p2', T],
    ]);
  });

  for (const release of ['v1.4', 'v1.5'])
    it(`${release} stores u3 and does not drain: p2 then u3 leave at the next update`, () => {
      const v = run(release);
      expect(v.enqueued).toEqual([
        ['p2', 0.001],
        ['u3', 0.002],
      ]);
      expect(v.dispatches).toEqual([
        ['p1', 0],
        ['p2', T],
        ['u3', T],
      ]);
    });

  it('v1.3 (single heap; u3 with strict priority 1 heads it): u3 then p2 at the next update', () => {
    expect(run('v1.3', ', strict_priority: 1').dispatches).toEqual([
      ['p1', 0],
      ['u3', T],
      ['p2', T],
    ]);
    // without the priority u3 queues behind the blocked pinned head p2, as before
    expect(run('v1.3').dispatches).toEqual([
      ['p1', 0],
      ['p2', T],
      ['u3', T],
    ]);
  });

  it("T is the end of worker 1's first step, p1's 512-token prefill, which starts at 0", () => {
    const first = run('v1.5').steps.find((d) => d.worker === 1);
    expect(first?.t).toBe(0);
    expect(first?.prefill_tokens).toBe(512);
    expect(first?.step_ms ?? 0).toBeCloseTo(T * 1000, 9);
  });
});
