import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  addSample,
  chartData,
  chartEndNote,
  classRows,
  diffMoment,
  diffRows,
  dispatchDifference,
  drrRows,
  figuresOf,
  interpolateOnto,
  type Sample,
  sampleOf,
} from '../../../src/ui/compare/diff';
import { resolveRunB } from '../../../src/ui/compare/settings';
import { FairgroundApi } from '../../../src/worker/api';
import { unpackFrame } from '../../../src/worker/frame';
import type { SandboxSnapshot, SimSnapshot } from '../../../src/worker/session';
import { burstScript, clusterSnapshot, policyOf, sessionSnapshot } from '../views/fixtures';

const DEFAULT = readFileSync('scenarios/default.yaml', 'utf8');

function snap(
  t: number,
  clients: Record<string, { service: number; service_per_s?: number; ttft_p99_s?: number }>,
  jain?: number,
  jainRun?: number,
): SimSnapshot {
  const base = clusterSnapshot();
  const run = { index: jainRun ?? 1, from: 1, to: t, whole_run: false, clients: 2, served: 2 };
  const template = { ...base.clients.alice, service_per_s: 0, ttft_p99_s: null };
  return {
    ...base,
    sim_time_s: t,
    cache_hit_rate: 0.25,
    clients: Object.fromEntries(Object.entries(clients).map(([name, c]) => [name, { ...template, ...c }])),
    // `jain`: the engine's Jain's index series (core/metrics), which the UI shows and never recomputes
    series: { t: [0, t], rows: jain === undefined ? {} : { jain: [1, jain] }, dt: t },
    // `jain_run`: the run's index as run --json prints it (jain_index), which the table shows
    jain_run: jainRun === undefined ? { ...run, clients: 1, served: 0 } : run,
    jain_run_system: jainRun === undefined ? { ...run, clients: 1, served: 0 } : run,
  };
}

describe('difference figures', () => {
  it('interpolate linearly, NaN outside the source range', () => {
    const out = interpolateOnto([0, 0.5, 1, 2.5, 3, 4], [0, 1, 3], [0, 10, 30]);
    expect(out.slice(0, 5)).toEqual([0, 5, 10, 25, 30]);
    expect(out[5]).toBeNaN();
    expect(interpolateOnto([1], [], [])[0]).toBeNaN();
  });

  it('tabulate A, B and B − A (hand-checked)', () => {
    const a = figuresOf(
      snap(10, { x: { service: 100, service_per_s: 10 }, y: { service: 300, service_per_s: 30 } }, 0.8, 0.8),
    );
    const b = figuresOf(
      snap(10, { x: { service: 200, service_per_s: 20 }, y: { service: 200, service_per_s: 20 } }, 1, 1),
    );
    expect(a.throughput).toBe(40);
    // the engine's run index (of (10, 30): 40² / (2 · 1000) = 0.8; of (20, 20): 1)
    expect(a.jain).toBeCloseTo(0.8, 12);
    expect(b.jain).toBeCloseTo(1, 12);
    const rows = diffRows(a, b);
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
    expect(byKey.throughput).toMatchObject({ a: 40, b: 40, delta: 0 });
    expect(byKey['service:x']).toMatchObject({ a: 100, b: 200, delta: 100, client: 'x', unit: 'units' });
    expect(byKey['service:y'].delta).toBe(-100);
    expect(byKey['ttft99:x']).toMatchObject({ a: null, b: null, delta: null });
    expect(byKey.cache.delta).toBe(0);
  });

  it("show the run's Jain's index as run --json gives it, not the series' index since every client's first request (tester p51)", () => {
    // the tester's default run: Figures "run: 0.440 (as run --json)", the series' newest sample 0.4484
    const a = figuresOf(snap(96.45, { x: { service: 1 }, y: { service: 2 } }, 0.4484, 0.439562790918805));
    const b = figuresOf(snap(97.36, { x: { service: 1 }, y: { service: 2 } }, 0.45, 0.4394178086866045));
    expect(a.jain).toBe(0.439562790918805);
    expect(b.jain).toBe(0.4394178086866045);
    const jain = diffRows(a, b).find((r) => r.key === 'jain');
    expect(jain).toMatchObject({ note: 'as run --json', naA: false, naB: false });
    expect(jain?.title).toContain('A over 1.0–96.5 s, B over 1.0–97.4 s');
    // not meaningful (fewer than two clients compared): n/a, whatever the series says
    const early = figuresOf(snap(1, { x: { service: 1 } }, 1));
    expect(early).toMatchObject({ jain: null, jainNa: true });
    expect(figuresOf(null)).toMatchObject({ jain: null, jainNa: false, jainWindow: null });
  });

  it('say which moment they show: the shared one, or each run at its own end (tester p51)', () => {
    expect(diffMoment({ t: 12.5, done: false }, { t: 12.5, done: false })).toEqual({
      heading: 'at t = 12.5 s',
      note: null,
    });
    const aOver = diffMoment({ t: 96.4499, done: true }, { t: 96.8, done: false });
    expect(aOver.heading).toBe('A at its end, B at 96.800 s');
    expect(aOver.note).toContain(
      "Run A ended at 96.450 s and stays at its end; B goes on, so B's figures are not final yet",
    );
    const bOver = diffMoment({ t: 50, done: false }, { t: 40, done: true });
    expect(bOver.heading).toBe('A at 50.000 s, B at its end');
    expect(bOver.note).toContain("A's figures are not final yet");
    const both = diffMoment({ t: 96.4499, done: true }, { t: 97.35639, done: true });
    expect(both).toEqual({
      heading: 'at the end of both runs',
      note: "Both runs are over: A ended at 96.450 s, B at 97.356 s. Every figure is its run's final one.",
    });
    // the DRR sandbox counts steps
    expect(diffMoment({ t: 9, done: true }, { t: 12, done: true }, true).note).toContain(
      'A ended at step 9, B at step 12',
    );
  });

  it('keep samples in time order, dropping those the playhead went back over, thinning past the cap', () => {
    const f = figuresOf(snap(1, { x: { service: 1, ttft_p99_s: 0.5 } }));
    let h: Sample[] = [];
    for (const t of [1, 2, 3, 4]) h = addSample(h, sampleOf(t, f, f));
    h = addSample(h, sampleOf(2.5, f, f));
    expect(h.map((s) => s.t)).toEqual([1, 2, 2.5]);
    let many: Sample[] = [];
    for (let t = 0; t < 10; t++) many = addSample(many, sampleOf(t, f, f), 4);
    expect(many.length).toBeLessThanOrEqual(4);
    expect(many.at(-1)?.t).toBe(9);
    const one = snap(1, { x: { service: 1 } });
    expect(chartData('ttft', one, one, h)?.lines.map((l) => [l.key, l.values])).toEqual([['x', [0, 0, 0]]]);
  });

  it('cover both runs’ whole time: B’s part after A’s end is drawn, A’s line ends at its end (first-time user)', () => {
    // A ended at t = 2 (service 10, 20, 30 at 0, 1, 2); B played on to t = 4
    const withSeries = (t: number[], service: number[], jain: number[]): SimSnapshot => ({
      ...snap(t[t.length - 1], { x: { service: service[service.length - 1] } }),
      series: { t, rows: { 'service:x': service, jain }, dt: 1 },
    });
    const a = withSeries([0, 1, 2], [10, 20, 30], [1, 0.9, 0.8]);
    const b = withSeries([0, 1.5, 3, 4], [10, 25, 40, 50], [1, 0.7, 0.6, 0.5]);
    const jain = chartData('jain', a, b, [], { a: true, b: false });
    expect(jain?.t).toEqual([0, 1, 2, 3, 4]);
    const [la, lb] = jain?.lines ?? [];
    expect(la.values.slice(0, 3)).toEqual([1, 0.9, 0.8]);
    expect(la.values.slice(3).every(Number.isNaN)).toBe(true);
    expect(lb.values.slice(3)).toEqual([0.6, 0.5]);
    // B − A of cumulative service past A's end takes A's final figure (30)
    const service = chartData('service', a, b, [], { a: true, b: false });
    // (B interpolated at 1 and 2: 20 and 30)
    expect(service?.lines[0].values).toEqual([0, 0, 0, 10, 20]);
    // while A is not over its figures past its last sample are unknown, not held
    expect(
      chartData('service', a, b, [], { a: false, b: false })?.lines[0].values.slice(3).every(Number.isNaN),
    ).toBe(true);
    // the other way round: B ended first, A's samples already cover B's end
    expect(chartData('jain', b, a, [], { a: false, b: true })?.t).toEqual([0, 1.5, 3, 4]);
    expect(chartEndNote('pair', { t: 2, done: true }, { t: 4, done: false }, 4)).toBe(
      "Run A ended at t = 2.000 s: its line stops there, B's goes on (B is at 4.000 s).",
    );
    expect(chartEndNote('delta', { t: 2, done: true }, { t: 4, done: false }, 4)).toContain(
      "A's final figures",
    );
    expect(chartEndNote('pair', { t: 4, done: true }, { t: 4, done: true }, 4)).toBeNull();
  });
});

describe('sandbox difference', () => {
  it('compares class deficits and queues', () => {
    const drr = (da: number, qa: number): SandboxSnapshot => {
      const s = sessionSnapshot(burstScript(), 0);
      const classes = [{ name: 'A', quantum: 10, deficit: da, queued: qa, head_cost: null }];
      return { ...s, drr: { ...s.drr, cursor: 'A', carry: null, classes } };
    };
    const rows = drrRows(drr(7, 3), drr(4, 1));
    expect(rows.map((r) => [r.key, r.a, r.b, r.delta])).toEqual([
      ['taken:A', 0, 0, 0],
      ['deficit:A', 7, 4, -3],
      ['queued:A', 3, 1, -2],
    ]);
    expect(drrRows(null, null)).toEqual([]);
  });

  it('says who each run served and where they first differ (deficits and queues end at 0 in both)', () => {
    // the lecture tryout: Compare on drr-burst with A's quantum lowered showed only deficits and
    // queues, all 0 at the end, not the dispatch order that differs
    const run = (quantumA: number) => {
      const script = burstScript();
      script.policy = policyOf([
        { name: 'A', quantum: quantumA },
        { name: 'B', quantum: 10 },
      ]);
      return sessionSnapshot(script, 1_000);
    };
    const a = run(10);
    const b = run(4);
    const rows = drrRows(a, b);
    expect(
      rows
        .filter((r) => r.key.startsWith('deficit:') || r.key.startsWith('queued:'))
        .every((r) => r.delta === 0),
    ).toBe(true);
    expect(rows.filter((r) => r.key.startsWith('taken:')).map((r) => [r.key, r.a, r.b])).toEqual([
      ['taken:A', 4, 4],
      ['taken:B', 4, 4],
    ]);
    // A (quantum 10) takes three of A's cost-3 requests in a row; with quantum 4, one, then B's turn
    expect(dispatchDifference(a, b)).toBe(
      'They first serve differently at take 2: run A takes a1 (class A), run B takes b0 (class B).',
    );
    expect(dispatchDifference(a, a)).toBe('Both took the same 8 requests in the same order so far.');
    expect(dispatchDifference(sessionSnapshot(burstScript(), 0), a)).toBe('Neither has taken a request yet.');
  });
});

describe('class service in the difference panel', () => {
  const withClasses = (rows: { name: string; rejected: number; shed: number }[]): SimSnapshot => {
    const base = clusterSnapshot();
    const classes = rows.map((r) => ({
      served_uncached_tokens: 100,
      share: 1 / rows.length,
      quantum_share: null,
      dispatched: 1,
      p99_queue_wait_s: 0,
      quantum: 10,
      queued: 0,
      backlogged_s: 0,
      backlogged: false,
      charged_cost: 0,
      contended_cost: 0,
      contended_share: null,
      contended_quantum_share: null,
      ...r,
    }));
    const series = { t: [], served: [], queued: [], rejected: [], shed: [], contended: [], predicted: [] };
    return { ...base, class_service: { classes, saturated_s: 0, series } };
  };

  it('adds the requests shed for a passed due time (429) beside the 529 rejections when a run shed any', () => {
    const a = withClasses([{ name: 'x', rejected: 2, shed: 0 }]);
    const quiet = classRows(a, withClasses([{ name: 'x', rejected: 1, shed: 0 }]));
    expect(quiet.map((r) => r.key)).toEqual(['class-share:x', 'class-served:x', 'class-rejected:x']);
    const shedding = classRows(a, withClasses([{ name: 'x', rejected: 1, shed: 3 }]));
    expect(shedding.map((r) => [r.key, r.a, r.b])).toEqual([
      ['class-share:x', 1, 1],
      ['class-served:x', 100, 100],
      ['class-rejected:x', 2, 1],
      ['class-shed:x', 0, 3],
    ]);
  });
});

describe('run B follows run A (worker API)', () => {
  it('lands on exactly A’s simulated time, rewinds when A goes back, and differs from A by policy', async () => {
    const a = new FairgroundApi();
    const b = new FairgroundApi();
    await a.load(DEFAULT);
    const bText = resolveRunB({ scenario: DEFAULT }, { sets: ['scheduler.policy=lpm'] });
    if (!bText.ok) throw new Error(bText.message);
    await b.load(bText.scenario);
    const fa = unpackFrame(await a.step(2500));
    const fb = unpackFrame(await b.syncTo(fa.sim_time_s));
    expect(fb.sim_time_s).toBe(fa.sim_time_s);
    expect(fb.snapshot?.sim_time_s).toBe(fa.sim_time_s);
    expect(fb.decision_count).toBeGreaterThan(0);
    const data = chartData('service', fa.snapshot, fb.snapshot, []);
    expect(data?.lines.map((l) => l.key)).toEqual(['alice', 'bob', 'mallory']);
    expect(data?.lines.some((l) => l.values.some((v) => Number.isFinite(v) && v !== 0))).toBe(true);
    // the cache hit rate comes from both runs' series, on A's sample times, without any history
    const cache = chartData('cache', fa.snapshot, fb.snapshot, []);
    const aRows = fa.snapshot?.kind === 'cluster' ? fa.snapshot.series.rows : {};
    expect(cache?.lines.map((l) => l.key)).toEqual(['A', 'B']);
    expect(cache?.lines[0].values).toEqual(aRows.cache_hit);
    expect(cache?.lines[1].values.filter(Number.isFinite).length).toBeGreaterThan(10);
    // Forward again: no replay needed; back: a replay from t = 0 gives the same state as a fresh run.
    const later = unpackFrame(await b.syncTo(fa.sim_time_s + 1));
    expect(later.sim_time_s).toBe(fa.sim_time_s + 1);
    const back = unpackFrame(await b.syncTo(2));
    const fresh = new FairgroundApi();
    await fresh.load(bText.scenario);
    const direct = unpackFrame(await fresh.syncTo(2));
    expect(back.snapshot).toEqual(direct.snapshot);
    expect(back.decision_count).toBe(direct.decision_count);
  });
});
