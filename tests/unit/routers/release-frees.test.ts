/**
 * Frees that coincide: one update per free (the model) against several frees applied together and
 * one update after them (Dynamo's coalesced booking cleanup).
 *
 * Dynamo's router, from mainline after PR #13718 (Aug 2026; so v1.6, and v1.5 if its branch was cut
 * after that merge, not verified), no longer sends a worker update per finished request. A finished
 * request's booking goes into a lock-free cleanup buffer; the first entry since the last drain wakes
 * the scheduler queue actor with one `Cleanup` command, and the actor empties the whole buffer (on
 * that command, or after any other command when its channel is empty), frees every booking in it and
 * then runs ONE `handle_update(None)`: recheck every parked lane, pop until nothing may leave. So the
 * batch is formed by timing (whatever reached the buffer before the actor's next drain), not by a
 * periodic task and not by a shared event. Prefill completions are not batched: each is still its own
 * update of its worker.
 *
 * The model replays each free as its own update (release-updates.test.ts). Why that decides the
 * same, which these tests check:
 *  1. A free lowers nothing the pop reads. The pop reads the queue, the time (due-time sweep) and the
 *     router's record of each worker's prefill tokens; a request's booked tokens are dropped whole at
 *     its first token, which the engine always reports before its completion, so its free drops 0.
 *  2. A drain ends with a pop that returns nothing; a second drain at the same time, on the same
 *     queue and record, pops nothing and changes nothing (the carry is already spent, empty classes
 *     already have no credit, blocked classes earn none, the sweep finds nothing new).
 *  3. In one worker's report the frees come after its prefill completions (a request completes after
 *     its first token). So per free we run D, D, …, D after the last prefill-completion drain, and
 *     batched we run one D at that point: by 1 and 2 both are exactly one D.
 * A free's drain can pop something only when something was left undrained: up to v1.5 a stored
 * arrival that could already leave (worked example below); in v1.6, which drains after every arrival
 * and at every due time, nothing (only an exact tie of a due time with the step end, before the
 * timer's own event, could be swept there). So under v1.6 dropping the frees' drains altogether
 * changes nothing either, whatever the split of simultaneous frees across workers.
 *
 * Worked example (v1.5): two workers; class A busy at any booked prefill token, `bg` never busy.
 *   t=0      d0, d0b (16-token prompts, 6 output tokens, pinned to worker 0), p (8192 tokens, pinned
 *            to worker 1): all sent at once.
 *   t=0.001  q1 (class A, pinned to worker 1): worker 1's record holds p's 8192 tokens → stored.
 *   t=0.05   u3 (class A, unpinned): A has a backlog → stored (v1.5 does not drain after an arrival),
 *            although worker 0's record is 0 since d0's and d0b's first tokens.
 *   T        d0 and d0b finish in the same step of worker 0: two frees, one report. The first free's
 *            drain pops u3 (the second's pops nothing); one drain after both frees pops u3 too, at T.
 * Without the frees' drains u3 would wait for p's prefill to complete (~0.8 s).
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/prng';
import type { DecisionRecord } from '../../../src/core/sim';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText } from '../../../src/scenario';
import { releaseScenarioText } from './helpers';

/** How the frees of one report reach the queue. */
type Variant = 'per-free' | 'batched' | 'no-free-drain';

interface RouterInternals {
  updates: object[];
  queue: { size(): number } | null;
  popped: number;
  onFreed(r: { worker: number; completionT: number }): void;
  applyUpdates(now: number): void;
  popQueue(now: number): void;
}

interface Stats {
  /** reports holding two or more frees while requests wait in the queue */
  reportsWithSeveralFrees: number;
  /** instants at which frees on two or more workers coincide while requests wait in the queue */
  instantsWithFreesOnSeveralWorkers: number;
  /** requests popped by a drain that followed a free */
  popsInFreeDrains: number;
}

/**
 * Wrap the router of `sim` so that its frees are drained per `variant`: `per-free` leaves the model
 * as it is (one drain per free), `batched` applies each run of consecutive frees of a report and
 * drains once after the last, `no-free-drain` applies the frees and drains after none of them.
 * Prefill completions keep their own drain in every variant, as in Dynamo.
 */
function instrument(sim: Simulation, variant: Variant): Stats {
  const R = sim.router as unknown as RouterInternals;
  const stats: Stats = {
    reportsWithSeveralFrees: 0,
    instantsWithFreesOnSeveralWorkers: 0,
    popsInFreeDrains: 0,
  };
  const frees = new WeakSet<object>();
  const workersAt = new Map<number, Set<number>>();
  const onFreed = R.onFreed.bind(R);
  R.onFreed = (r) => {
    const n = R.updates.length;
    onFreed(r);
    if (R.updates.length > n) frees.add(R.updates[R.updates.length - 1]);
    if (R.queue !== null && R.queue.size() > 0) {
      const ws = workersAt.get(r.completionT) ?? new Set<number>();
      ws.add(r.worker);
      workersAt.set(r.completionT, ws);
      if (ws.size === 2) stats.instantsWithFreesOnSeveralWorkers++;
    }
  };
  const apply = R.applyUpdates.bind(R);
  const pop = R.popQueue.bind(R);
  let plan: boolean[] | null = null; // per update of the report: drain after it?
  let isFree: boolean[] = [];
  let k = 0;
  R.applyUpdates = (now) => {
    const ups = R.updates.slice();
    isFree = ups.map((u) => frees.has(u));
    if (R.queue !== null && R.queue.size() > 0 && isFree.filter(Boolean).length >= 2)
      stats.reportsWithSeveralFrees++;
    plan = ups.map((_, i) => {
      if (!isFree[i] || variant === 'per-free') return true;
      if (variant === 'no-free-drain') return false;
      return !(i + 1 < ups.length && isFree[i + 1]); // batched: only after the last of a run
    });
    k = 0;
    try {
      apply(now);
    } finally {
      plan = null;
    }
  };
  R.popQueue = (now) => {
    if (plan === null) {
      pop(now);
      return;
    }
    const i = k++;
    if (!plan[i]) return;
    const before = R.popped;
    pop(now);
    if (isFree[i]) stats.popsInFreeDrains += R.popped - before;
  };
  return stats;
}

function simulate(text: string, variant: Variant, until: number) {
  const r = parseScenarioText(text);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col} ${p.message}`).join('\n'));
  const sim = new Simulation(r.value, { record: true });
  const stats = instrument(sim, variant);
  const decisions: DecisionRecord[] = [];
  sim.onDecision = (d) => decisions.push(d);
  sim.runUntil(until);
  expect(sim.checkInvariants()).toEqual([]);
  const of = (kind: string) => decisions.filter((d) => d.kind === kind);
  return {
    stats,
    /** every decision record, whole (times, workers, DRR deficits, cursor, carry, …) */
    log: JSON.stringify(decisions),
    dispatches: of('dispatch').map((d) => [d.request, d.t, d.worker]),
    completes: of('complete').map((d) => [d.request, d.t, d.worker]),
  };
}

function scenario(release: string, workers: number, requests: string): string {
  return releaseScenarioText({ name: 'coinciding frees', release, workers, duration: 4, requests });
}

const EXAMPLE = `  - { t: 0.000, client: c, id: d0, prompt_tokens: 16, output_tokens: 6, worker: 0, policy_class: bg }
  - { t: 0.000, client: c, id: d0b, prompt_tokens: 16, output_tokens: 6, worker: 0, policy_class: bg }
  - { t: 0.000, client: c, id: p, prompt_tokens: 8192, output_tokens: 2, worker: 1, policy_class: bg }
  - { t: 0.001, client: c, id: q1, prompt_tokens: 64, output_tokens: 2, worker: 1, policy_class: A }
  - { t: 0.050, client: c, id: u3, prompt_tokens: 64, output_tokens: 2, policy_class: A }
`;

/**
 * Many requests on three workers, with coinciding frees: workers 0 and 1 get the same requests at
 * the same times (so their steps end together and their frees coincide, several per step), worker 2
 * a long prefill that keeps the requests pinned to it waiting meanwhile; then a seeded mix of
 * classes, pins, sizes and (v1.6) due times arriving in bursts at the same instants.
 */
function busyRequests(release: string): string {
  const lines: string[] = [];
  const add = (t: number, id: string, prompt: number, out: number, cls: string, extra = '') =>
    lines.push(
      `  - { t: ${t.toFixed(3)}, client: c, id: ${id}, prompt_tokens: ${prompt}, output_tokens: ${out}, policy_class: ${cls}${extra} }`,
    );
  add(0, 'long', 6000, 4, 'bg', ', worker: 2');
  add(0.001, 'w2a', 64, 2, 'A', ', worker: 2');
  add(0.001, 'w2c', 64, 2, 'C', ', worker: 2');
  for (let i = 0; i < 4; i++)
    for (const w of [0, 1]) add(0, `s${w}-${i}`, 32, 3 + (i % 2) * 3, 'bg', `, worker: ${w}`);
  const rng = new Rng(7);
  const classes = ['A', 'B', 'C', 'bg'];
  for (let i = 0; i < 60; i++) {
    const t = 0.002 + Math.floor(rng.next() * 40) * 0.02;
    const cls = classes[Math.floor(rng.next() * classes.length)];
    const prompt = [16, 64, 256, 700][Math.floor(rng.next() * 4)];
    const out = [2, 4, 8][Math.floor(rng.next() * 3)];
    let extra = rng.next() < 0.35 ? `, worker: ${Math.floor(rng.next() * 3)}` : '';
    if (release === 'v1.6' && rng.next() < 0.3)
      extra += `, due_in_s: ${(0.05 + rng.next() * 0.5).toFixed(3)}`;
    add(t, `r${i}`, prompt, out, cls, extra);
  }
  return `${lines.join('\n')}\n`;
}

describe('frees applied together, then one update, decide what one update per free decides', () => {
  it('v1.5 worked example: the frees of one step release u3 at once, per free or batched', () => {
    const text = scenario('v1.5', 2, EXAMPLE);
    const per = simulate(text, 'per-free', 4);
    const batched = simulate(text, 'batched', 4);
    const [, T] = per.completes.find(([id]) => id === 'd0') as [string, number, number];
    // d0 and d0b finish in the same step of worker 0: one report, two frees, u3 waiting
    expect(per.completes.filter(([, t, w]) => t === T && w === 0).map(([id]) => id)).toEqual(['d0', 'd0b']);
    expect(per.stats.reportsWithSeveralFrees).toBe(1);
    expect(per.stats.popsInFreeDrains).toBe(1);
    expect(per.dispatches.find(([id]) => id === 'u3')).toEqual(['u3', T, 0]);
    expect(batched.log).toEqual(per.log);
    // the frees' drain matters here: without it u3 waits for p's prefill to complete
    const none = simulate(text, 'no-free-drain', 4);
    const u3 = none.dispatches.find(([id]) => id === 'u3') as [string, number, number];
    expect(u3[1]).toBeGreaterThan(0.5);
  });

  for (const release of ['v1.3', 'v1.4', 'v1.5', 'v1.6'])
    it(`${release}: the same run, record for record, on a run where frees coincide`, () => {
      const text = scenario(release, 3, busyRequests(release));
      const per = simulate(text, 'per-free', 4);
      // the case the equivalence is about does occur here, with requests waiting
      expect(per.stats.reportsWithSeveralFrees).toBeGreaterThan(0);
      expect(per.stats.instantsWithFreesOnSeveralWorkers).toBeGreaterThan(0);
      expect(simulate(text, 'batched', 4).log).toEqual(per.log);
      // v1.4/v1.5: arrivals stored behind a blocked lane head are released by frees' drains here,
      // so batching is exercised where it could matter (v1.3's single heap keeps them behind it)
      if (release === 'v1.4' || release === 'v1.5') expect(per.stats.popsInFreeDrains).toBeGreaterThan(0);
      if (release === 'v1.6') {
        // v1.6 drains after every arrival and at every due time: a free's drain never pops, so any
        // split of simultaneous frees (one drain each, one per worker, one for all) decides the same
        expect(per.stats.popsInFreeDrains).toBe(0);
        expect(simulate(text, 'no-free-drain', 4).log).toEqual(per.log);
      }
    });
});
