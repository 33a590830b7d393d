import { describe, expect, it } from 'vitest';
import { FRAME_MAX_BYTES, type FrameMeta, packFrame, unpackFrame } from '../../../src/worker/frame';
import type { SessionDecision } from '../../../src/worker/session';
import { burstScript, clusterSnapshot, sessionSnapshot } from '../views/fixtures';

const meta: FrameMeta = {
  sim_time_s: 1.5,
  decision_count: 7,
  done: false,
  total_steps: 16,
  replace_log: true,
  reach: 9,
};
const decision = (seq: number, extra = ''): SessionDecision => ({
  seq,
  t: seq / 10,
  kind: 'pop',
  summary: `d${seq}${extra}`,
});

describe('frame packing', () => {
  it('round-trips header, snapshot and decisions', () => {
    const snap = sessionSnapshot(burstScript(), 9);
    const f = unpackFrame(packFrame(meta, snap, [decision(5), decision(6)]));
    expect(f).toMatchObject({ ...meta, snapshot: snap, truncated: false });
    expect(f.decisions.map((d) => d.seq)).toEqual([5, 6]);
  });

  it('encodes an unknown total as null and done as a boolean', () => {
    const f = unpackFrame(
      packFrame({ ...meta, total_steps: null, done: true, replace_log: false }, null, []),
    );
    expect(f.total_steps).toBeNull();
    expect(f.done).toBe(true);
    expect(f.replace_log).toBe(false);
  });

  it('stays within the byte budget, dropping the oldest decisions first', () => {
    const many = Array.from({ length: 5000 }, (_, i) => decision(i, 'x'.repeat(100)));
    const small = sessionSnapshot(burstScript(), 1);
    const buf = packFrame(meta, small, many);
    expect(buf.byteLength).toBeLessThanOrEqual(FRAME_MAX_BYTES);
    const f = unpackFrame(buf);
    expect(f.decisions.length).toBeGreaterThan(0);
    expect(f.decisions[f.decisions.length - 1].seq).toBe(4999);
    expect(f.snapshot).toEqual(small);
    expect(f.truncated).toBe(false);
  });

  it('shortens a huge snapshot and marks it truncated, keeping the newest samples', () => {
    const snap = clusterSnapshot();
    const n = 100_000;
    snap.series.t = Array.from({ length: n }, (_, i) => i * 0.5);
    snap.series.rows['service:alice'] = Array.from({ length: n }, (_, i) => i * 1.25);
    const buf = packFrame(meta, snap, [decision(1)], 64 * 1024);
    expect(buf.byteLength).toBeLessThanOrEqual(64 * 1024);
    const f = unpackFrame(buf);
    expect(f.truncated).toBe(true);
    if (f.snapshot?.kind !== 'cluster') throw new Error('expected a cluster snapshot');
    const { t, rows } = f.snapshot.series;
    expect(t.at(-1)).toBe((n - 1) * 0.5);
    expect(rows['service:alice'].at(-1)).toBe((n - 1) * 1.25);
    expect(rows['service:alice']).toHaveLength(t.length);
    // what was short stays whole
    expect(f.snapshot.clients).toEqual(snap.clients);
    expect(f.snapshot.workers[0].radix.top).toEqual(snap.workers[0].radix.top);
  });

  it('leaves the snapshot out when even a shortened one does not fit', () => {
    const snap = clusterSnapshot();
    snap.scenario = 'x'.repeat(100_000);
    const f = unpackFrame(packFrame(meta, snap, [decision(1)], 64 * 1024));
    expect(f.snapshot).toBeNull();
    expect(f.sim_time_s).toBe(meta.sim_time_s);
  });

  it('rejects a buffer that is not a frame', () => {
    expect(() => unpackFrame(new ArrayBuffer(8))).toThrow();
    expect(() => unpackFrame(new ArrayBuffer(128))).toThrow(/not a Fairground frame/);
  });
});
