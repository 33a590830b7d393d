/**
 * Every shipped scenario validates; every one whose router and local policy are implemented runs to
 * completion (arrivals capped at 20 simulated seconds to keep the suite fast) with its invariants
 * intact. The 100k-request benchmark scenario is validated only.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/core/sim';
import { routerPolicyProblem } from '../../src/core/algorithms';
import { localPolicyProblem } from '../../src/core/algorithms';
import { loadScenario as load, scenarioFiles } from './shipped-scenarios';

const files = scenarioFiles;
const CAP_S = 20;

describe('shipped scenarios run', () => {
  it('include the re-creations of the sources', () => {
    for (const prefix of ['paper-', 'vtc-', 'blis-', 'vajra-', 'cluster-'])
      expect(files.filter((f) => f.startsWith(prefix)).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith('paper-'))).toHaveLength(16);
  });
  for (const f of files) {
    it(`${f} validates${f.startsWith('bench-') ? '' : ' and runs to completion'}`, () => {
      const s = load(f);
      expect(s.name.length).toBeGreaterThan(5);
      expect(s.description.length).toBeGreaterThan(100);
      if (f.startsWith('bench-')) return;
      const missing = [routerPolicyProblem(s.router.routing), localPolicyProblem(s.scheduler.policy)].filter(
        (p) => p !== null,
      );
      if (missing.length > 0) {
        console.warn(`${f}: not run (${missing.join('; ')})`);
        return;
      }
      const sim = new Simulation({ ...s, duration_s: Math.min(s.duration_s, CAP_S) }, { record: false });
      sim.runToEnd({ maxEvents: 5_000_000 });
      expect(sim.stoppedReason).toBeNull();
      expect(sim.checkInvariants()).toEqual([]);
      const r = sim.result();
      expect(r.requests.injected).toBeGreaterThan(0);
      expect(r.requests.completed + r.requests.rejected).toBe(r.requests.injected);
    });
  }
});
