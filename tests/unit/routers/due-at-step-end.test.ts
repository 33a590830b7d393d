/**
 * A due time falling exactly on a worker's step end (v1.6): the instant where the request's timer
 * fires is also the instant where a worker update would let it leave.
 *
 * Dynamo (router code after PR #14176, as read for `sweepsDueTimes`): the queue actor's every update
 * (`handle_update`, whether a worker's update or the due-time timer's, which names no worker) first
 * sweeps out every queued request whose due time is at or before its clock reading
 * (`reject_expired` → `take_expired`), and only then pops. Its clock reading at either message is at
 * or after the due time, so the request is refused whichever message the actor takes first, and a
 * request is never sent at or after its due time. (Equal instants are a simulation's matter: Dynamo's
 * two messages race; only the flat/SLO line's lazy shedding inside a pop counts a deadline equal to
 * now as live, which the arbitration sandbox keeps.)
 *
 * The model: the engine takes events at one instant in the order they were scheduled, so either the
 * timer (set when the request was stored) or the step end (set when the step started) runs first.
 * Both start with the same sweep, so the order cannot change the outcome; this file pins it for both
 * orders.
 *
 * Worked example (v1.6, one worker, class A busy at any booked prefill token):
 *   t=0      a (2048 tokens) → popped and sent; the record books 2048.
 *   tD       d (512 tokens) → stored (busy), due exactly at T2.
 *   T2       a's prefill completes at the end of the second 1024-token step: the update would pop d,
 *            and d's timer fires. d is refused (HTTP 429, 0 ms overdue), never sent.
 * Order 1: d arrives at 0, before the second step starts at T1: its timer is older than the step end
 * and runs first. Order 2: d arrives between T1 and T2: the step end runs first and its update's
 * sweep refuses d before its pop. Broken variants: a due time equal to now counted as live, or pops
 * before the sweep — the first sends d at T2 in both orders, the second when the step end runs first.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dueSweepFaults } from '../../../src/core/drr';
import type { DecisionRecord } from '../../../src/core/sim';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText } from '../../../src/scenario';

const CLASS = '{name: A, policy_family: std, cache_bucket: any, quantum: 1000, prefill_busy_threshold: 0}';

function run(requests: string) {
  const r = parseScenarioText(`version: 1
name: due at a step end
seed: 1
duration_s: 2
cluster: { workers: 1, kv_cache_tokens: 60000, max_batch_tokens: 1024, max_running: 16 }
router:
  routing: least-loaded
  dynamo_release: v1.6
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
    policy_classes:
      - ${CLASS}
scheduler: { policy: fcfs }
requests:
${requests}`);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col} ${p.message}`).join('\n'));
  const sim = new Simulation(r.value, { record: true });
  const decisions: DecisionRecord[] = [];
  sim.onDecision = (d) => decisions.push(d);
  sim.runUntil(2);
  expect(sim.checkInvariants()).toEqual([]);
  const steps = decisions.filter((d) => d.kind === 'step').map((d) => d.t);
  const sent = (id: string) => decisions.find((d) => d.kind === 'dispatch' && d.request === id)?.t;
  const rejected = decisions.find((d) => d.kind === 'reject' && d.request === 'd');
  return { sent, rejected, steps, decisions };
}

const A = '  - { t: 0, client: c, id: a, prompt_tokens: 2048, output_tokens: 2 }\n';
const d = (t: string, due: string) =>
  `  - { t: ${t}, client: c, id: d, prompt_tokens: 512, output_tokens: 2, due_in_s: ${due} }\n`;

/** T1 (start of a's second step) and T2 (a's prefill completes: the pop of a request due far later). */
function instants() {
  const probe = run(A + d('0', '1'));
  const T2 = probe.sent('d') as number;
  const T1 = probe.steps[1];
  expect(T1).toBeGreaterThan(0);
  expect(T2).toBeGreaterThan(T1);
  return { T1, T2 };
}

/** Order 1: d stored at 0 with due time T2 (0 + T2 is T2 exactly). */
function order1(T2: number) {
  return run(A + d('0', String(T2)));
}

/** Order 2: d stored at tD in (T1, T2), tD ≥ T2/2 so T2 − tD is exact and tD + (T2 − tD) is T2. */
function order2(T1: number, T2: number) {
  const tD = (T1 + T2) / 2;
  expect(tD).toBeGreaterThanOrEqual(T2 / 2);
  expect(tD + (T2 - tD)).toBe(T2);
  return run(A + d(String(tD), String(T2 - tD)));
}

function refusedAtT2(v: ReturnType<typeof run>, T2: number) {
  expect(v.sent('d')).toBeUndefined();
  expect(v.rejected?.t).toBe(T2);
  expect(v.rejected?.detail).toMatchObject({ reason: 'due_time_passed', due_s: T2, overdue_ms: 0 });
}

afterEach(() => {
  dueSweepFaults.strict = false;
  dueSweepFaults.popFirst = false;
});

describe('v1.6: a due time exactly at a step end whose update would release the request', () => {
  it('order 1 (the timer runs first): d is refused at T2, never sent', () => {
    const { T2 } = instants();
    const v = order1(T2);
    refusedAtT2(v, T2);
    // the refusal comes before anything the step end at T2 records
    const rej = v.decisions.findIndex((x) => x.kind === 'reject');
    const after = v.decisions.findIndex((x) => x.t === T2 && x.kind !== 'reject');
    expect(after === -1 || rej < after).toBe(true);
  });

  it('order 2 (the step end runs first): its update sweeps d out before it pops', () => {
    const { T1, T2 } = instants();
    refusedAtT2(order2(T1, T2), T2);
  });

  it('the same decisions in both orders, up to d’s arrival', () => {
    const { T1, T2 } = instants();
    const pick = (v: ReturnType<typeof run>) =>
      v.decisions
        .filter((x) => x.kind === 'dispatch' || x.kind === 'reject' || x.kind === 'drr-pop')
        .map((x) => [x.kind, x.request, x.t]);
    expect(pick(order1(T2))).toEqual(pick(order2(T1, T2)));
  });

  it('broken variant (a due time equal to now counted as live) sends d at T2 in both orders', () => {
    const { T1, T2 } = instants();
    dueSweepFaults.strict = true;
    for (const v of [order1(T2), order2(T1, T2)]) {
      expect(v.sent('d')).toBe(T2);
      expect(() => refusedAtT2(v, T2)).toThrow();
    }
  });

  it('broken variant (pops before the sweep): the order then matters, and order 2 sends d at T2', () => {
    const { T1, T2 } = instants();
    dueSweepFaults.popFirst = true;
    // the timer's drain finds the record still full (a's prefill not yet reported) and pops nothing
    refusedAtT2(order1(T2), T2);
    const v = order2(T1, T2);
    expect(v.sent('d')).toBe(T2);
    expect(() => refusedAtT2(v, T2)).toThrow();
  });
});
