import { describe, expect, it } from 'vitest';
import { schedulerState } from '../../../src/core/algorithms';
import { explainDecisionText } from '../../../src/core/explain';
import type { VtcPolicy } from '../../../src/core/algorithms/vtc/policy';
import { Harness, range } from './harness';

const vtc = (h: Harness) => h.policy as VtcPolicy;

describe('VTC', () => {
  it('admits from the smallest counter, ties to the first-seen client, charging w_e per input token', () => {
    const h = new Harness({ policy: 'vtc', clients: ['a', 'b'] });
    h.add({ id: 'a1', client: 'a', tokens: range(0, 10), out: 5 });
    h.add({ id: 'a2', client: 'a', tokens: range(100, 10), out: 5 });
    h.add({ id: 'a3', client: 'a', tokens: range(200, 10), out: 5 });
    h.add({ id: 'b1', client: 'b', tokens: range(300, 30), out: 5 });
    h.step();
    // a (0, first seen) → a1, a=10; b (0) → b1, b=30; a (10) → a2, a=20; a (20 < 30) → a3
    expect(h.admitted).toEqual(['a1', 'b1', 'a2', 'a3']);
    // after the step every request produced its first token: + w_q = 2 each
    expect(vtc(h).counter(0)).toBe(30 + 3 * 2);
    expect(vtc(h).counter(1)).toBe(30 + 2);
    const d = h.detailsOf('vtc');
    expect(d[1]).toMatchObject({
      algo: 'vtc',
      counters: { a: 10, b: 0 },
      chosen_client: 'b',
      head: 'b1',
      head_fits: true,
      charge: 30,
    });
    expect(explainDecisionText({ kind: 'admit', summary: '', detail: d[1] })).toContain(
      'b has the smallest counter (0)',
    );
    // decode steps charge w_q per output token
    h.step();
    expect(vtc(h).counter(1)).toBe(30 + 2 * 2);
  });

  it('charges the whole prompt by default (the VTC artifact), only its uncached part with charge: extend', () => {
    const charged = (charge?: 'input' | 'extend') => {
      const h = new Harness({
        policy: 'vtc',
        clients: ['a', 'b'],
        ...(charge === undefined ? {} : { scheduler: { charge } }),
      });
      const doc = range(0, 40);
      h.add({ id: 'a1', client: 'a', tokens: doc, out: 1 });
      while (h.step());
      const before = vtc(h).counter(0);
      h.add({ id: 'a2', client: 'a', tokens: Int32Array.from([...doc, 7, 7, 7, 7, 7]), out: 2 });
      h.step();
      const d = h.detailsOf('vtc').at(-1);
      return { delta: vtc(h).counter(0) - before, d, charge: vtc(h).charge };
    };
    // 40 of 45 prompt tokens cached. input: charge all 45, then +2 for the first output token
    const input = charged();
    expect(input.charge).toBe('input');
    expect(input.delta).toBe(45 + 2);
    expect(input.d).toMatchObject({ charge: 45, charge_mode: 'input' });
    expect(explainDecisionText({ kind: 'admit', summary: '', detail: input.d! })).toContain('whole input');
    // extend: charge the 5 uncached tokens
    const extend = charged('extend');
    expect(extend.delta).toBe(5 + 2);
    expect(extend.d).toMatchObject({ charge: 5, charge_mode: 'extend' });
    expect(explainDecisionText({ kind: 'admit', summary: '', detail: extend.d! })).toContain('uncached');
  });

  it('lifts a client that becomes backlogged to the smallest counter among the other waiting clients', () => {
    const h = new Harness({ policy: 'vtc', clients: ['a', 'b', 'c'], maxRunning: 1 });
    h.add({ id: 'a1', client: 'a', tokens: range(0, 100), out: 50 });
    h.step(); // a1 runs alone (a = 100 + 2)
    h.add({ id: 'a2', client: 'a', tokens: range(1000, 10), out: 1 });
    // a is the only other waiting client: c is lifted to a's counter
    h.add({ id: 'c1', client: 'c', tokens: range(2000, 10), out: 1 });
    expect(vtc(h).counter(2)).toBe(102);
    // b joins too: the smallest other waiting counter is 102 (a and c)
    h.add({ id: 'b1', client: 'b', tokens: range(3000, 10), out: 1 });
    expect(vtc(h).counter(1)).toBe(102);
    // a lift never lowers a counter, and nobody else waiting means no lift
    const lone = new Harness({ policy: 'vtc', clients: ['a', 'b'] });
    lone.add({ id: 'a1', client: 'a', tokens: range(0, 10), out: 1 });
    lone.step();
    expect(vtc(lone).counter(0)).toBe(12);
    lone.add({ id: 'b1', client: 'b', tokens: range(100, 10), out: 1 });
    expect(vtc(lone).counter(1)).toBe(0);
  });

  it('records the lift in the next admission record', () => {
    const h = new Harness({ policy: 'vtc', clients: ['a', 'b'], maxRunning: 1 });
    h.add({ id: 'a1', client: 'a', tokens: range(0, 10), out: 3 });
    h.add({ id: 'a2', client: 'a', tokens: range(100, 10), out: 1 });
    h.step(); // a1 admitted: a = 10 + 2
    h.add({ id: 'b1', client: 'b', tokens: range(200, 10), out: 1 });
    while (h.step());
    const withLift = h.detailsOf('vtc').find((d) => d.lifts !== undefined);
    expect(withLift?.lifts).toEqual([{ client: 'b', from: 0, to: 12 }]);
  });

  it('head-of-line: when the chosen client’s head does not fit, nobody else is admitted', () => {
    const h = new Harness({ policy: 'vtc', clients: ['a', 'b'], kvTokens: 100 });
    h.add({ id: 'b0', client: 'b', tokens: range(0, 59), out: 30 });
    h.step(); // b = 59 + 2
    h.add({ id: 'a-big', client: 'a', tokens: range(1000, 60), out: 1 }); // a lifted? no: b has nothing waiting
    h.add({ id: 'b-small', client: 'b', tokens: range(2000, 5), out: 1 });
    h.step();
    expect(h.admitted).toEqual(['b0']); // a (0) is chosen, its head needs 60 blocks: stop
  });

  it('exposes counters for snapshots and its bound', () => {
    const h = new Harness({ policy: 'vtc', clients: ['a', 'b'], kvTokens: 1000 });
    h.add({ id: 'a1', client: 'a', tokens: range(0, 10), out: 1 });
    h.step();
    expect(h.policy.clientState?.()).toEqual({ kind: 'counter', counter: [12, 0] });
    const s = schedulerState(h.policy);
    expect(s.policy).toBe('vtc');
    expect(s.policy === 'vtc' && s.policy_state).toMatchObject({
      bound: 2 * Math.max(10, 2 * 1000),
      L_input: 10,
      M: 1000,
    });
  });
});

describe('VTC output charge (the paper charges every output token; the artifact decode steps only)', () => {
  // Hand-computed counters, w_e = 1, w_q = 2. a1: 10 prompt tokens, 3 output tokens; b1: 20 prompt
  // tokens, 1 output token. Both are admitted in step 1 (a first: equal counters, a seen first) and
  // prefill there; b1 finishes with the token its prefill produced. a1 then decodes twice.
  //   step             decode (artifact)  token (default)       finish (artifact HEAD)
  //   admission        a 10,  b 20        a 10,  b 20           a 10,  b 20
  //   end of step 1    a 10,  b 20        a 12,  b 22           a 12,  b 22   (b1 finished: both re-charged)
  //   end of step 2    a 12               a 14                  a 14
  //   end of step 3    a 14               a 16                  a 18          (a1 finished: decode + re-charge)
  // so a request with n output tokens costs n·w_q by default (6 for a1, 2 for b1), (n − 1)·w_q under
  // decode (4 for a1, 0 for b1).
  const run = (output_charge?: string) => {
    const h = new Harness({
      policy: 'vtc',
      clients: ['a', 'b'],
      ...(output_charge === undefined ? {} : { scheduler: { output_charge } }),
    });
    h.add({ id: 'a1', client: 'a', tokens: range(0, 10), out: 3 });
    h.add({ id: 'b1', client: 'b', tokens: range(100, 20), out: 1 });
    const seen: [number, number][] = [];
    while (h.step()) seen.push([vtc(h).counter(0), vtc(h).counter(1)]);
    expect(h.admitted).toEqual(['a1', 'b1']);
    return seen;
  };

  it('charges w_q per decode step, never the token that ends prefill, with output_charge: decode', () => {
    expect(run('decode')).toEqual([
      [10, 20],
      [12, 20],
      [14, 20],
    ]);
  });

  it("charges every output token, the prefill's included (default: the paper's cost)", () => {
    expect(run()).toEqual([
      [12, 22],
      [14, 22],
      [16, 22],
    ]);
    expect(run('token')).toEqual(run());
  });

  it('re-charges every request of a step in which one finishes, with output_charge: finish', () => {
    expect(run('finish')).toEqual([
      [12, 22],
      [14, 22],
      [18, 22],
    ]);
  });

  it('records the output charge in its snapshot state', () => {
    const h = new Harness({ policy: 'vtc', clients: ['a'] });
    expect(schedulerState(h.policy)).toMatchObject({ policy_state: { output_charge: 'token' } });
  });
});

describe('VTC client weights (the artifact divides every charge by the client’s fair weight)', () => {
  // w_e = 1, w_q = 2; a has weight 2, b weight 1 (the default). a1 and a2: 20 prompt tokens, 2 output
  // tokens; b1: 20 prompt tokens, 2 output tokens. Admission in step 1, equal counters, a first:
  //   a1 → a = 20 / 2 = 10; then a (10) < b (0)? no: b1 → b = 20; a (10) → a2 → a = 20; a (20) = b (20),
  //   tie to a, but a has nothing left.
  // Step 2 decodes each request once: a += 2 · 2 / 2 = 2 (two requests), b += 2: a = 22, b = 22.
  it('divides admission and decode charges by the weight; weight 1 changes nothing', () => {
    // (decode charging: the prefill's token is free, so the counters after step 1 are the admissions')
    const h = new Harness({
      policy: 'vtc',
      clients: ['a', 'b'],
      scheduler: { client_weights: { a: 2 }, output_charge: 'decode' },
    });
    h.add({ id: 'a1', client: 'a', tokens: range(0, 20), out: 2 });
    h.add({ id: 'a2', client: 'a', tokens: range(100, 20), out: 2 });
    h.add({ id: 'b1', client: 'b', tokens: range(200, 20), out: 2 });
    h.step();
    expect(h.admitted).toEqual(['a1', 'b1', 'a2']);
    expect([vtc(h).counter(0), vtc(h).counter(1)]).toEqual([20, 20]);
    const d = h.detailsOf('vtc');
    expect(d[0]).toMatchObject({ chosen_client: 'a', charge: 10, weight: 2 });
    expect(d[1].weight).toBeUndefined(); // weight 1 is not recorded
    expect(explainDecisionText({ kind: 'admit', summary: '', detail: d[0] })).toContain(
      'grows by 10 for its whole input, cached or not (charge: input, as the VTC artifact) (that is, already divided by its weight 2: client_weights)',
    );
    h.step();
    expect([vtc(h).counter(0), vtc(h).counter(1)]).toEqual([22, 22]);
    expect(schedulerState(h.policy)).toMatchObject({ policy_state: { client_weights: { a: 2 } } });
    // the same run with a's weight written as 1 is the unweighted run
    const same = (scheduler: Record<string, unknown>) => {
      const g = new Harness({ policy: 'vtc', clients: ['a', 'b'], scheduler });
      g.add({ id: 'a1', client: 'a', tokens: range(0, 20), out: 2 });
      g.add({ id: 'b1', client: 'b', tokens: range(200, 20), out: 2 });
      while (g.step());
      return [vtc(g).counter(0), vtc(g).counter(1), ...g.admitted];
    };
    expect(same({ client_weights: { a: 1 } })).toEqual(same({}));
  });

  it('gives a weight-2 client twice the service of a weight-1 client when both are backlogged', () => {
    const h = new Harness({
      policy: 'vtc',
      clients: ['a', 'b'],
      maxRunning: 1,
      scheduler: { client_weights: { a: 2 } },
    });
    for (let i = 0; i < 30; i++) {
      h.add({ id: `a${i}`, client: 'a', tokens: range(1000 * i, 10), out: 1 });
      h.add({ id: `b${i}`, client: 'b', tokens: range(1000 * i + 500, 10), out: 1 });
    }
    for (let i = 0; i < 30; i++) h.step();
    const a = h.admitted.filter((id) => id.startsWith('a')).length;
    const b = h.admitted.filter((id) => id.startsWith('b')).length;
    expect(a).toBe(2 * b);
  });
});

describe('VTC admission cadence (S-LoRA: a new batch when none runs, else every max_wait_tokens decodes)', () => {
  // a1 (20 output tokens) is admitted in step 1; b1 arrives after it. With max_wait_steps: 3, no
  // admission is tried while a1 runs until 3 steps have ended since the step that admitted: steps
  // 2, 3 and 4 skip admission and b1 goes in at step 5. By default (0) it goes in at step 2.
  const admittedAt = (scheduler: Record<string, unknown>, out: number) => {
    const h = new Harness({ policy: 'vtc', clients: ['a', 'b'], scheduler });
    h.add({ id: 'a1', client: 'a', tokens: range(0, 10), out });
    h.step();
    h.add({ id: 'b1', client: 'b', tokens: range(100, 10), out: 1 });
    for (let step = 2; step < 30; step++) {
      h.step();
      if (h.admitted.includes('b1')) return step;
    }
    return -1;
  };
  it('admits every step by default', () => {
    expect(admittedAt({}, 20)).toBe(2);
    expect(admittedAt({ max_wait_steps: 0 }, 20)).toBe(2);
  });
  it('waits max_wait_steps steps after an admission while requests run', () => {
    expect(admittedAt({ max_wait_steps: 3 }, 20)).toBe(5);
    expect(admittedAt({ max_wait_steps: 10 }, 20)).toBe(12);
  });
  it('admits at once when the running batch is empty', () => {
    // a1 has 2 output tokens: it finishes at the end of step 2, so step 3 admits b1
    expect(admittedAt({ max_wait_steps: 10 }, 2)).toBe(3);
  });
});
