import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/prng';
import { KvAwareRouter } from '../../../src/core/algorithms/kv-aware/policy';
import { LeastLoadedRouter } from '../../../src/core/algorithms/least-loaded/policy';
import { PerClientRoundRobinRouter } from '../../../src/core/algorithms/per-client-rr/policy';
import { PullRouter } from '../../../src/core/algorithms/pull/policy';
import { RandomRouter } from '../../../src/core/algorithms/random/policy';
import { createRouterPolicy, ROUTING_NAMES } from '../../../src/core/algorithms';
import { chosen, concat, fakeWorker, range, req, view } from './helpers';

describe('router registry', () => {
  it('implements every routing the scenario format names', () => {
    expect([...ROUTING_NAMES]).toEqual([
      'round-robin',
      'random',
      'least-loaded',
      'pull',
      'per-client-rr',
      'preble',
      'doubleq',
      'kv-aware',
    ]);
    const cfg = { workers: 2, clients: ['a'], weights: { input: 1, output: 2 }, router: {} };
    for (const name of [...ROUTING_NAMES]) expect(createRouterPolicy(name, cfg).name).toBe(name);
  });
});

describe('random', () => {
  it('draws uniformly from the view’s seeded stream', () => {
    const v = view(
      [0, 1, 2].map((i) => fakeWorker(i)),
      9,
    );
    const r = new RandomRouter();
    const got = Array.from({ length: 12 }, (_, i) => chosen(r.route(req(`r${i}`, range(0, 8)), v)));
    const ref = new Rng(9);
    expect(got).toEqual(Array.from({ length: 12 }, () => ref.int(3)));
    expect(new Set(got)).toEqual(new Set([0, 1, 2]));
  });
});

describe('least-loaded', () => {
  const ws = () => [
    fakeWorker(0, { waitingCount: 2, runningCount: 1 }),
    fakeWorker(1, { waitingCount: 0, runningCount: 3 }),
    fakeWorker(2, { waitingCount: 1, runningCount: 0 }),
  ];
  it('counts queued + running by default, queued only when asked', () => {
    expect(chosen(new LeastLoadedRouter(true).route(req('a', range(0, 8)), view(ws())))).toBe(2);
    expect(chosen(new LeastLoadedRouter(false).route(req('a', range(0, 8)), view(ws())))).toBe(1);
  });
  it('breaks ties by the lowest worker id', () => {
    const v = view([fakeWorker(0, { waitingCount: 1 }), fakeWorker(1), fakeWorker(2)]);
    expect(chosen(new LeastLoadedRouter(true).route(req('a', range(0, 8)), v))).toBe(1);
  });
});

describe('per-client round-robin', () => {
  it('cycles each client over the workers from its own starting point', () => {
    const r = new PerClientRoundRobinRouter(3);
    const v = view([0, 1, 2].map((i) => fakeWorker(i)));
    const seq = [0, 1, 0, 0, 1, 2, 0].map((c, i) => chosen(r.route(req(`r${i}`, range(0, 8), c))));
    // client 0: 0, 1, 2, 0 · client 1: 1, 2 · client 2: 2
    expect(seq).toEqual([0, 1, 1, 2, 2, 2, 0]);
    expect(v.workers.length).toBe(3);
  });
});

describe('pull', () => {
  it('holds while no worker has room, then takes the roomy worker with the fewest running', () => {
    const ws = [
      fakeWorker(0, { waitingCount: 1 }),
      fakeWorker(1, { runningCount: 8, maxRunning: 8 }),
      fakeWorker(2, { activePrefillTokens: 1000, maxBatchTokens: 1000 }),
    ];
    const r = new PullRouter();
    const v = view(ws);
    expect(r.route(req('a', range(0, 8)), v)).toMatchObject({ hold: true });
    ws[1].runningCount = 5;
    ws[2].activePrefillTokens = 10;
    ws[2].runningCount = 6;
    expect(chosen(r.route(req('a', range(0, 8)), v))).toBe(1);
    ws[2].runningCount = 5;
    expect(chosen(r.route(req('a', range(0, 8)), v))).toBe(1); // tie: lowest id
    ws[0].waitingCount = 0;
    expect(chosen(r.route(req('a', range(0, 8)), v))).toBe(0);
  });
});

describe('kv-aware', () => {
  it('trades prefix overlap (blocks) against load (active prefill blocks + decode blocks)', () => {
    const doc = range(100, 32); // 8 blocks of 4
    const ws = [fakeWorker(0, { activePrefillTokens: 40 }), fakeWorker(1)];
    ws[0].radix.insert(doc, 32, 0);
    ws[0].kv = { freeBlocks: 1000 - 8, totalBlocks: 1000 }; // the tree's 8 blocks: no decode blocks
    ws[1].kv = { freeBlocks: 1000 - 3, totalBlocks: 1000 }; // 3 private blocks
    const r = req('q', concat(doc, range(900, 6)));
    // weight 1: w0 = 8 − 10 = −2, w1 = 0 − 3 = −3 → w0
    expect(chosen(new KvAwareRouter(1).route(r, view(ws)))).toBe(0);
    // more prefill on w0: w0 = 8 − 20 = −12 → w1
    ws[0].activePrefillTokens = 80;
    expect(chosen(new KvAwareRouter(1).route(r, view(ws)))).toBe(1);
    // overlap weighted 3: w0 = 24 − 20 = 4 → w0
    const out = new KvAwareRouter(3).route(r, view(ws));
    expect(chosen(out)).toBe(0);
    expect(out).toMatchObject({
      detail: { overlap_blocks: [8, 0], loads: [20, 3], scores: [4, -3], chosen: 0 },
    });
  });
  it('ties go to the lowest worker id and the fast path builds no detail', () => {
    const out = new KvAwareRouter(1).route(
      req('q', range(0, 9)),
      view([fakeWorker(0), fakeWorker(1)], 1, false),
    );
    expect(out).toEqual({ worker: 0 });
  });
});
