/**
 * The LPM / DLPM lesson quotes numbers: each is either what the page shows at that step's moment
 * (t = 30 s) or a whole-run value, said so, and each is the runs' own (the tryout found a whole-run
 * gap set against the page's value at 30 s, and totals called "about the same" that differ by 8–16 %).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/core/sim';
import { applyOverrides, parseScenarioText } from '../../../src/scenario';
import { TOURS } from '../../../src/ui/features/tours';

const tour = TOURS.find((t) => t.id === 'lpm-dlpm');
const grouped = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function sim(sets: readonly string[]): Simulation {
  const applied = applyOverrides(readFileSync(`scenarios/${tour?.steps[0].at.scenario}.yaml`, 'utf8'), [
    ...sets,
  ]);
  if (!applied.ok) throw new Error('overrides do not apply');
  const s = parseScenarioText(applied.value);
  if (!s.ok) throw new Error('does not validate');
  return new Simulation(s.value, { record: false });
}

/** The largest backlogged gap at `t` and over the whole run, and the whole-run result. */
function runs(sets: readonly string[]) {
  const a = sim(sets);
  a.runUntil(30);
  const at30 = a.result().max_backlogged_service_gap;
  const b = sim(sets);
  b.runToEnd();
  return { at30, whole: b.result() };
}

describe('the LPM / DLPM tour quotes its runs', () => {
  it('step 2: the gaps at t = 30 s and over the whole run, the medians and the request count', () => {
    expect(tour).toBeDefined();
    if (!tour) return;
    const [lpmStep, dlpmStep, knob] = tour.steps;
    expect(lpmStep.at.time).toBe(30);
    expect(dlpmStep.at.time).toBe(30);
    const lpm = runs(lpmStep.at.sets ?? []);
    const dlpm = runs(dlpmStep.at.sets ?? []);
    const text = dlpmStep.text;
    expect(text).toContain(`is **${grouped(dlpm.at30)}**`);
    expect(text).toContain(`LPM's was ${grouped(lpm.at30)}`);
    expect(text).toContain(`LPM's reaches ${grouped(lpm.whole.max_backlogged_service_gap)}`);
    expect(text).toContain(`DLPM's stays ${grouped(dlpm.whole.max_backlogged_service_gap)}`);
    const p50 = (r: typeof lpm, c: string) => (r.whole.clients[c].ttft_p50_s ?? Number.NaN).toFixed(1);
    expect(text).toContain(`ann ${p50(lpm, 'ann')} s → ${p50(dlpm, 'ann')} s`);
    expect(text).toContain(`eve ${p50(lpm, 'eve')} s → ${p50(dlpm, 'eve')} s`);
    expect(text).toContain(`all ${lpm.whole.requests.completed} requests`);
    expect(dlpm.whole.requests.completed).toBe(lpm.whole.requests.completed);
    expect(text).not.toContain('about the same');
    // step 1's request counts are the whole minute's
    const done = (c: string) => lpm.whole.clients[c].completed;
    expect(lpmStep.text).toContain(`${done('eve')} against ${done('ann')}–${done('ben')}`);
    // the Sweep preset named is the one on another workload, and said so
    expect(knob.text).not.toMatch(/re-creates the frontier \(preset/);
    expect(knob.text).toContain('Tree-of-Thoughts S2');
  });
});
