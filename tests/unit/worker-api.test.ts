import { expose, type Remote, wrap } from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import { ToyEngine } from '../../src/core/toy-engine';
import { FairgroundApi } from '../../src/worker/api';

// comlink over a Node MessageChannel: the same protocol the browser worker speaks.
function connect(): { api: Remote<FairgroundApi>; close: () => void } {
  const { port1, port2 } = new MessageChannel();
  // biome-ignore lint/suspicious/noExplicitAny: Node's MessagePort is structurally compatible with comlink's Endpoint.
  expose(new FairgroundApi(), port1 as any);
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

describe('toy engine', () => {
  it('is deterministic and one step is one decision', () => {
    const a = new ToyEngine(3);
    const b = new ToyEngine(3);
    const da = Array.from({ length: 50 }, () => a.step());
    const db = Array.from({ length: 50 }, () => b.step());
    expect(da).toEqual(db);
    expect(a.snapshot().decisions).toBe(50);
    for (let i = 1; i < da.length; i++) expect(da[i].t).toBeGreaterThanOrEqual(da[i - 1].t);
  });
  it('reset returns to t = 0 and replays identically', () => {
    const e = new ToyEngine(8);
    const first = Array.from({ length: 10 }, () => e.step());
    e.reset();
    expect(e.snapshot().sim_time_s).toBe(0);
    expect(Array.from({ length: 10 }, () => e.step())).toEqual(first);
  });
});

describe('worker API over a MessageChannel', () => {
  it('loads, steps, runs until a time and snapshots', async () => {
    const { api, close } = connect();
    closeLast = close;
    const res = await api.load('version: 1\nname: channel test\nseed: 4\n');
    expect(res).toMatchObject({ ok: true, name: 'channel test' });
    const frame = await api.step(3);
    expect(frame.decisions).toHaveLength(3);
    expect(frame.snapshot.decisions).toBe(3);
    const later = await api.runUntil(50);
    expect(later.snapshot.sim_time_s).toBeGreaterThanOrEqual(50);
    await api.reset();
    expect((await api.snapshot()).decisions).toBe(0);
  });

  it('reports positioned problems for bad YAML and keeps the previous session', async () => {
    const { api, close } = connect();
    closeLast = close;
    await api.load('version: 1\nname: good\nseed: 1\n');
    await api.step(2);
    const bad = await api.load('name: [unclosed\n');
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.problems[0].line).toBeGreaterThanOrEqual(1);
      expect(bad.problems[0].col).toBeGreaterThanOrEqual(1);
    }
    expect((await api.snapshot()).decisions).toBe(2);
  });

  it('advance respects its decision budget', async () => {
    const { api, close } = connect();
    closeLast = close;
    await api.load('version: 1\nname: budget\nseed: 2\n');
    const f = await api.advance({ decisions: 7 });
    expect(f.decisions.map((d) => d.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
