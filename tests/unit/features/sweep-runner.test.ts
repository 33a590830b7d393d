import { readFileSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { expose, wrap } from 'comlink';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyPointOverrides,
  replayOn,
  replayRun,
  runPointOn,
  runSweep,
  runSweepPoint,
  type SweepPointInput,
  type SweepPointOutcome,
  sweepValues,
  sweepWorkerApi,
} from '../../../src/worker/sweep-runner';
import { readTraceText } from '../../../src/format/trace';

const DEFAULT = readFileSync('scenarios/default.yaml', 'utf8');
const BURST = readFileSync('scenarios/drr-burst.yaml', 'utf8');

/** A short run of the default scenario at three client rates. */
const POINTS: SweepPointInput[] = [0.2, 0.5, 1].map((rate) => ({
  scenario: DEFAULT,
  sets: ['duration_s=6', `clients.alice.arrival.rate=${rate}`],
}));

describe('sweep values', () => {
  it('spaces points linearly or logarithmically, rounding and de-duplicating', () => {
    expect(sweepValues({ from: 1, to: 5, points: 5, scale: 'linear' })).toEqual([1, 2, 3, 4, 5]);
    expect(sweepValues({ from: 100, to: 10000, points: 3, scale: 'log' })).toEqual([100, 1000, 10000]);
    expect(sweepValues({ from: 1, to: 2, points: 5, scale: 'linear', integer: true })).toEqual([1, 2]);
    expect(sweepValues({ from: 0, to: 10, points: 3, scale: 'log' })).toEqual([]);
    expect(sweepValues({ from: 7, to: 9, points: 1, scale: 'linear' })).toEqual([7]);
  });

  it('keeps From and To exact and rounds only the points in between, to 3 significant digits', () => {
    // 625·2^(k/4): 743.2…, 883.8…, 1051.1… in between.
    expect(sweepValues({ from: 625, to: 1250, points: 5, scale: 'log', integer: true })).toEqual([
      625, 743, 884, 1050, 1250,
    ]);
    expect(sweepValues({ from: 625, to: 1250, points: 5, scale: 'log' })).toEqual([
      625, 743, 884, 1050, 1250,
    ]);
    // A wide log range: 100·3000^(k/5) = 495.9…, 2459.5…, 12197.6…, 60491.9…
    expect(sweepValues({ from: 100, to: 300000, points: 6, scale: 'log', integer: true })).toEqual([
      100, 496, 2460, 12200, 60500, 300000,
    ]);
    expect(sweepValues({ from: 0.123456, to: 0.987654, points: 3, scale: 'linear' })).toEqual([
      0.123456, 0.556, 0.987654,
    ]);
    expect(sweepValues({ from: 0, to: 1000, points: 4, scale: 'linear' })).toEqual([0, 333, 667, 1000]);
    // Descending ranges keep their order and their ends.
    expect(sweepValues({ from: 1250, to: 625, points: 3, scale: 'log', integer: true })).toEqual([
      1250, 884, 625,
    ]);
  });

  it('uses more digits in between when 3 would make neighbours collide', () => {
    expect(sweepValues({ from: 100, to: 101, points: 5, scale: 'linear' })).toEqual([
      100, 100.25, 100.5, 100.75, 101,
    ]);
    expect(sweepValues({ from: 101, to: 100, points: 5, scale: 'log' })).toEqual([
      101, 100.75, 100.5, 100.25, 100,
    ]);
    expect(sweepValues({ from: 1000, to: 1004, points: 5, scale: 'linear', integer: true })).toEqual([
      1000, 1001, 1002, 1003, 1004,
    ]);
  });

  it('property: exact ends, strictly monotone in between, at most `points` values', () => {
    const value = fc.double({ min: 1e-3, max: 1e7, noNaN: true });
    fc.assert(
      fc.property(value, value, fc.integer({ min: 2, max: 40 }), fc.boolean(), (from, to, points, log) => {
        // Ranges narrower than a billionth are below floating-point noise of the log spacing.
        fc.pre(Math.abs(to - from) > 1e-9 * Math.max(from, to));
        const vs = sweepValues({ from, to, points, scale: log ? 'log' : 'linear' });
        expect(vs[0]).toBe(from);
        expect(vs[vs.length - 1]).toBe(to);
        expect(vs.length).toBeLessThanOrEqual(points);
        const dir = Math.sign(to - from);
        for (let i = 1; i < vs.length; i++) expect(Math.sign(vs[i] - vs[i - 1])).toBe(dir);
      }),
      { numRuns: 300 },
    );
  });

  it('rounds integer ends to whole numbers (at least 1) and drops repeats', () => {
    expect(sweepValues({ from: 2.4, to: 6.6, points: 3, scale: 'linear', integer: true })).toEqual([2, 5, 7]);
    expect(sweepValues({ from: 0, to: 3, points: 4, scale: 'linear', integer: true })).toEqual([1, 2, 3]);
    expect(sweepValues({ from: 3, to: 3, points: 4, scale: 'linear' })).toEqual([3]);
    expect(sweepValues({ from: Number.NaN, to: 3, points: 4, scale: 'linear' })).toEqual([]);
  });
});

describe('sweep points', () => {
  it('applies overrides to the scenario, and router.policy.* ones to a separate policy text', () => {
    const res = applyPointOverrides({
      scenario: DEFAULT,
      policy: 'policy_classes:\n  - {name: A, quantum: 10}\n',
      sets: ['cluster.workers=3', 'router.policy.policy_classes.A.quantum=99'],
    });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.scenario).toMatch(/workers: 3/);
    expect(res.policy).toMatch(/quantum: 99/);
  });

  it('reports a bad override instead of throwing', () => {
    const out = runSweepPoint({ scenario: DEFAULT, sets: ['clients.nobody.arrival.rate=3'] });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.message).toMatch(/nobody/);
  });

  it('a sweep gives exactly what the points give run one by one, in point order', async () => {
    const oneByOne = POINTS.map(runSweepPoint);
    for (const o of oneByOne) expect(o.ok).toBe(true);
    // Completion order scrambled: later points finish first.
    const delays = [30, 10, 0];
    const progress: number[] = [];
    const swept = await runSweep(
      POINTS,
      (p) =>
        new Promise<SweepPointOutcome>((resolve) =>
          setTimeout(() => resolve(runSweepPoint(p)), delays[POINTS.indexOf(p)]),
        ),
      { concurrency: 3, onProgress: (p) => progress.push(p.done) },
    );
    expect(swept).toEqual(oneByOne);
    expect(progress).toEqual([1, 2, 3]);
    // The rate matters: more of alice's arrivals, more requests injected.
    const injected = oneByOne.map((o) => (o.ok ? o.result.requests.injected : 0));
    expect(injected[0]).toBeLessThan(injected[2]);
  });

  it('the worker API over a MessageChannel gives the same results (comlink, as in the browser)', async () => {
    const { port1, port2 } = new MessageChannel();
    // biome-ignore lint/suspicious/noExplicitAny: Node's MessagePort is structurally compatible with comlink's Endpoint.
    expose(sweepWorkerApi, port1 as any);
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const remote = wrap<typeof sweepWorkerApi>(port2 as any);
    try {
      const swept = await runSweep(POINTS, (p) => remote.runPoint(p), { concurrency: 2 });
      expect(swept).toEqual(POINTS.map(runSweepPoint));
    } finally {
      port1.close();
      port2.close();
    }
  });

  it('cancelling stops handing out points', async () => {
    let stop = false;
    const out = await runSweep(
      POINTS,
      async (p) => {
        stop = true;
        return runSweepPoint(p);
      },
      { concurrency: 1, cancelled: () => stop },
    );
    expect(out).toEqual([null, null, null]);
  });
});

describe('replay for export', () => {
  it('replays a script to the playhead (after its preloaded enqueues, as the playground counts)', () => {
    const out = replayRun({ scenario: BURST, decisions: 4 });
    expect(out.ok && out.kind).toBe('arbitration');
    if (!out.ok) return;
    const log = (out.result as { log: { op: string; id: string | null }[] }).log;
    expect(log.filter((l) => l.op === 'enqueue')).toHaveLength(8);
    expect(log.filter((l) => l.op === 'pop').map((l) => l.id)).toEqual(['a0', 'a1', 'a2', 'b0']);
  });

  it('replays a cluster run to the playhead with its finished requests, then those in flight', () => {
    const text = DEFAULT.replace('duration_s: 60', 'duration_s: 5');
    const out = replayRun({ scenario: text, decisions: 400 });
    expect(out.ok && out.kind).toBe('cluster');
    if (!out.ok || out.kind !== 'cluster') return;
    const r = out.result.requests;
    expect(out.result.decisions).toBeGreaterThanOrEqual(400);
    expect(out.requests.length).toBe(r.injected);
    const states = out.requests.map((x) => x.state);
    const finished = r.completed + r.rejected;
    expect(states.slice(0, finished).every((s) => s === 'done' || s === 'rejected')).toBe(true);
    const open = states.slice(finished);
    expect(open.length).toBe(r.queued + r.running);
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((s) => s === 'router-queued' || s === 'waiting' || s === 'running')).toBe(true);
    expect(open.filter((s) => s === 'running').length).toBe(r.running);
  });
});

describe('one-off runs on a dropped trace (Export, runResult)', () => {
  // the page worker holds the dropped file's table; a fresh sweep worker holds none until handed one
  const MINI = Array.from({ length: 40 }, (_, i) =>
    JSON.stringify({
      timestamp: i * 250,
      input_length: 1500 + (i % 5) * 900,
      output_length: 20,
      hash_ids: [0, 1, 100 + i],
    }),
  ).join('\n');
  const scenario = readFileSync('scenarios/trace-synthetic-chat.yaml', 'utf8')
    .replace('file: traces/synthetic-chat.jsonl', 'file: dropped-mini.jsonl')
    .replace('duration_s: 90', 'duration_s: 5');
  const read = readTraceText('dropped-mini.jsonl', MINI, { format: 'mooncake' });

  it('are handed the parsed trace table first, as each sweep worker is', async () => {
    if (!read.ok) throw new Error('the mini trace does not parse');
    const { port1, port2 } = new MessageChannel();
    // biome-ignore lint/suspicious/noExplicitAny: Node's MessagePort is structurally compatible with comlink's Endpoint.
    expose(sweepWorkerApi, port1 as any);
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const remote = wrap<typeof sweepWorkerApi>(port2 as any);
    try {
      // a worker that was handed nothing cannot find the file (this is what Export answered)
      const bare = await remote.replay({ scenario, decisions: 50 });
      expect(bare.ok ? '' : bare.message).toMatch(/drop the trace file/);
      const out = await replayOn(remote, { scenario, decisions: 50 }, [read.value]);
      expect(out.ok && out.kind).toBe('cluster');
      if (out.ok && out.kind === 'cluster') expect(out.result.requests.injected).toBeGreaterThan(0);
      const point = await runPointOn(remote, { scenario, sets: [] }, [read.value]);
      expect(point.ok ? point.result.requests.injected : point.message).toBe(40);
    } finally {
      port1.close();
      port2.close();
    }
  });
});
