import { describe, expect, it } from 'vitest';
import { FRAME_MAX_BYTES, type FrameMeta, packFrame, unpackFrame } from '../../../src/worker/frame';
import type { SessionDecision } from '../../../src/worker/session';

const meta: FrameMeta = {
  simTime: 1.5,
  decisionCount: 7,
  done: false,
  totalSteps: 16,
  replaceLog: true,
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
    const snap = { sim_time_s: 1.5, drr: { cursor: 'A', classes: [{ name: 'A', deficit: 7 }] } };
    const f = unpackFrame(packFrame(meta, snap, [decision(5), decision(6)]));
    expect(f).toMatchObject({ ...meta, snapshot: snap });
    expect(f.decisions.map((d) => d.seq)).toEqual([5, 6]);
  });

  it('encodes an unknown total as null and done as a boolean', () => {
    const f = unpackFrame(packFrame({ ...meta, totalSteps: null, done: true, replaceLog: false }, {}, []));
    expect(f.totalSteps).toBeNull();
    expect(f.done).toBe(true);
    expect(f.replaceLog).toBe(false);
  });

  it('stays within the byte budget, dropping the oldest decisions first', () => {
    const many = Array.from({ length: 5000 }, (_, i) => decision(i, 'x'.repeat(100)));
    const buf = packFrame(meta, { small: true }, many);
    expect(buf.byteLength).toBeLessThanOrEqual(FRAME_MAX_BYTES);
    const f = unpackFrame(buf);
    expect(f.decisions.length).toBeGreaterThan(0);
    expect(f.decisions[f.decisions.length - 1].seq).toBe(4999);
    expect(f.snapshot).toEqual({ small: true });
  });

  it('shortens a huge snapshot and marks it truncated', () => {
    const snap = { series: Array.from({ length: 100_000 }, (_, i) => i * 1.25) };
    const buf = packFrame(meta, snap, [decision(1)], 64 * 1024);
    expect(buf.byteLength).toBeLessThanOrEqual(64 * 1024);
    const f = unpackFrame(buf);
    expect(f.snapshot?.frame_truncated).toBe(true);
    expect((f.snapshot?.series as number[] | undefined)?.at(-1)).toBe(99_999 * 1.25);
  });

  it('rejects a buffer that is not a frame', () => {
    expect(() => unpackFrame(new ArrayBuffer(8))).toThrow();
    expect(() => unpackFrame(new ArrayBuffer(128))).toThrow(/not a Fairground frame/);
  });
});
