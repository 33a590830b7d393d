/**
 * The `guarantee` object of the engine's snapshot on the two guarantee scenarios: the real DLPM stays
 * within Theorem 4.1's bound, the deliberately broken variant (a quantum per request) crosses it, and
 * the snapshot carries what the Guarantees and Client service views draw. Also the class-queue chips
 * (`drr.queues`) of a cluster snapshot and the peak-keeping downsampling of the gap series.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GuaranteeMonitor, SERIES_PAIRS } from '../../../src/core/metrics/guarantee';
import { DownsampledSeries } from '../../../src/core/metrics/series';
import { Simulation } from '../../../src/core/sim';
import { QUEUE_CHIPS_PER_CLASS } from '../../../src/core/sim/snapshot';
import { parseScenarioText, type Scenario, switchScheduler } from '../../../src/scenario';

function load(file: string): Scenario {
  const r = parseScenarioText(readFileSync(join(__dirname, '../../../scenarios', file), 'utf8'));
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`).join('\n'));
  return r.value;
}

function runTo(file: string, t: number): Simulation {
  const sim = new Simulation(load(file), { record: false });
  sim.runUntil(t);
  return sim;
}

const maxOf = (xs: (number | null)[]) => Math.max(...xs.filter((x): x is number => x !== null));

describe('guarantee scenarios (DLPM Theorem 4.1 live)', () => {
  const real = runTo('guarantee-dlpm.yaml', 30);
  const broken = runTo('guarantee-broken-dlpm.yaml', 30);

  it('both runs state the same bound: 2·(1·600 + 2·6,000 + 500) = 26,200', () => {
    for (const sim of [real, broken]) {
      const g = sim.snapshot().guarantee;
      expect(g.algorithm).toBe('dlpm');
      expect(g.bound).toBe(26_200);
      expect(g.inputs).toMatchObject({ L_input: 600, M: 6000, U: 12_600, quantum: 500, workers: 1 });
      // the same number DLPM itself reports
      const w = sim.snapshot().workers[0];
      expect(w.policy === 'dlpm' ? w.policy_state?.bound : 'not dlpm').toBe(26_200);
    }
  });

  it('the real DLPM never crosses the bound', () => {
    const g = real.snapshot().guarantee;
    expect(g.broken).toBe(false);
    expect(g.warning).toBeNull();
    expect(g.violations).toEqual([]);
    expect(g.violation_count).toBe(0);
    expect(g.worst).not.toBeNull();
    expect(g.worst!.max_gap).toBeGreaterThan(0);
    expect(g.worst!.max_gap).toBeLessThan(26_200);
    for (const p of g.pairs) expect(p.violated_at).toBeNull();
    for (const row of Object.values(g.series.rows)) expect(maxOf(row)).toBeLessThanOrEqual(26_200);
  });

  it('the broken variant crosses it within seconds, and says it is broken', () => {
    const g = broken.snapshot().guarantee;
    expect(g.broken).toBe(true);
    expect(g.warning).toMatch(/grants Q\^u per request instead of per refill round/);
    expect(g.violation_count).toBeGreaterThan(0);
    const first = g.violations[0];
    expect(first.t).toBeGreaterThan(0);
    expect(first.t).toBeLessThan(10);
    expect(first.gap).toBeGreaterThan(first.bound);
    expect([first.a, first.b]).toContain('hog');
    expect(g.worst!.max_gap).toBeGreaterThan(2 * 26_200);
    expect(g.worst!.violated_at).not.toBeNull();
    // the crossing shows in the series too (peaks survive downsampling)
    expect(maxOf(g.series.rows[`${g.worst!.a}|${g.worst!.b}`])).toBeGreaterThan(26_200);
    const res = broken.result();
    expect(res.guarantee.violations).toBe(g.violation_count);
    expect(res.guarantee.first_violation?.t).toBe(first.t);
    expect(res.max_backlogged_service_gap).toBe(broken.metrics.gap.max);
  });

  it('the snapshot is plain JSON, bounded, with the bound for the Client service band', () => {
    const snap = broken.snapshot();
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
    expect(snap.fairness_bound).toEqual({ value: 26_200, label: 'DLPM Theorem 4.1: 2·(U + Q^u)' });
    const g = snap.guarantee;
    expect(g.pair_count).toBe(3);
    expect(g.pairs.map((p) => `${p.a}|${p.b}`).sort()).toEqual(['alice|bob', 'alice|hog', 'bob|hog']);
    // largest gap first
    for (let i = 1; i < g.pairs.length; i++)
      expect(g.pairs[i - 1].max_gap).toBeGreaterThanOrEqual(g.pairs[i].max_gap);
    expect(Object.keys(g.series.rows).length).toBeLessThanOrEqual(SERIES_PAIRS);
    expect(g.series.t.length).toBeGreaterThan(10);
    expect(g.series.t.length).toBeLessThanOrEqual(512);
    for (const row of Object.values(g.series.rows)) expect(row).toHaveLength(g.series.t.length);
    expect(g.series.bound).toHaveLength(g.series.t.length);
    expect(g.series.bound.every((b) => b === null || b <= 26_200)).toBe(true);
  });
});

describe('VTC guarantee in the measure it charges', () => {
  it('charge: input counts whole prompts in the gaps and stays within the bound; charge: extend counts uncached tokens', () => {
    const s = load('guarantee-dlpm.yaml');
    const gaps = (charge: 'input' | 'extend') => {
      const sim = new Simulation(
        { ...s, scheduler: switchScheduler(s.scheduler, 'vtc', { charge }) },
        { record: false },
      );
      sim.runUntil(20);
      return sim.snapshot().guarantee;
    };
    const input = gaps('input');
    const extend = gaps('extend');
    expect(input.algorithm).toBe('vtc');
    expect(input.reason).toMatch(/whole prompts/);
    expect(extend.reason).not.toMatch(/whole prompts/);
    for (const g of [input, extend]) {
      expect(g.bound).not.toBeNull();
      expect(g.violation_count).toBe(0);
    }
    // the workload shares prefixes: the two measures differ
    expect(input.worst!.max_gap).not.toBe(extend.worst!.max_gap);
  });
});

describe('VTC guarantee and its output charge', () => {
  const s = load('guarantee-dlpm.yaml');
  const run = (output_charge: 'decode' | 'token' | 'finish') => {
    const sim = new Simulation(
      { ...s, scheduler: switchScheduler(s.scheduler, 'vtc', { output_charge }) },
      { record: false },
    );
    sim.runUntil(20);
    return sim.snapshot().guarantee;
  };
  it('output_charge: decode leaves each first output token out of the gaps and stays within the bound', () => {
    const decode = run('decode');
    const token = run('token');
    expect(decode.algorithm).toBe('vtc');
    expect(decode.reason).toMatch(/first output token/);
    expect(token.reason).not.toMatch(/first output token/);
    for (const g of [decode, token]) {
      expect(g.bound).not.toBeNull();
      expect(g.violation_count).toBe(0);
    }
    expect(decode.worst!.max_gap).not.toBe(token.worst!.max_gap);
  });

  it("S-LoRA's admission cadence (max_wait_steps: 10) stays within the bound", () => {
    const sim = new Simulation(
      { ...s, scheduler: switchScheduler(s.scheduler, 'vtc', { max_wait_steps: 10 }) },
      { record: false },
    );
    sim.runUntil(20);
    const g = sim.snapshot().guarantee;
    expect(g.algorithm).toBe('vtc');
    expect(g.violation_count).toBe(0);
  });

  it('output_charge: finish states no bound: its counters follow batch mates', () => {
    const finish = run('finish');
    expect(finish.algorithm).toBeNull();
    expect(finish.bound).toBeNull();
    expect(finish.reason).toMatch(/output_charge: finish/);
  });
});

describe('guarantee without a theorem', () => {
  it('measures gaps but states no bound (and no band for Client service)', () => {
    const s = load('guarantee-dlpm.yaml');
    const sim = new Simulation({ ...s, scheduler: switchScheduler(s.scheduler, 'lpm') }, { record: false });
    sim.runUntil(10);
    const snap = sim.snapshot();
    expect(snap.guarantee.algorithm).toBeNull();
    expect(snap.guarantee.bound).toBeNull();
    expect(snap.guarantee.violation_count).toBe(0);
    expect(snap.guarantee.worst!.max_gap).toBeGreaterThan(0);
    expect(snap.fairness_bound).toBeUndefined();
  });

  it('a collector built without a scenario has no theorem', () => {
    const m = new GuaranteeMonitor(['a', 'b'], new Float64Array(2), null);
    expect(m.snapshot().algorithm).toBeNull();
    expect(m.snapshot().formula).toEqual([expect.stringMatching(/no scenario/)]);
  });
});

describe('class-queue chips in the cluster snapshot', () => {
  it('lists each class head first, at most QUEUE_CHIPS_PER_CLASS, with the client', () => {
    const s = load('default.yaml');
    const sim = new Simulation(s, { record: false });
    let best = 0;
    for (let t = 0.5; t <= s.duration_s && best <= QUEUE_CHIPS_PER_CLASS; t += 0.5) {
      sim.runUntil(t);
      best = Math.max(best, ...(sim.snapshot().drr?.classes.map((c) => c.queued) ?? [0]));
    }
    expect(best).toBeGreaterThan(QUEUE_CHIPS_PER_CLASS);
    const drr = sim.snapshot().drr!;
    expect(drr.queues.map((q) => q.class)).toEqual(drr.classes.map((c) => c.name));
    const busiest = drr.queues.find((q) => q.requests.length > 0)!;
    expect(busiest).toBeDefined();
    for (const q of drr.queues) {
      const cls = drr.classes.find((c) => c.name === q.class)!;
      expect(q.requests.length).toBe(Math.min(cls.queued, QUEUE_CHIPS_PER_CLASS));
    }
    const r = busiest.requests[0];
    expect(r.cost).toBe(drr.classes.find((c) => c.name === busiest.class)!.head_cost);
    expect(Object.keys(r).sort()).toEqual(
      [
        'arrival_s',
        'cached',
        'client',
        'cost',
        'due_s',
        'id',
        'priority',
        'raw_isl',
        'score',
        'seq',
        'strict_priority',
        'worker',
      ].sort(),
    );
    expect(s.clients.map((c) => c.name)).toContain(r.client);
  });
});

describe('peak-keeping downsampling', () => {
  it('merges neighbours into the later time with the larger value, NaN meaning none', () => {
    const s = new DownsampledSeries(['g'], 4, 1, true);
    const vals = [1, 9, Number.NaN, 2, 3];
    vals.forEach((v, i) => {
      s.sample(i, [v]);
    });
    // at the 5th sample the 4 stored points halve: (0,1) -> t1: 9, (2,3) -> t3: 2; then t4: 3
    expect(s.times()).toEqual([1, 3, 4]);
    expect(s.rowAt(0)).toEqual([9, 2, 3]);
    expect(s.currentDt).toBe(2);
  });
});
