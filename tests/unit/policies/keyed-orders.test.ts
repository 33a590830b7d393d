import { describe, expect, it } from 'vitest';
import { GPUS, MODELS, prefillTimeS } from '../../../src/core/cost';
import type { LrsPolicy } from '../../../src/core/algorithms/lrs/policy';
import { Harness, range } from './harness';

const SLOS = ['background', 'critical', 'standard', 'critical', 'batch', 'sheddable'] as const;

/** Six single-client requests, all at t=0 unless given, ids r0..r5, distinct prompts. */
function fill(h: Harness, lens: number[], slos: readonly (typeof SLOS)[number][] = SLOS, times?: number[]) {
  lens.forEach((len, i) => {
    h.add(
      { id: `r${i}`, client: 'a', tokens: range(i * 10_000, len), out: 4, slo: slos[i] },
      times?.[i] ?? 0,
    );
  });
}

describe('priority-fcfs, reverse-priority, sjf (BLIS)', () => {
  it('priority-fcfs: SLO priority ascending, then arrival, then id', () => {
    const h = new Harness({ policy: 'priority-fcfs' });
    fill(h, [10, 10, 10, 10, 10, 10], SLOS, [0, 0.2, 0, 0.1, 0, 0]);
    h.step();
    // critical r3 (t=0.1) before critical r1 (t=0.2); standard r2; batch r4; sheddable r5; background r0
    expect(h.admitted).toEqual(['r3', 'r1', 'r2', 'r4', 'r5', 'r0']);
  });

  it('priority-fcfs: equal priority and arrival fall back to the id', () => {
    const h = new Harness({ policy: 'priority-fcfs' });
    for (const id of ['c', 'a', 'b'])
      h.add({ id, client: 'a', tokens: range(id.charCodeAt(0) * 100, 5), out: 1 });
    h.step();
    expect(h.admitted).toEqual(['a', 'b', 'c']);
  });

  it('reverse-priority: least urgent first', () => {
    const h = new Harness({ policy: 'reverse-priority' });
    fill(h, [10, 10, 10, 10, 10, 10], SLOS, [0, 0.2, 0, 0.1, 0, 0]);
    h.step();
    expect(h.admitted).toEqual(['r0', 'r5', 'r4', 'r2', 'r3', 'r1']);
  });

  it('sjf: shortest prompt first, priority ignored, ties by arrival', () => {
    const h = new Harness({ policy: 'sjf' });
    fill(h, [30, 10, 20, 10, 50, 5], SLOS, [0, 0.5, 0, 0.1, 0, 0]);
    h.step();
    expect(h.admitted).toEqual(['r5', 'r3', 'r1', 'r2', 'r0', 'r4']);
  });

  it('head-of-line: when the head does not fit, nothing behind it is admitted', () => {
    // 100 KV tokens; a running request holds 60; the head needs 50; a 10-token request would fit
    const h = new Harness({ policy: 'priority-fcfs', kvTokens: 100 });
    h.add({ id: 'big-runner', client: 'a', tokens: range(0, 59), out: 30, slo: 'critical' });
    h.step();
    h.add({ id: 'head', client: 'a', tokens: range(1000, 50), out: 2, slo: 'critical' });
    h.add({ id: 'small', client: 'a', tokens: range(2000, 10), out: 2, slo: 'background' });
    h.step();
    expect(h.admitted).toEqual(['big-runner']);
    expect(h.policy.waiting(10).map((r) => r.id)).toEqual(['head', 'small']);
  });

  it('a preempted request re-enters at its key, not at the front', () => {
    const h = new Harness({ policy: 'sjf', maxRunning: 1 });
    h.add({ id: 'long', client: 'a', tokens: range(0, 40), out: 2 });
    h.step(); // long runs
    h.add({ id: 'short', client: 'a', tokens: range(500, 5), out: 2 });
    h.w.enqueue(h.request({ id: 'mid', client: 'a', tokens: range(900, 20), out: 2 }), h.now, true);
    expect(h.policy.waiting(5).map((r) => r.id)).toEqual(['short', 'mid']);
  });

  it('sjf starves a long prompt while short ones keep coming; fcfs does not', () => {
    const run = (policy: string) => {
      const h = new Harness({ policy, maxRunning: 2 });
      const arrivals = [{ t: 0, id: 'long', client: 'a', tokens: range(0, 2000), out: 8 }];
      // a short request every 10 ms for 2 s, each decoding 40 tokens: two always compete
      for (let i = 0; i < 200; i++)
        arrivals.push({
          t: 0.001 + i * 0.01,
          id: `s${i}`,
          client: 'a',
          tokens: range(10_000 + i * 100, 20),
          out: 40,
        });
      arrivals.unshift({ t: 0, id: 'first', client: 'a', tokens: range(50_000, 20), out: 40 });
      arrivals.unshift({ t: 0, id: 'second', client: 'a', tokens: range(60_000, 20), out: 40 });
      h.run(arrivals);
      return h.admitted.indexOf('long');
    };
    const sjf = run('sjf');
    const fcfs = run('fcfs');
    expect(fcfs).toBeLessThan(3);
    expect(sjf).toBeGreaterThan(150); // it waited for (nearly) every short request
  });
});

describe('EDF and LRS (Vajra)', () => {
  const gpu = GPUS['a100-80gb'];
  const model = MODELS['llama-3.1-8b'];
  const budget = (len: number) => Math.max(1.5 * prefillTimeS(gpu, model, len, 0), 0.5);

  it('EDF: deadline = arrival + max(1.5 × predicted prefill, 0.5 s), earliest first', () => {
    const longLen = 8000;
    expect(budget(longLen)).toBeGreaterThan(0.5); // the long prompt gets more than the minimum
    expect(budget(100)).toBe(0.5);
    const h = new Harness({ policy: 'edf' });
    // deadlines: long 0 + budget(8000); late 0.3 + 0.5; early 0.2 + 0.5
    h.add({ id: 'long', client: 'a', tokens: range(0, longLen), out: 2 }, 0);
    h.add({ id: 'late', client: 'a', tokens: range(20_000, 100), out: 2 }, 0.3);
    h.add({ id: 'early', client: 'a', tokens: range(30_000, 100), out: 2 }, 0.2);
    const expected = [
      ['long', budget(longLen)],
      ['late', 0.8],
      ['early', 0.7],
    ] as const;
    const sorted = [...expected].sort((x, y) => x[1] - y[1]).map((x) => x[0]);
    expect(h.policy.waiting(5).map((r) => r.id)).toEqual(sorted);
    h.step();
    expect(h.admitted).toEqual(sorted);
    const d = h.admitDetails()[0];
    expect(d.algo).toBe('edf');
  });

  it('LRS: least normalised slack first, and the order changes with time', () => {
    const longLen = 8000;
    const R = prefillTimeS(gpu, model, longLen, 0);
    const r2 = prefillTimeS(gpu, model, 100, 0);
    const slackLong = (now: number) => (budget(longLen) - now - R) / budget(longLen);
    const slackShort = (now: number) => (0.5 - now - r2) / 0.5;
    // at t=0 the long prompt has less slack; far enough in the future the short one has less
    expect(slackLong(0)).toBeLessThan(slackShort(0));
    expect(slackLong(3)).toBeGreaterThan(slackShort(3));
    for (const [now, first] of [
      [0, 'long'],
      [3, 'short'],
    ] as const) {
      const h = new Harness({ policy: 'lrs', maxRunning: 1 });
      h.add({ id: 'long', client: 'a', tokens: range(0, longLen), out: 2 }, 0);
      h.add({ id: 'short', client: 'a', tokens: range(20_000, 100), out: 2 }, 0);
      h.now = now;
      h.step();
      expect(h.admitted).toEqual([first]);
      expect((h.policy as LrsPolicy).slack(h.w.running[0], now)).toBeCloseTo(
        first === 'long' ? slackLong(now) : slackShort(now),
        9,
      );
    }
    // EDF orders the same pair the other way round at t=0 (deadline 0.5 beats budget(8000) > 0.5)
    const e = new Harness({ policy: 'edf', maxRunning: 1 });
    e.add({ id: 'long', client: 'a', tokens: range(0, longLen), out: 2 }, 0);
    e.add({ id: 'short', client: 'a', tokens: range(20_000, 100), out: 2 }, 0);
    e.step();
    expect(e.admitted).toEqual(['short']);
  });
});
