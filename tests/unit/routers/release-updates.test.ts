/**
 * When Dynamo's router re-examines its policy-class queue, and what load it reads then.
 *
 * From Dynamo's router (`lib/kv-router`): the scheduler's `mark_prefill_completed` and `free` update
 * the router's own record of each worker's load (`ActiveSequencesMultiWorker`: a request's prefill
 * tokens, its prompt minus the cached tokens on the chosen worker, are booked when the router sends
 * it and dropped when its prefill completes or it is freed) and then send that worker's update to
 * the queue actor (`update_worker`), whose `handle_update` pops while a class head passes the busy
 * test on that record. Nothing else updates the record: a worker's chunked prefill does not lower
 * it chunk by chunk, and a batch step that completes no prefill and frees nothing wakes nothing.
 * (The update rechecks that worker's parked exact-worker lanes only; the pop loop still tests every
 * shared head against every worker. With the record changing only at these updates a parked lane
 * can only become free through its own worker's update, so the narrower recheck changes no pop.)
 *
 * Worked example 1 (every release): one worker, 1024-token steps, class A busy above 1500 active
 * prefill tokens.
 *   t=0      a (2048 tokens) → sent at once; the record books 2048.
 *   t=0.001  b (512) → 2048 > 1500: stored.
 *   t=0.002  c (1024) → A has a backlog: stored.
 *   T1       the first step ends: a's first 1024-token chunk. The worker's live load is 1024 now,
 *            but a's prefill is not complete: no update, the record still says 2048, b waits.
 *   T2       the second step ends: a's prefill completes → the record drops to 0 → the update
 *            pops b (record 512 ≤ 1500) and then c (512 ≤ 1500; record 1536 after it).
 * So b and c both leave at T2. The engine's earlier rule (drain after every step start and end,
 * reading the worker's live load) sent b at T1 (live 1024 ≤ 1500) and c at T2; this test fails
 * for it.
 *
 * Worked example 2 (v1.6, PR #14176): expired due times are swept out of every class at the start
 * of each update and when a timer set to the earliest queued due time fires, a due time equal to
 * now counting as passed. Class A busy at any active prefill token:
 *   t=0      a (2048) → sent; the record books 2048.
 *   t=0.001  d1 (512, due 0.011) → stored.   t=0.002  d2 (512, due 1.002) → stored.
 *   0.011    the timer fires at d1's due time: d1 is refused (HTTP 429), 0 ms overdue.
 *   T2       a's prefill completes: the update pops d2.
 * The earlier rule shed d1 lazily at the first pop after 0.011 that examined class A (T1); this
 * test fails for it.
 */
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../../src/core/sim';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText } from '../../../src/scenario';

function run(release: string, classLine: string, requests: string) {
  const r = parseScenarioText(`version: 1
name: updates
seed: 1
duration_s: 2
cluster: { workers: 1, kv_cache_tokens: 60000, max_batch_tokens: 1024, max_running: 16 }
router:
  routing: least-loaded
  dynamo_release: ${release}
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
    policy_classes:
      - ${classLine}
scheduler: { policy: fcfs }
requests:
${requests}`);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col} ${p.message}`).join('\n'));
  const sim = new Simulation(r.value, { record: true });
  const decisions: DecisionRecord[] = [];
  sim.onDecision = (d) => decisions.push(d);
  sim.runUntil(2);
  expect(sim.checkInvariants()).toEqual([]);
  const of = (kind: string) => decisions.filter((d) => d.kind === kind);
  const steps = decisions.flatMap((d) => (d.kind === 'step' ? [{ t: d.t, ...d.detail }] : []));
  return {
    dispatches: of('dispatch').map((d) => [d.request, d.t]),
    pops: of('drr-pop').map((d) => [d.request, d.t]),
    rejects: of('reject').map((d) => [d.request, d.t, d.detail]),
    /** end of the k-th step (0-based) of the one worker */
    stepEnd: (k: number) => steps[k].t + (steps[k].step_ms as number) / 1000,
    steps,
  };
}

const example1 = `  - { t: 0.000, client: c, id: a, prompt_tokens: 2048, output_tokens: 2 }
  - { t: 0.001, client: c, id: b, prompt_tokens: 512, output_tokens: 2 }
  - { t: 0.002, client: c, id: c, prompt_tokens: 1024, output_tokens: 2 }
`;
const classA1500 =
  '{name: A, policy_family: std, cache_bucket: any, quantum: 1000, prefill_busy_threshold: 1500}';

describe("the queue drains at the router's own updates (prefill completed, request freed)", () => {
  for (const release of ['v1.3', 'v1.4', 'v1.5', 'v1.6'])
    it(`${release}: b and c wait through a's first chunk and leave together when a's prefill completes`, () => {
      const v = run(release, classA1500, example1);
      // the first step runs a's first 1024-token chunk, the second its last
      expect(v.steps[0].prefill_tokens).toBe(1024);
      expect(v.steps[1].prefill_tokens).toBe(1024);
      const T2 = v.stepEnd(1);
      expect(v.stepEnd(0)).toBeLessThan(T2);
      expect(v.dispatches).toEqual([
        ['a', 0],
        ['b', T2],
        ['c', T2],
      ]);
      // the pops: v1.6 pops a at its arrival (every arrival goes through the queue); all pop b, c at T2
      const popsAtT2 = [
        ['b', T2],
        ['c', T2],
      ];
      expect(v.pops).toEqual(release === 'v1.6' ? [['a', 0], ...popsAtT2] : popsAtT2);
    });
});

describe('v1.6 sweeps expired due times on a timer and at each update', () => {
  const requests = `  - { t: 0.000, client: c, id: a, prompt_tokens: 2048, output_tokens: 2 }
  - { t: 0.001, client: c, id: d1, prompt_tokens: 512, output_tokens: 2, due_in_s: 0.01 }
  - { t: 0.002, client: c, id: d2, prompt_tokens: 512, output_tokens: 2, due_in_s: 1 }
`;
  const classA0 =
    '{name: A, policy_family: std, cache_bucket: any, quantum: 1000, prefill_busy_threshold: 0}';

  it('d1 is refused at its due time (the timer), d2 leaves when a prefill completes', () => {
    const v = run('v1.6', classA0, requests);
    const T2 = v.stepEnd(1);
    expect(v.stepEnd(0)).toBeGreaterThan(0.011);
    expect(v.rejects).toHaveLength(1);
    const [id, t, detail] = v.rejects[0];
    expect(id).toBe('d1');
    expect(t).toBeCloseTo(0.011, 12);
    expect(detail).toMatchObject({ reason: 'due_time_passed', overdue_ms: 0 });
    expect(v.pops).toEqual([
      ['a', 0],
      ['d2', T2],
    ]);
    expect(v.dispatches).toEqual([
      ['a', 0],
      ['d2', T2],
    ]);
  });
});
