/**
 * LPM's ties fall as SGLang's do: its scheduler sorts one waiting list in place, by the longest
 * cached prefix, with Python's stable `list.sort` (`_sort_by_longest_prefix` in schedule_policy.py),
 * and keeps the sorted list for the next step. So requests with equal matches stay in the order the
 * list had, not in arrival order:
 *   - a request whose match drops to that of earlier arrivals stays ahead of them (it was ahead);
 *   - a request whose match rises to that of later arrivals stays behind them (it was behind);
 *   - requests that came since the last sort are behind everyone with their match.
 * Hand-made cases on a real radix cache, for the live order and for the reference that does the
 * sort literally; the admissions are refused so that the queue is sorted and stays whole.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLpmReference, LpmPolicy } from '../../../src/core/algorithms/lpm/policy';
import { livePrefixFaults } from '../../../src/core/algorithms/shared/live-prefix-order';
import { Simulation } from '../../../src/core/sim';
import { CLI_BUDGET, parseScenarioText } from '../../../src/scenario';
import { concat, range } from './harness';
import { refusingRig } from './refusing-rig';

const root = join(__dirname, '../../..');

const P = range(0, 32);
const Q = range(100, 16);
const R = range(200, 16);

for (const [name, make] of [
  ['live', () => new LpmPolicy(0)],
  ['reference', () => createLpmReference(0)],
] as const)
  describe(`LPM ties keep the list's order (${name})`, () => {
    it('a request whose match drops to a tie stays ahead of earlier arrivals', () => {
      const r = refusingRig(make());
      r.cache(P);
      r.add('a', range(5000, 20)); // nothing cached
      r.add('b', concat(P, range(6000, 8))); // P cached
      r.step();
      expect(r.tried).toEqual(['b']);
      expect(r.order()).toEqual(['b', 'a']);
      // P leaves the cache: b's match is 0, as a's
      expect(r.radix.evict(1_000)).toBeGreaterThan(0);
      expect(r.order()).toEqual(['b', 'a']); // by arrival it would be a, b
      r.step();
      expect(r.tried).toEqual(['b', 'b']);
      r.add('c', range(7000, 20));
      expect(r.order()).toEqual(['b', 'a', 'c']);
    });

    it('a request whose match rises to a tie stays behind later arrivals that had it', () => {
      const r = refusingRig(make());
      r.cache(Q);
      r.add('y', concat(R, range(5000, 8))); // nothing cached yet
      r.add('x', concat(Q, range(6000, 8))); // Q cached: 16
      r.step();
      expect(r.order()).toEqual(['x', 'y']);
      // R enters the cache: y's match is 16, as x's
      r.cache(R);
      expect(r.order()).toEqual(['x', 'y']); // by arrival it would be y, x
      r.step();
      expect(r.tried).toEqual(['x', 'x']);
    });
  });

describe('the broken variant', () => {
  it('ties by arrival fails the first case', () => {
    livePrefixFaults.lpmTiesByPosition = true;
    try {
      const r = refusingRig(new LpmPolicy(0));
      r.cache(P);
      r.add('a', range(5000, 20));
      r.add('b', concat(P, range(6000, 8)));
      r.step();
      r.radix.evict(1_000);
      r.step();
      expect(r.tried).toEqual(['b', 'a']);
    } finally {
      livePrefixFaults.lpmTiesByPosition = false;
    }
  });
});

describe('looking at the list', () => {
  it('never changes an LPM run: the waiting order shown mid-run is a look ahead, not a sort', () => {
    const text = readFileSync(join(root, 'scenarios/fig1-kv-pressure.yaml'), 'utf8').replace(
      /^(\s*policy:) dlpm\s*$/m,
      '$1 lpm',
    );
    const parsed = parseScenarioText(text, { budget: CLI_BUDGET });
    if (!parsed.ok) throw new Error('the scenario does not validate');
    const plain = new Simulation(parsed.value, { record: false });
    plain.runToEnd();
    const looked = new Simulation(parsed.value, { record: false });
    let events = 0;
    while (looked.stepEvent()) if (++events % 3 === 0) looked.workers[0].policy.waiting(50);
    expect(looked.workers[0].policy.name).toBe('lpm');
    expect(JSON.stringify(looked.result())).toBe(JSON.stringify(plain.result()));
  });
});
