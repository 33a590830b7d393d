import { describe, expect, it } from 'vitest';
import { DEFAULT_DECODE_TOKENS, PrebleRouter, WINDOW_S } from '../../../src/core/algorithms/preble/policy';
import { chosen, concat, fakeWorker, range, req, view } from './helpers';

describe('Preble E2', () => {
  it('explores (least loaded overall) when at most half the prompt is cached, exploits otherwise', () => {
    const ws = [fakeWorker(0), fakeWorker(1), fakeWorker(2)];
    const v = view(ws);
    const p = new PrebleRouter({ workers: 3, rebalance: false, imbalance: 1.5 });
    const doc = range(0, 40);
    const r1 = req('r1', concat(doc, range(500, 8)));
    expect(p.route(r1, v)).toMatchObject({
      worker: 0,
      detail: { mode: 'explore', matchedFraction: 0, loads: [0, 0, 0] },
    });
    p.onDispatch(r1, 0, v); // w0: 48 missed prefill tokens
    // 40 of 48 tokens held by w0: exploit, although w0 is the most loaded
    const r2 = req('r2', concat(doc, range(600, 8)));
    const e = p.route(r2, v);
    expect(chosen(e)).toBe(0);
    expect(e).toMatchObject({
      detail: { mode: 'exploit', holders: [0], matchedTokens: 40, loads: [48, 0, 0] },
    });
    p.onDispatch(r2, 0, v); // only 8 missed
    // a request sharing only 8 of 40 tokens explores: least loaded overall is w1 (tie with w2 → lowest id)
    const r3 = req('r3', concat(doc.subarray(0, 8), range(700, 32)));
    expect(p.route(r3, v)).toMatchObject({ worker: 1, detail: { mode: 'explore', loads: [56, 0, 0] } });
  });

  it('load counts running requests × the median decode length, and forgets prefill older than the window', () => {
    const ws = [fakeWorker(0, { runningCount: 2 }), fakeWorker(1)];
    const v = view(ws);
    const p = new PrebleRouter({ workers: 2, rebalance: false, imbalance: 1.5 });
    expect(p.loads(v)).toEqual([2 * DEFAULT_DECODE_TOKENS, 0]);
    for (const out of [10, 30, 20]) p.onComplete(req('x', range(0, 4), 0, out));
    expect(p.medianDecodeTokens()).toBe(20);
    p.onDispatch(req('y', range(0, 100)), 1, v);
    expect(p.loads(v)).toEqual([40, 100]);
    v.now = WINDOW_S + 1;
    expect(p.loads(v)).toEqual([40, 0]);
  });

  it('rebalances an exploit choice away from the heaviest worker when it exceeds 1.5× the lightest', () => {
    const ws = [fakeWorker(0), fakeWorker(1)];
    const v = view(ws);
    const doc = range(0, 40);
    for (const rebalance of [false, true]) {
      const p = new PrebleRouter({ workers: 2, rebalance, imbalance: 1.5 });
      p.onDispatch(req('a', concat(doc, range(100, 4))), 0, v); // w0 load 44
      p.onDispatch(req('b', range(9000, 20)), 1, v); // w1 load 20: 44 > 1.5 × 20
      const out = p.route(req('c', concat(doc, range(200, 4))), v);
      expect(out).toMatchObject({
        worker: rebalance ? 1 : 0,
        detail: { mode: 'exploit', rebalanced: rebalance },
      });
    }
    const p = new PrebleRouter({ workers: 2, rebalance: true, imbalance: 3 });
    p.onDispatch(req('a', concat(doc, range(100, 4))), 0, v);
    p.onDispatch(req('b', range(9000, 20)), 1, v); // 44 < 3 × 20: stays
    expect(chosen(p.route(req('c', concat(doc, range(200, 4))), v))).toBe(0);
  });
});
