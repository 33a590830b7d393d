import { describe, expect, it } from 'vitest';
import { DoubleQRouter, refillsNeeded } from '../../../src/core/algorithms/doubleq/policy';
import { chosen, concat, fakeWorker, range, req, view } from './helpers';

const make = (workers = 2, quantum = 100, charge?: 'input' | 'extend') =>
  new DoubleQRouter({
    workers,
    clients: ['c0', 'c1'],
    workerQuantum: quantum,
    weightInput: 1,
    weightOutput: 2,
    ...(charge === undefined ? {} : { charge }),
  });

describe('DoubleQ SELECTWORKER', () => {
  it('refills when no worker has credit, keeps a client on its prefix holder while credit lasts, then moves it', () => {
    const ws = [fakeWorker(0), fakeWorker(1)];
    const v = view(ws);
    const dq = make();
    const doc = range(0, 32);
    const r1 = req('r1', concat(doc, range(500, 8)));
    // nothing anywhere: one refill (q = [100, 100]), G empty, shortest queue of G_avail, tie → w0
    const a = dq.route(r1, v);
    expect(a).toMatchObject({
      worker: 0,
      detail: { g: [], g_avail: [0, 1], refills: 1, deficits: { 0: 100, 1: 100 } },
    });
    dq.onDispatch(r1, 0, v);
    ws[0].waitingCount = 3; // w0 is busier, but holds the prefix and c0 has credit there (100 − 40 = 60)
    const r2 = req('r2', concat(doc, range(600, 8)));
    const b = dq.route(r2, v);
    expect(b).toMatchObject({
      worker: 0,
      detail: { g: [0], g_avail: [0, 1], refills: 0, matched_tokens: 32 },
    });
    dq.onDispatch(r2, 0, v); // q0 = 20
    const r3 = req('r3', concat(doc, range(700, 8)));
    expect(chosen(dq.route(r3, v))).toBe(0);
    dq.onDispatch(r3, 0, v); // q0 = −20
    expect(dq.deficit(0, 0)).toBe(-20);
    // credit on the holder is gone: G ∩ G_avail empty → shortest queue of G_avail = w1
    const r4 = req('r4', concat(doc, range(800, 8)));
    const d = dq.route(r4, v);
    expect(d).toMatchObject({ worker: 1, detail: { g: [0], g_avail: [1], refills: 0, chosen: 1 } });
    dq.onDispatch(r4, 1, v); // q1 = 60; now both hold doc
    // completion charges w_q · output (8 tokens · 2)
    dq.onComplete(r1, 0);
    expect(dq.deficit(0, 0)).toBe(-36);
    // another client starts fresh: its own refill, and the shared prefix is held by both workers
    ws[1].waitingCount = 1;
    const e = dq.route(req('s1', concat(doc, range(900, 8)), 1), v);
    expect(e).toMatchObject({ worker: 1, detail: { g: [0, 1], g_avail: [0, 1], refills: 1, client: 'c1' } });
    expect(dq.describe()).toMatchObject({
      deficits: { c0: [-36, 60], c1: [100, 100] },
      refills: { c0: 1, c1: 1 },
    });
  });

  it('adds Q^w to every worker as often as needed for some deficit to turn positive', () => {
    expect(refillsNeeded(Float64Array.from([-250, -120]), 0, 2, 100)).toBe(2);
    expect(refillsNeeded(Float64Array.from([-20, 0]), 0, 2, 100)).toBe(1);
    expect(refillsNeeded(Float64Array.from([-20, 5]), 0, 2, 100)).toBe(0);
    const ws = [fakeWorker(0), fakeWorker(1)];
    const v = view(ws);
    const dq = make(2, 100);
    const big = req('big', range(0, 340));
    dq.route(big, v);
    dq.onDispatch(big, 0, v); // q = [−240, 100]
    const r = req('x', range(5000, 8));
    dq.route(r, v);
    dq.onDispatch(r, 1, v); // q = [−240, 92]
    for (let i = 0; i < 13; i++) {
      const x = req(`y${i}`, range(6000 + 100 * i, 8));
      dq.route(x, v);
      dq.onDispatch(x, 1, v);
    } // after 12: q1 = 92 − 96 = −4; the 13th route refills once: [−140, 96], then its charge: [−140, 88]
    expect(dq.deficit(0, 0)).toBe(-140);
    expect(dq.deficit(0, 1)).toBe(88);
  });

  it('forgets a prefix on a worker that evicted it', () => {
    const ws = [fakeWorker(0), fakeWorker(1)];
    const v = view(ws);
    const dq = make(2, 1000);
    const doc = range(0, 16);
    const r1 = req('r1', concat(doc, range(50, 4)));
    dq.onDispatch(r1, 1, v);
    expect(dq.route(req('r2', concat(doc, range(60, 4))), v)).toMatchObject({ detail: { g: [1] } });
    dq.onEvict(1, doc.slice(0, 12), 8); // the branch after 8 tokens is gone from w1
    expect(dq.route(req('r3', concat(doc, range(70, 4))), v)).toMatchObject({
      detail: { g: [1], matched_tokens: 8 },
    });
    dq.onEvict(1, doc.slice(0, 4), 0);
    expect(dq.route(req('r4', concat(doc, range(80, 4))), v)).toMatchObject({
      detail: { g: [], matched_tokens: 0 },
    });
  });

  it('charges the whole prompt at dispatch by default (Algorithm 2), only what the worker lacks with charge: extend', () => {
    const ws = [fakeWorker(0), fakeWorker(1)];
    const v = view(ws);
    const doc = range(0, 32);
    const run = (charge?: 'input' | 'extend') => {
      const dq = make(2, 1000, charge);
      const r1 = req('r1', concat(doc, range(500, 8)));
      dq.route(r1, v);
      dq.onDispatch(r1, 0, v); // nothing held anywhere: 40 either way → q0 = 960
      const r2 = req('r2', concat(doc, range(600, 8)));
      const d = dq.route(r2, v); // w0 holds the 32-token document
      dq.onDispatch(r2, 0, v);
      return { dq, d };
    };
    const input = run();
    expect(input.dq.charge).toBe('input');
    expect(input.dq.deficit(0, 0)).toBe(1000 - 40 - 40);
    expect(input.d).toMatchObject({ detail: { charge: 'input', charged_tokens: 40 } });
    const extend = run('extend');
    expect(extend.dq.deficit(0, 0)).toBe(1000 - 40 - 8);
    expect(extend.d).toMatchObject({ detail: { charge: 'extend', charged_tokens: 8 } });
  });
});
