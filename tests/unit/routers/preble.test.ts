import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DECODE_TOKENS,
  PREBLE_SEED_TPOT_S,
  PREBLE_WINDOW_S,
  PrebleRouter,
} from '../../../src/core/algorithms/preble/policy';
import { GPUS, MODELS, prefillTimeS } from '../../../src/core/cost';
import { SimRequest } from '../../../src/core/sim/request';
import { chosen, concat, fakeWorker, range, req, view } from './helpers';

const A100 = GPUS['a100-80gb'];
const LLAMA = MODELS['llama-3.1-8b'];
let serial = 1_000_000;
/** A request that asks for at most `maxNew` output tokens (what Preble's load reads). */
function ask(id: string, tokens: Int32Array, maxNew: number, out = maxNew): SimRequest {
  return new SimRequest(
    {
      id,
      client: 'c0',
      tokens,
      outputTokens: out,
      maxNewTokens: maxNew,
      sloClass: 'standard',
      program: id,
      node: 'n',
    },
    0,
    serial++,
    0,
  );
}

describe('Preble E2 (token load, the earlier estimate)', () => {
  it('explores (least loaded overall) when at most half the prompt is cached, exploits otherwise', () => {
    const ws = [fakeWorker(0), fakeWorker(1), fakeWorker(2)];
    const v = view(ws);
    const p = new PrebleRouter({ workers: 3, rebalance: false, imbalance: 1.5, load: 'tokens' });
    const doc = range(0, 40);
    const r1 = req('r1', concat(doc, range(500, 8)));
    expect(p.route(r1, v)).toMatchObject({
      worker: 0,
      detail: { mode: 'explore', matched_fraction: 0, loads: [0, 0, 0] },
    });
    p.onDispatch(r1, 0, v); // w0: 48 missed prefill tokens
    // 40 of 48 tokens held by w0: exploit, although w0 is the most loaded
    const r2 = req('r2', concat(doc, range(600, 8)));
    const e = p.route(r2, v);
    expect(chosen(e)).toBe(0);
    expect(e).toMatchObject({
      detail: { mode: 'exploit', holders: [0], matched_tokens: 40, loads: [48, 0, 0] },
    });
    p.onDispatch(r2, 0, v); // only 8 missed
    // a request sharing only 8 of 40 tokens explores: least loaded overall is w1 (tie with w2 → lowest id)
    const r3 = req('r3', concat(doc.subarray(0, 8), range(700, 32)));
    expect(p.route(r3, v)).toMatchObject({ worker: 1, detail: { mode: 'explore', loads: [56, 0, 0] } });
  });

  it('load counts running requests × the median decode length, and forgets prefill older than the window', () => {
    const ws = [fakeWorker(0, { runningCount: 2 }), fakeWorker(1)];
    const v = view(ws);
    const p = new PrebleRouter({ workers: 2, rebalance: false, imbalance: 1.5, load: 'tokens' });
    expect(p.loads(v)).toEqual([2 * DEFAULT_DECODE_TOKENS, 0]);
    for (const out of [10, 30, 20]) p.onComplete(req('x', range(0, 4), 0, out), 0, v);
    expect(p.medianDecodeTokens()).toBe(20);
    p.onDispatch(req('y', range(0, 100)), 1, v);
    expect(p.loads(v)).toEqual([40, 100]);
    v.now = PREBLE_WINDOW_S + 1;
    expect(p.loads(v)).toEqual([40, 0]);
  });

  it('rebalances an exploit choice away from the heaviest worker when it exceeds 1.5× the lightest', () => {
    const ws = [fakeWorker(0), fakeWorker(1)];
    const v = view(ws);
    const doc = range(0, 40);
    for (const rebalance of [false, true]) {
      const p = new PrebleRouter({ workers: 2, rebalance, imbalance: 1.5, load: 'tokens' });
      p.onDispatch(req('a', concat(doc, range(100, 4))), 0, v); // w0 load 44
      p.onDispatch(req('b', range(9000, 20)), 1, v); // w1 load 20: 44 > 1.5 × 20
      const out = p.route(req('c', concat(doc, range(200, 4))), v);
      expect(out).toMatchObject({
        worker: rebalance ? 1 : 0,
        detail: { mode: 'exploit', rebalanced: rebalance },
      });
    }
    const p = new PrebleRouter({ workers: 2, rebalance: true, imbalance: 3, load: 'tokens' });
    p.onDispatch(req('a', concat(doc, range(100, 4))), 0, v);
    p.onDispatch(req('b', range(9000, 20)), 1, v); // 44 < 3 × 20: stays
    expect(chosen(p.route(req('c', concat(doc, range(200, 4))), v))).toBe(0);
  });
});

describe("Preble's time-based load (the default)", () => {
  it('prefill time of missed tokens in a 180 s window + outstanding × max_new_tokens × the median TPOT', () => {
    const ws = [fakeWorker(0), fakeWorker(1)];
    const v = view(ws);
    const p = new PrebleRouter({ workers: 2, rebalance: false, imbalance: 1.5 });
    expect(p.load).toBe('time');
    expect(p.windowS).toBe(180);
    const doc = range(0, 96);
    // r1 (100 tokens, none held anywhere) to w0, asking for 50 output tokens
    const r1 = ask('r1', concat(doc, range(500, 4)), 50);
    p.onDispatch(r1, 0, v);
    const p1 = prefillTimeS(A100, LLAMA, 100, 0);
    // w0: prefill 100 tokens + 1 outstanding × 50 × 0.15 s (Preble's seed TPOT)
    expect(p.loads(v)).toEqual([p1 + 50 * PREBLE_SEED_TPOT_S, 0]);
    // r2 shares the 96-token document: w0 holds it, so only 8 tokens miss, after 96 cached
    const r2 = ask('r2', concat(doc, range(600, 8)), 20);
    expect(p.route(r2, v)).toMatchObject({
      worker: 0,
      detail: { mode: 'exploit', load_kind: 'time', prefill_loads: [p1, 0], decode_loads: [7.5, 0] },
    });
    p.onDispatch(r2, 0, v);
    const p2 = prefillTimeS(A100, LLAMA, 8, 96);
    expect(p.loads(v)[0]).toBeCloseTo(p1 + p2 + (50 + 20) * 0.15, 12);
    // r1 finishes: 50 tokens, first at t = 1, last at t = 6 → TPOT 5 / 49; median of [0.15, 5/49]
    r1.firstTokenT = 1;
    r1.completionT = 6;
    v.now = 6;
    p.onComplete(r1, 0, v);
    const tpot = (0.15 + 5 / 49) / 2;
    expect(p.tpot(0)).toBeCloseTo(tpot, 15);
    expect(p.loads(v)[0]).toBeCloseTo(p1 + p2 + 20 * tpot, 12);
    // 180 s after the dispatches their prefill leaves the window; r2 is still outstanding
    v.now = PREBLE_WINDOW_S + 0.5;
    expect(p.loads(v)[0]).toBeCloseTo(20 * tpot, 12);
  });

  it('a worker with long decodes outstanding loses to one that just prefilled (the token load picks the other way)', () => {
    const ws = [fakeWorker(0), fakeWorker(1)];
    const v = view(ws);
    const pick = (load: 'time' | 'tokens') => {
      const p = new PrebleRouter({ workers: 2, rebalance: false, imbalance: 1.5, load });
      // w0: ten short prompts each asking for 400 output tokens; w1: one 4,000-token prefill
      for (let i = 0; i < 10; i++) p.onDispatch(ask(`d${i}`, range(10_000 + 100 * i, 16), 400), 0, v);
      p.onDispatch(ask('big', range(50_000, 4000), 1), 1, v);
      return chosen(p.route(ask('new', range(90_000, 64), 16), v));
    };
    // time: w0 = 10 × 400 × 0.15 s = 600 s of decode, w1 ≈ 0.3 s of prefill → w1
    expect(pick('time')).toBe(1);
    // tokens: w0 = 160 missed tokens (nothing running yet), w1 = 4,000 → w0
    expect(pick('tokens')).toBe(0);
  });
});
