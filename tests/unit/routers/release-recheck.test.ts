/**
 * The router scheduler's periodic update (Dynamo's `router_queue_recheck_interval`: every 60 s from
 * router start; 100 ms only with a prefill-load model, which the playground does not have).
 *
 * What was read (mainline of the public repository; the release tags could not be read): the
 * scheduler's background task ticks a tokio interval and at every tick sends the queue actor a full
 * update naming no worker, `handle_update(None)`: nothing when nothing is stored; else every parked
 * exact-worker lane is rechecked and the queue is popped until a pop returns nothing, the same drain
 * as a worker update. The interval was a 1 s constant in the first router queue (Feb 2026), 60 s
 * from March 2026 on, later derived by `KvRouterConfig::router_queue_recheck_interval`; every
 * modelled release (v1.3 – v1.6, July – October 2026) was cut from that line. A tokio interval
 * fires its first tick at once, when the router starts and nothing can be stored yet, so the model
 * ticks at 60 s, 120 s, … of simulated time. At an instant shared with other events the tick runs
 * after all of them (Simulation.syncTick), so it only ever adds pops to what the model already did.
 *
 * Why it matters up to v1.5: an arrival can be stored without a drain (its class has a backlog),
 * and a stored request that could already leave then waits for the next worker update. Under v1.6,
 * which drains after every arrival and at every due time, the tick finds nothing that may leave.
 *
 * Worked example (v1.4 / v1.5; two workers; class A busy at any booked prefill token, bg never):
 *   t=59.5  p (8192-token prompt, bg, pinned to worker 1): worker 1's record holds 8192 tokens until
 *           p's first token, about 0.8 s later.
 *   t=59.6  q1 (A, pinned to worker 1): worker 1 is busy → stored, in worker 1's lane.
 *   t=59.7  u3 (A, unpinned): A has a backlog → stored (no drain after an arrival), though worker 0
 *           is idle, so u3 could leave at once.
 *   t=60    the periodic update: q1 stays (worker 1 busy); u3 is the shared heap's head and the pool
 *           is not busy → popped, sent to worker 0 at 60.000.
 *   ~60.3   p's first token: worker 1's update pops q1.
 * Without the tick u3 waits for that update and leaves with q1. In v1.3 (one heap per class) u3 sits
 * behind q1, the blocked head, and the tick pops nothing; in v1.6 u3 leaves at its arrival.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { recheckFaults, ROUTER_QUEUE_RECHECK_S } from '../../../src/core/drr';
import { explainDecisionText } from '../../../src/core/explain';
import type { DecisionRecord } from '../../../src/core/sim';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText, type Scenario } from '../../../src/scenario';
import { SCENARIO_DIR } from '../shipped-scenarios';
import { RELEASE_CLASSES, releaseScenarioText } from './helpers';

function scenario(release: string, workers: number, duration: number, requests: string): Scenario {
  const r = parseScenarioText(
    releaseScenarioText({
      name: 'periodic update',
      release,
      workers,
      duration,
      requests,
      classes: `${RELEASE_CLASSES}
      - {name: W, quantum: 500, queue_policy: wspt, prefill_busy_threshold: 0}`,
    }),
  );
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col} ${p.message}`).join('\n'));
  return r.value;
}

/** Run `s` to its end; `ticks` false turns the periodic update off for this run (else the flag stays). */
function run(s: Scenario, ticks = true) {
  const saved = recheckFaults.noTick;
  if (!ticks) recheckFaults.noTick = true;
  try {
    const sim = new Simulation(s, { record: true });
    const decisions: DecisionRecord[] = [];
    sim.onDecision = (d) => decisions.push(d);
    const firstToken = new Map<string, number>();
    sim.onRequestDone = (r) => firstToken.set(r.id, r.firstTokenT);
    sim.runToEnd();
    expect(sim.checkInvariants()).toEqual([]);
    expect(sim.router.queuedCount).toBe(0);
    const dispatch = (id: string) => decisions.find((d) => d.kind === 'dispatch' && d.request === id);
    return { sim, decisions, log: JSON.stringify(decisions), dispatch, firstToken };
  } finally {
    recheckFaults.noTick = saved;
  }
}

afterEach(() => {
  recheckFaults.noTick = false;
});

const EXAMPLE = `  - { t: 59.5, client: c, id: p, prompt_tokens: 8192, output_tokens: 2, worker: 1, policy_class: bg }
  - { t: 59.6, client: c, id: q1, prompt_tokens: 64, output_tokens: 2, worker: 1, policy_class: A }
  - { t: 59.7, client: c, id: u3, prompt_tokens: 64, output_tokens: 2, policy_class: A }
`;

/** The worked example's claim for `release`: u3 leaves at the tick, to worker 0, before q1. */
function workedExample(release: string) {
  const r = run(scenario(release, 2, 62, EXAMPLE));
  const u3 = r.dispatch('u3');
  const q1 = r.dispatch('q1');
  expect(u3?.t).toBe(ROUTER_QUEUE_RECHECK_S);
  expect(u3?.worker).toBe(0);
  // q1 leaves at the worker update that follows the tick: p's first token on worker 1
  expect(q1?.t).toBeGreaterThan(60.1);
  expect(q1?.t).toBe(r.firstToken.get('p'));
  expect(r.sim.router.recheckTicks).toBe(1);
  return r;
}

describe('the periodic update (every 60 s) releases what a stored arrival left waiting', () => {
  it('the interval modelled is the 60 s default', () => {
    expect(ROUTER_QUEUE_RECHECK_S).toBe(60);
  });

  for (const release of ['v1.4', 'v1.5'])
    it(`${release} worked example: u3 leaves at the tick (60 s), before the next worker update`, () => {
      const r = workedExample(release);
      const pop = r.decisions.find((d) => d.kind === 'drr-pop' && d.request === 'u3');
      expect(pop?.t).toBe(60);
      // the page says why a pop happens at an instant where nothing arrived or reported
      expect(pop?.summary).toContain('DRR pop at the periodic queue update');
      expect(pop?.kind === 'drr-pop' && pop.detail.drain).toBe('periodic_update');
      expect(explainDecisionText(pop as DecisionRecord)).toMatch(
        /^1\. Why a pop now: no request arrived and no worker reported\. This is the router scheduler's periodic queue update \(every 60 s/,
      );
      const stored = r.decisions.find((d) => d.kind === 'enqueue' && d.request === 'u3');
      expect(stored?.summary).toContain(
        `Dynamo ${release} drains its queue at a worker update or its periodic update (every 60 s), not after an arrival`,
      );
      // a pop at a worker update says nothing of the kind
      const q1 = r.decisions.find((d) => d.kind === 'drr-pop' && d.request === 'q1');
      expect(q1?.summary).not.toContain('periodic');
      expect(explainDecisionText(q1 as DecisionRecord)).not.toContain('periodic');
    });

  it('fails with the tick disabled: u3 then waits for the worker update and leaves with q1', () => {
    recheckFaults.noTick = true;
    expect(() => workedExample('v1.5')).toThrow();
    const r = run(scenario('v1.5', 2, 62, EXAMPLE), false);
    expect(r.dispatch('u3')?.t).toBe(r.dispatch('q1')?.t);
    expect(r.dispatch('u3')?.t).toBeGreaterThan(60.1);
    expect(r.sim.router.recheckTicks).toBe(0);
  });

  it('v1.3: u3 sits behind the blocked head q1 in its one heap, so the tick pops nothing', () => {
    const on = run(scenario('v1.3', 2, 62, EXAMPLE));
    const off = run(scenario('v1.3', 2, 62, EXAMPLE), false);
    expect(on.sim.router.recheckTicks).toBe(1);
    expect(on.log).toEqual(off.log);
    expect(on.dispatch('u3')?.t).toBeGreaterThan(60.1);
  });

  it('v1.6: u3 leaves at its arrival; the tick finds only the blocked q1 and changes nothing', () => {
    const on = run(scenario('v1.6', 2, 62, EXAMPLE));
    const off = run(scenario('v1.6', 2, 62, EXAMPLE), false);
    expect(on.dispatch('u3')?.t).toBe(59.7);
    expect(on.sim.router.recheckTicks).toBe(1);
    expect(on.log).toEqual(off.log);
  });

  it("a stored arrival's explanation says in words when it can leave, with the tick's time", () => {
    const r = workedExample('v1.5');
    const stored = r.decisions.find((d) => d.kind === 'enqueue' && d.request === 'u3');
    const text = explainDecisionText(stored as DecisionRecord);
    expect(text).not.toContain('Details:');
    expect(text).toContain(
      'Its DRR cost is 64: the uncached tokens of its 64 prompt tokens (none of them cached',
    );
    expect(text).toContain('Why stored: class A already has requests stored (a backlog)');
    expect(text).toContain(
      "When it can leave: not at this arrival, even if it could (up to v1.5 an arrival is stored without a drain). It leaves at the next worker update (a prefill completing or a request finishing on a worker) or at the router's periodic queue update at t = 60 s (every 60 s), whichever comes first",
    );
    // the pinned q1 waits for its own worker
    const q1 = r.decisions.find((d) => d.kind === 'enqueue' && d.request === 'q1');
    expect(explainDecisionText(q1 as DecisionRecord)).toContain(
      'once that worker is no longer busy for class A',
    );
    // an arrival stored at exactly a tick instant is seen by that tick; later ones by the next
    const late = run(scenario('v1.5', 2, 62, EXAMPLE.replace('t: 59.7', 't: 60.0')));
    const at60 = late.decisions.find((d) => d.kind === 'enqueue' && d.request === 'u3');
    expect(explainDecisionText(at60 as DecisionRecord)).toContain('update at t = 60 s');
    const v16 = run(scenario('v1.6', 2, 62, EXAMPLE));
    const q16 = v16.decisions.find((d) => d.kind === 'enqueue' && d.request === 'q1');
    expect(explainDecisionText(q16 as DecisionRecord)).toContain('Dynamo v1.6 stores every arrival');
    expect(explainDecisionText(q16 as DecisionRecord)).not.toContain('periodic');
  });

  it('the shipped scenario cluster-periodic-update is the worked example: u3 leaves at the 60 s tick', () => {
    const text = readFileSync(join(SCENARIO_DIR, 'cluster-periodic-update.yaml'), 'utf8');
    const parsed = parseScenarioText(text);
    if (!parsed.ok) throw new Error('does not validate');
    const r = run(parsed.value);
    const pop = r.decisions.find((d) => d.kind === 'drr-pop' && d.request === 'u3');
    expect(pop?.t).toBe(60);
    expect(pop?.summary).toContain('DRR pop at the periodic queue update');
    expect(r.dispatch('u3')?.worker).toBe(0);
    expect(r.dispatch('q1')?.t).toBeGreaterThan(60.1);
    // under v1.6 u3 leaves at its arrival
    const v16 = parseScenarioText(text.replace('dynamo_release: v1.5', 'dynamo_release: v1.6'));
    if (!v16.ok) throw new Error('does not validate');
    expect(run(v16.value).dispatch('u3')?.t).toBe(59.7);
  });

  it('tie rule: an arrival at exactly the tick instant is stored first, then the tick releases it', () => {
    const at60 = EXAMPLE.replace('t: 59.7', 't: 60.0');
    const r = run(scenario('v1.5', 2, 62, at60));
    const enq = r.decisions.findIndex((d) => d.kind === 'enqueue' && d.request === 'u3');
    const pop = r.decisions.findIndex((d) => d.kind === 'drr-pop' && d.request === 'u3');
    expect(r.decisions[enq].t).toBe(60);
    expect(r.decisions[pop].t).toBe(60);
    expect(pop).toBeGreaterThan(enq);
  });

  it('ticks are set only while requests are stored: a run that stores nothing holds none', () => {
    const quiet = `  - { t: 0.0, client: c, id: a, prompt_tokens: 64, output_tokens: 2, policy_class: bg }
  - { t: 200.0, client: c, id: b, prompt_tokens: 64, output_tokens: 2, policy_class: bg }
`;
    for (const release of ['v1.5', 'v1.6']) {
      const on = run(scenario(release, 1, 201, quiet));
      const off = run(scenario(release, 1, 201, quiet), false);
      expect(on.sim.router.recheckTicks).toBe(0);
      expect(on.sim.eventsProcessed).toBe(off.sim.eventsProcessed);
      expect(on.sim.now).toBe(off.sim.now);
    }
  });
});

/**
 * Seeded workloads over about four tick intervals: around each tick a long prefill pinned to one
 * worker, requests pinned behind it and unpinned ones of the same classes (stored behind a backlog),
 * plus a random mix of classes, pins, sizes, bursts (some exactly at tick instants) and, in v1.6,
 * due times.
 */
interface Workload {
  workers: number;
  items: { t: number; cls: number; prompt: number; out: number; pin: number; due: number }[];
}

const CLASSES = ['A', 'B', 'C', 'W', 'bg', 'x'];

const workload: fc.Arbitrary<Workload> = fc.record({
  workers: fc.integer({ min: 2, max: 3 }),
  items: fc.array(
    fc.record({
      // mostly in the seconds around a tick (k·60 − 0.6 … k·60 + 0.4), sometimes exactly on it
      t: fc.oneof(
        {
          weight: 3,
          arbitrary: fc
            .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: -12, max: 8 }))
            .map(([k, d]) => k * 60 + d * 0.05),
        },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 4800 }).map((i) => i * 0.05) },
      ),
      cls: fc.integer({ min: 0, max: CLASSES.length - 1 }),
      prompt: fc.constantFrom(16, 64, 256, 700, 3000, 8192),
      out: fc.constantFrom(2, 4, 8, 32),
      pin: fc.integer({ min: -3, max: 2 }),
      due: fc.oneof(
        fc.constant(-1),
        fc.integer({ min: 1, max: 200 }).map((i) => i * 0.01),
      ),
    }),
    { minLength: 30, maxLength: 120 },
  ),
});

function requestsOf(w: Workload, release: string): string {
  const lines: string[] = [];
  for (let k = 1; k <= 4; k++)
    lines.push(
      `  - { t: ${k * 60 - 0.5}, client: c, id: long${k}, prompt_tokens: 8192, output_tokens: 2, worker: ${k % w.workers}, policy_class: bg }`,
    );
  w.items.forEach((it, i) => {
    let extra = it.pin >= 0 && it.pin < w.workers ? `, worker: ${it.pin}` : '';
    if (release === 'v1.6' && it.due > 0) extra += `, due_in_s: ${it.due}`;
    lines.push(
      `  - { t: ${it.t.toFixed(2)}, client: c, id: r${i}, prompt_tokens: ${it.prompt}, output_tokens: ${it.out}, policy_class: ${CLASSES[it.cls]}${extra} }`,
    );
  });
  return `${lines.join('\n')}\n`;
}

function scenarioOf(w: Workload, release: string): Scenario {
  return scenario(release, w.workers, 241, requestsOf(w, release));
}

describe('v1.6: the periodic update changes no decision', () => {
  it('the whole decision log and the run result are the same with and without ticks', () => {
    let ticked = 0;
    fc.assert(
      fc.property(workload, (w) => {
        const s = scenarioOf(w, 'v1.6');
        const on = run(s);
        const off = run(s, false);
        ticked += on.sim.router.recheckTicks;
        expect(on.log).toEqual(off.log);
        // the fast path too (records off, decode fast-forward on): everything but the event count
        recheckFaults.noTick = false;
        const a = new Simulation(s, { record: false });
        a.runToEnd();
        recheckFaults.noTick = true;
        const b = new Simulation(s, { record: false });
        b.runToEnd();
        recheckFaults.noTick = false;
        const strip = (x: Simulation) => ({ ...x.result(), events: 0 });
        expect(strip(a)).toEqual(strip(b));
      }),
      { numRuns: 60 },
    );
    // the ticks did find stored requests (blocked ones) on these runs
    expect(ticked).toBeGreaterThan(60);
  }, 120_000);
});

describe('up to v1.5 the periodic update only adds pops at tick instants', () => {
  for (const release of ['v1.3', 'v1.4', 'v1.5'])
    it(`${release}: the logs with and without ticks agree up to a DRR pop at a tick instant`, () => {
      let diverged = 0;
      fc.assert(
        fc.property(workload, (w) => {
          const s = scenarioOf(w, release);
          const on = run(s);
          const off = run(s, false);
          let i = 0;
          const n = Math.min(on.decisions.length, off.decisions.length);
          while (i < n && JSON.stringify(on.decisions[i]) === JSON.stringify(off.decisions[i])) i++;
          if (i === on.decisions.length && i === off.decisions.length) return;
          diverged++;
          // the first difference is a pop by the tick: at a multiple of the interval, a DRR pop that
          // the run without ticks does not make at that point
          const d = on.decisions[i];
          expect(d.kind).toBe('drr-pop');
          expect(d.t % ROUTER_QUEUE_RECHECK_S).toBe(0);
          expect(d.t).toBeGreaterThan(0);
          expect(off.decisions[i] === undefined || off.decisions[i].t >= d.t).toBe(true);
        }),
        { numRuns: 40 },
      );
      // lanes (v1.4+) let a stored request leave past a blocked pinned head: the tick does release
      // requests on these workloads. v1.3's one heap per class keeps them behind a blocked head; only
      // a cheaper WSPT arrival that becomes its class's head can be left stored yet able to leave
      if (release !== 'v1.3') expect(diverged).toBeGreaterThan(0);
    }, 120_000);
});
