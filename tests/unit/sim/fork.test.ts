/**
 * `Simulation.fork` is what the playground's restore points are made of: a copy must go on exactly as
 * the original would, and neither may disturb the other. For every shipped scenario: step a while,
 * fork, keep stepping the original (the straight run), then step two fresh copies of the fork the same
 * number of decisions and require byte-identical records, snapshots and results. If any state were
 * still shared (a closure over the original, a buffer written in place), the original's later steps
 * or the first copy's would show up in the second copy.
 */
import { describe, expect, it } from 'vitest';
import { ownFunctions } from '../../../src/core/clone';
import { Simulation } from '../../../src/core/sim';
import { loadScenario as load, scenarioFiles as files } from '../shipped-scenarios';

/** Function-valued fields a copy may share: pure functions of their arguments, no captured state. */
const STATELESS = new Set([
  'KeyedOrderPolicy.order.detail',
  'KeyedOrderPolicy.order.key',
  'KeyedOrderPolicy.order.why',
  'RequestHeap.compare',
]);

/** Decisions compared after the fork. */
const AFTER = 500;

/** `n` more decisions: their summaries, then the snapshot and result as JSON. */
function run(sim: Simulation, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const d = sim.stepDecision();
    if (!d) break;
    out.push(`${d.seq} ${d.summary}`);
  }
  out.push(JSON.stringify(sim.snapshot()), JSON.stringify(sim.result()));
  return out;
}

describe('Simulation.fork', () => {
  for (const f of files) {
    it(`${f}: copies go on exactly as the original and share no state with it`, () => {
      const sim = new Simulation(load(f));
      run(sim, 400);
      const point = sim.fork().sim;
      // 500 decisions after the fork: state shared with the original shows up within a few steps
      // (the original's steps write it before the copies run); the copies are taken at the same
      // point as ever, so the same structures are copied. (It was 1200: 2.3× the time, no more paths.)
      const straight = run(sim, AFTER);
      const first = point.fork().sim;
      expect(run(first, AFTER)).toEqual(straight);
      const second = point.fork().sim;
      expect(run(second, AFTER)).toEqual(straight);
      expect(second.checkInvariants()).toEqual([]);
      const shared = ownFunctions(sim, new Set<object>([sim.scenario])).filter((p) => !STATELESS.has(p));
      expect(shared, 'state held in closures is not copied by fork').toEqual([]);
    });
  }

  it('leaves callbacks on the original and off the copy', () => {
    const sim = new Simulation(load('default.yaml'));
    const seen: string[] = [];
    sim.onDecision = (d) => seen.push(d.kind);
    run(sim, 5);
    // one event may record several decisions at once (a v1.6 arrival: arrive, enqueue, pop, dispatch)
    const before = seen.length;
    expect(before).toBeGreaterThanOrEqual(5);
    const copy = sim.fork().sim;
    expect(copy.onDecision).toBeUndefined();
    run(copy, 5);
    expect(seen).toHaveLength(before);
    run(sim, 5);
    expect(seen.length).toBeGreaterThan(before);
  });
});
