import { expose, type Remote, wrap } from 'comlink';
import { readFileSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FairgroundApi, IDLE_MS } from '../../src/worker/api';
import { unpackFrame } from '../../src/worker/frame';

// comlink over a Node MessageChannel: the same protocol the browser worker speaks.
function connect(opts?: ConstructorParameters<typeof FairgroundApi>[0]): {
  api: Remote<FairgroundApi>;
  close: () => void;
} {
  const { port1, port2 } = new MessageChannel();
  // biome-ignore lint/suspicious/noExplicitAny: Node's MessagePort is structurally compatible with comlink's Endpoint.
  expose(new FairgroundApi(opts), port1 as any);
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const api = wrap<FairgroundApi>(port2 as any);
  return {
    api,
    close: () => {
      port1.close();
      port2.close();
    },
  };
}

let closeLast: (() => void) | null = null;
afterEach(() => closeLast?.());

/**
 * Two runs of the default scenario: `api` takes a restore point every `gap` decisions whatever a copy
 * costs; `ref` is the straight run to compare with.
 */
async function withReference(gap: number) {
  const a = connect({ restorePoints: { minGap: gap, overhead: 1e9 } });
  const b = connect();
  closeLast = () => {
    a.close();
    b.close();
  };
  await a.api.load(TOY);
  await b.api.load(TOY);
  return { api: a.api, ref: b.api };
}

const TOY = readFileSync('scenarios/default.yaml', 'utf8');
const BURST = readFileSync('scenarios/drr-burst.yaml', 'utf8');

describe('worker API over a MessageChannel', () => {
  it('loads, steps, runs until a time and resets, one packed frame per call', async () => {
    const { api, close } = connect();
    closeLast = close;
    const res = await api.load(TOY);
    expect(res).toMatchObject({ ok: true, kind: 'cluster' });
    const frame = unpackFrame(await api.step(3));
    expect(frame.decisions.map((d) => d.seq)).toEqual([0, 1, 2]);
    expect(frame.decision_count).toBe(3);
    const later = unpackFrame(await api.runUntil(5));
    expect(later.sim_time_s).toBeGreaterThanOrEqual(5);
    const reset = unpackFrame(await api.reset());
    expect(reset.decision_count).toBe(0);
    expect(reset.replace_log).toBe(true);
    expect(reset.reach).toBe(later.decision_count);
  });

  it('reports positioned problems for bad YAML and keeps the previous session', async () => {
    const { api, close } = connect();
    closeLast = close;
    await api.load(TOY);
    await api.step(2);
    const bad = await api.load('name: [unclosed\n');
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.source).toBe('scenario');
      expect(bad.problems[0].line).toBeGreaterThanOrEqual(1);
      expect(bad.problems[0].col).toBeGreaterThanOrEqual(1);
    }
    expect(unpackFrame(await api.frame()).decision_count).toBe(2);
  });

  it('advance respects its decision budget and sends only new decisions', async () => {
    const { api, close } = connect();
    closeLast = close;
    await api.load(TOY);
    await api.frame();
    const a = unpackFrame(await api.advance({ decisions: 7 }));
    expect(a.decisions.map((d) => d.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const b = unpackFrame(await api.advance({ decisions: 2 }));
    expect(b.decisions.map((d) => d.seq)).toEqual([7, 8]);
    expect(b.replace_log).toBe(false);
  });

  it('seeks back and forth by replay and lands on the same state as a straight run', async () => {
    const { api, close } = connect();
    closeLast = close;
    await api.load(TOY);
    const straight = unpackFrame(await api.step(300));
    const back = await api.seek({ decision: 120 }, 1000);
    expect(back.finished).toBe(true);
    const at120 = unpackFrame(back.frame);
    expect(at120.decision_count).toBe(120);
    expect(at120.decisions.at(-1)?.seq).toBe(119);
    const fwd = await api.seek({ decision: 300 }, 1000);
    const again = unpackFrame(fwd.frame);
    expect(again.snapshot).toEqual(straight.snapshot);
    expect(again.reach).toBe(300);
  });

  it('a seek says where it lands when the run has been there: the time of a decision, the decision of a time', async () => {
    const api = new FairgroundApi();
    await api.load(TOY);
    // on a fresh run nothing ahead is known yet (a link's playhead on a new page)
    const fresh = await api.seek({ decision: 200 }, -1);
    expect(fresh.landing).toEqual({ decision: 200, time: null });
    let done = fresh;
    while (!done.finished) done = await api.seek({ decision: 200 }, 5000);
    const at200 = unpackFrame(done.frame).sim_time_s;
    // once there, it is known
    expect(done.landing).toEqual({ decision: 200, time: at200 });
    unpackFrame(await api.step(100));
    const back = await api.seek({ decision: 200 }, -1);
    expect(back.finished).toBe(false);
    expect(back.landing).toEqual({ decision: 200, time: at200 });
    unpackFrame(await api.step(100));
    const byTime = await api.seek({ time: at200 }, -1);
    // the first decision at or after that time (decision 200 or one before it, at the same time)
    expect(byTime.landing.time).toBe(at200);
    expect(byTime.landing.decision).toBeLessThanOrEqual(200);
    expect(byTime.target).toBe(byTime.landing.decision);
    let last = byTime;
    while (!last.finished) last = await api.seek({ time: at200 }, 5000);
    expect(unpackFrame(last.frame).decision_count).toBe(byTime.landing.decision);
  });

  it('a seek stopped half-way, then Play, then the same seek again lands on its target, not where Play left the run', async () => {
    const api = new FairgroundApi();
    await api.load(TOY);
    // a wall budget below zero stops the slice at its first check (decision 64)
    const half = await api.seek({ decision: 100 }, -1);
    expect([half.finished, half.at]).toEqual([false, 64]);
    unpackFrame(await api.advance({ decisions: 200 }));
    const again = unpackFrame((await api.seek({ decision: 100 }, 5000)).frame);
    expect(again.decision_count).toBe(100);
  });

  it('a seek asked for light slices sends the snapshot at most that often, and always in its last slice', async () => {
    const api = new FairgroundApi();
    await api.load(TOY);
    const slices: [number, boolean][] = [];
    for (;;) {
      // a wall budget below zero: one check (64 decisions) per slice
      const slice = await api.seek({ decision: 300 }, -1, 1e9);
      slices.push([slice.at, unpackFrame(slice.frame).snapshot !== null]);
      if (slice.finished) break;
    }
    expect(slices).toEqual([
      [64, true],
      [128, false],
      [192, false],
      [256, false],
      [300, true],
    ]);
  });

  it('seeks back from the nearest restore point, not from the start, and lands where a straight run does', async () => {
    const { api, ref } = await withReference(50);
    for (let i = 0; i < 12; i++) await api.step(50);
    const points = await api.restorePoints();
    expect(points.failed).toBeNull();
    expect(points.decisions.length).toBeGreaterThan(5);
    for (const target of [420, 137, 555, 51]) {
      const back = await api.seek({ decision: target }, 5000);
      expect(back.finished).toBe(true);
      const from = (await api.stats()).lastSeekFrom;
      expect(from).toBeGreaterThan(0);
      expect(from).toBeLessThanOrEqual(target);
      expect(target - from).toBeLessThan(100);
      await ref.reset();
      const straight = unpackFrame((await ref.seek({ decision: target }, 5000)).frame);
      const got = unpackFrame(back.frame);
      expect(got.decision_count).toBe(target);
      expect(got.snapshot).toEqual(straight.snapshot);
      expect(got.decisions).toEqual(straight.decisions);
    }
  });

  it('seeks back to a time from a restore point: the first decision at or after it, as a straight run', async () => {
    const { api, ref } = await withReference(40);
    for (let i = 0; i < 10; i++) await api.step(60);
    const end = unpackFrame(await api.frame()).sim_time_s;
    for (const t of [end * 0.7, end * 0.25]) {
      const got = unpackFrame((await api.seek({ time: t }, 5000)).frame);
      expect((await api.stats()).lastSeekFrom).toBeGreaterThan(0);
      await ref.reset();
      const straight = unpackFrame((await ref.seek({ time: t }, 5000)).frame);
      expect(got.decision_count).toBe(straight.decision_count);
      expect(got.sim_time_s).toBeGreaterThanOrEqual(t);
      expect(got.snapshot).toEqual(straight.snapshot);
    }
  });

  it('takes a restore point where the run stands once the worker is idle (a pause), whatever a copy costs', async () => {
    // copies may take a millionth of the time: after the first, none is due while stepping
    const { api, close } = connect({ restorePoints: { minGap: 50, overhead: 1e-6 } });
    closeLast = close;
    await api.load(TOY);
    await api.step(100);
    await api.step(100);
    expect((await api.restorePoints()).decisions).toEqual([100]);
    await new Promise((r) => setTimeout(r, IDLE_MS + 100));
    expect((await api.restorePoints()).decisions).toEqual([100, 200]);
    // a point needs room: idling again at the same place adds nothing
    await api.step(10);
    await new Promise((r) => setTimeout(r, IDLE_MS + 100));
    expect((await api.restorePoints()).decisions).toEqual([100, 200]);
  });

  it('a page in a background tab takes no restore points (stepping or idle) until it is back', async () => {
    const { api, close } = connect({ restorePoints: { minGap: 2, overhead: 1e9 } });
    closeLast = close;
    await api.load(BURST);
    await api.step(2);
    expect((await api.restorePoints()).decisions).toEqual([2]);
    await api.setBackground(true);
    await api.step(2);
    await api.step(2);
    await new Promise((r) => setTimeout(r, IDLE_MS + 100));
    expect((await api.restorePoints()).decisions).toEqual([2]);
    await api.setBackground(false);
    await api.step(1);
    expect((await api.restorePoints()).decisions).toEqual([2, 7]);
  });

  it('restore points work for the DRR sandbox too', async () => {
    const { api, close } = connect({ restorePoints: { minGap: 2, overhead: 1e9 } });
    closeLast = close;
    const loaded = await api.load(BURST);
    expect(loaded.ok && loaded.totalSteps).toBe(9);
    for (let i = 0; i < 6; i++) await api.step(1);
    const straight = unpackFrame(await api.frame());
    for (let i = 0; i < 3; i++) await api.step(1);
    expect((await api.restorePoints()).decisions).toEqual([2, 4, 6, 8]);
    const back = unpackFrame((await api.seek({ decision: 5 }, 1000)).frame);
    expect((await api.stats()).lastSeekFrom).toBe(4);
    await api.seek({ decision: 6 }, 1000);
    expect(unpackFrame(await api.frame()).snapshot).toEqual(straight.snapshot);
    expect(back.decision_count).toBe(5);
  });

  it('a run to a time keeps the time index whole and takes restore points on the way, as Play does', async () => {
    // the reference steps one decision at a time: the time after each decision, and a moment at
    // which one event records several decisions (the step stops after the first, runUntil takes the rest)
    const ref = new FairgroundApi();
    await ref.load(TOY);
    const times: number[] = [0];
    let target = -1;
    while (target < 0) {
      const f = unpackFrame(await ref.step(1));
      expect(f.decision_count).toBe(times.length);
      times.push(f.sim_time_s);
      const n = times.length - 1;
      if (n > 300 && times[n] === times[n - 1] && times[n - 1] > times[n - 2]) target = n - 1;
    }
    const t = times[target];
    const { api, close } = connect({ restorePoints: { minGap: 50, overhead: 1e9 } });
    closeLast = close;
    await api.load(TOY);
    const jumped = unpackFrame(await api.runUntil(t));
    expect(jumped.sim_time_s).toBe(t);
    expect(jumped.decision_count).toBeGreaterThan(target);
    // the log holds every decision up to the playhead (the core's runUntil took the last ones
    // unseen: a tour's "click the newest line" found it missing), and they are the straight run's
    const seqs = jumped.decisions.map((d) => d.seq);
    expect(seqs.at(-1)).toBe(jumped.decision_count - 1);
    expect(seqs).toEqual(seqs.map((_, i) => jumped.decision_count - seqs.length + i));
    const straight = new FairgroundApi();
    await straight.load(TOY);
    const same = unpackFrame(await straight.step(jumped.decision_count));
    expect(jumped.decisions).toEqual(same.decisions.slice(-jumped.decisions.length));
    // points along the way, not only where the jump ends
    const points = (await api.restorePoints()).decisions;
    expect(points.length).toBeGreaterThan(2);
    expect(points[0]).toBeLessThan(target / 2);
    // a seek to the jump's last decision, or to its time, says where it lands
    const last = jumped.decision_count;
    expect((await api.seek({ decision: last }, -1)).landing).toEqual({ decision: last, time: t });
    expect((await api.seek({ time: t }, -1)).landing).toEqual({ decision: target, time: t });
  });

  it('seeks to a time', async () => {
    const { api, close } = connect();
    closeLast = close;
    await api.load(TOY);
    await api.runUntil(20);
    const s = unpackFrame((await api.seek({ time: 8 }, 5000)).frame);
    expect(s.sim_time_s).toBeGreaterThanOrEqual(8);
    expect(s.sim_time_s).toBeLessThan(12);
  });

  it('runs an arbitration script one enqueue or pop per step (the Dynamo burst)', async () => {
    const { api, close } = connect();
    closeLast = close;
    // the burst preloads its eight enqueues: step 1 is the first pop
    const res = await api.load(BURST);
    expect(res).toMatchObject({ ok: true, kind: 'arbitration', name: 'Dynamo burst', totalSteps: 9 });
    const f = unpackFrame(await api.step(8));
    expect(f.decisions.map((d) => d.kind)).toEqual(Array(8).fill('pop'));
    const pops = f.decisions.map((d) => d.request);
    expect(pops).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'a3', 'b3']);
    const drr = f.snapshot?.drr as { classes: { name: string; deficit: number }[] };
    expect(drr.classes.map((c) => [c.name, c.deficit])).toEqual([
      ['A', 0],
      ['B', 0],
    ]);
  });

  it('a policy override replaces the script policy; a broken one is reported against the policy text', async () => {
    const { api, close } = connect();
    closeLast = close;
    const bad = await api.load(BURST, 'policy_classes:\n  - {name: A, quantum: 0}\n');
    expect(bad).toMatchObject({ ok: false, source: 'policy', problems: [{ line: 2 }] });
    const ok = await api.load(
      BURST,
      'policy_classes:\n  - {name: A, quantum: 5}\n  - {name: B, quantum: 10}\n',
    );
    expect(ok.ok).toBe(true);
    const f = unpackFrame(await api.step(9));
    expect(f.snapshot?.drr?.classes[0].quantum).toBe(5);
  });
});

describe('cluster snapshots', () => {
  it('keep the newest DRR pop’s record (and nothing of the log) so the ring can show the last arbitration', async () => {
    const { api, close } = connect();
    closeLast = close;
    await api.load(TOY); // the default scenario has router policy-class queues
    await api.runUntil(30);
    const snap = await api.snapshot();
    if (snap.kind !== 'cluster') throw new Error('expected a cluster run');
    expect(snap.recent).toHaveLength(0);
    const last = snap.drr?.last_pop;
    expect(last?.t).toBeGreaterThan(0);
    expect(last?.t).toBeLessThanOrEqual(30);
    expect(last?.record.visits.length).toBeGreaterThan(0);
  });
});

describe('light frames', () => {
  afterEach(() => vi.useRealTimers());

  it('carry no snapshot between snapshot intervals, but the header and decisions still flow', async () => {
    // Only the wall clock is faked (comlink's messages still flow). Whatever the thread's age (a
    // clock that started the interval at 0 made the first frame depend on it), the first frame after
    // a load has the snapshot, and then one per interval.
    vi.useFakeTimers({ toFake: ['performance'] });
    for (const age of [0, 120_000]) {
      vi.advanceTimersByTime(age);
      const { api, close } = connect();
      closeLast = close;
      await api.load(TOY);
      const first = unpackFrame(await api.advance({ decisions: 1, snapshotEveryMs: 60_000 }));
      expect(first.snapshot).not.toBeNull();
      const light = unpackFrame(await api.advance({ decisions: 5, snapshotEveryMs: 60_000 }));
      expect(light.snapshot).toBeNull();
      expect(light.decisions).toHaveLength(5);
      expect(light.decision_count).toBe(6);
      vi.advanceTimersByTime(59_999);
      expect(unpackFrame(await api.advance({ decisions: 1, snapshotEveryMs: 60_000 })).snapshot).toBeNull();
      vi.advanceTimersByTime(1);
      expect(
        unpackFrame(await api.advance({ decisions: 1, snapshotEveryMs: 60_000 })).snapshot,
      ).not.toBeNull();
      // Without an interval every frame is full.
      expect(unpackFrame(await api.advance({ decisions: 5 })).snapshot).not.toBeNull();
      // A new load starts over.
      await api.load(TOY);
      expect(
        unpackFrame(await api.advance({ decisions: 1, snapshotEveryMs: 60_000 })).snapshot,
      ).not.toBeNull();
      close();
    }
  });
});
