import { describe, expect, it } from 'vitest';
import { schedulerState } from '../../../src/core/algorithms';
import { explainDecisionText } from '../../../src/core/explain';
import { type DlpmPolicy, dlpmImplementation } from '../../../src/core/algorithms/dlpm/policy';
import { concat, Harness, range } from './harness';

const dlpm = (h: Harness) => h.policy as DlpmPolicy;

describe('DLPM (Algorithm 1)', () => {
  it('scans in prefix order, skips clients without deficit, refills when no waiting client has credit', () => {
    const h = new Harness({ policy: 'dlpm', clients: ['a', 'b'], quantum: 20 });
    for (const id of ['a1', 'a2', 'a3'])
      h.add({ id, client: 'a', tokens: range(id.charCodeAt(1) * 100, 10), out: 5 });
    h.add({ id: 'b1', client: 'b', tokens: range(900, 10), out: 5 });
    h.step();
    // pass 1: a1 meets q_a = 0 → CHECKREFILL fires (nobody waiting has credit): a, b get 20.
    //   a1 admitted (a: 20 → 10), a2 admitted (10 → 0), a3 skipped (b still has credit, no refill),
    //   b1 admitted (b: 20 → 10).
    // pass 2: a3 meets q_a = 0 → CHECKREFILL fires (a is the only waiting client): a gets 20 (b has 10
    //   > 0 and keeps it); a3 admitted (a: 20 → 10).
    expect(h.admitted).toEqual(['a1', 'a2', 'b1', 'a3']);
    expect(dlpm(h).refills).toBe(2);
    // after the step: every request produced its first token, w_q = 2 each
    expect(dlpm(h).deficit(0)).toBe(10 - 3 * 2);
    expect(dlpm(h).deficit(1)).toBe(10 - 2);
    h.step(); // decodes
    expect(dlpm(h).deficit(0)).toBe(4 - 3 * 2);
    expect(h.policy.clientState?.()).toEqual({ kind: 'deficit', deficit: [-2, 6] });
  });

  it('explains itself: skipped clients, the refill and who got it, the charge', () => {
    const h = new Harness({ policy: 'dlpm', clients: ['a', 'b'], quantum: 20 });
    for (const id of ['a1', 'a2', 'a3'])
      h.add({ id, client: 'a', tokens: range(id.charCodeAt(1) * 100, 10), out: 5 });
    h.add({ id: 'b1', client: 'b', tokens: range(900, 10), out: 5 });
    h.step();
    const d = h.detailsOf('dlpm');
    expect(d.length).toBe(h.admitDetails().length);
    expect(d[0]).toMatchObject({
      algo: 'dlpm',
      quantum: 20,
      refill: { quantum: 20, clients: ['a', 'b'] },
      admitted: ['a1'],
      skipped: [],
    });
    expect(d[0].order).toEqual([
      { request: 'a1', client: 'a', prefix_match: 0, deficit: 20, outcome: 'admitted', charge: 10 },
      { request: 'a2', client: 'a', prefix_match: 0, deficit: 20, outcome: 'not-reached' },
      { request: 'a3', client: 'a', prefix_match: 0, deficit: 20, outcome: 'not-reached' },
      { request: 'b1', client: 'b', prefix_match: 0, deficit: 20, outcome: 'not-reached' },
    ]);
    // b1's record tells that a3 was passed over for a's deficit of 0 (a1 and a2 were admitted before)
    expect(d[2]).toMatchObject({
      admitted: ['b1'],
      skipped: [{ client: 'a', deficit: 0 }],
      scan_position: 3,
      pass: 0,
    });
    expect(d[2].order).toEqual([
      { request: 'a1', client: 'a', prefix_match: 0, deficit: 20 },
      { request: 'a2', client: 'a', prefix_match: 0, deficit: 10 },
      { request: 'a3', client: 'a', prefix_match: 0, deficit: 0, outcome: 'no-deficit' },
      { request: 'b1', client: 'b', prefix_match: 0, deficit: 20, outcome: 'admitted', charge: 10 },
    ]);
    expect(d[3]).toMatchObject({ admitted: ['a3'], refill: { quantum: 20, clients: ['a'] }, pass: 1 });
    // the explainer reads them as they are
    const text = explainDecisionText({ kind: 'admit', summary: '', detail: d[2] });
    expect(text).toContain('a is skipped: its deficit is 0');
    expect(text).toContain('b1 (b) is admitted');
    const refill = explainDecisionText({ kind: 'admit', summary: '', detail: d[3] });
    expect(refill).toContain('Refill');
    expect(refill).toContain('a3 (a) is admitted');
  });

  it('a refused try keeps the skipped clients and refills for the next admission record', () => {
    // The notes are what the scan passed over since the previous admission record; a refused try
    // writes no record, so what was noted before it belongs to the next admission's. Both the
    // reference and the live policy.
    for (const reference of [true, false]) {
      dlpmImplementation.reference = reference;
      try {
        const h = new Harness({ policy: 'dlpm', clients: ['a', 'b', 'c'], quantum: 20, kvTokens: 160 });
        // first step: one CHECKREFILL gives a, b and c 20; c's longer prompt takes c below 0
        h.add({ id: 'a0', client: 'a', tokens: range(100, 5), out: 1 });
        h.add({ id: 'b0', client: 'b', tokens: range(200, 5), out: 1 });
        h.add({ id: 'c0', client: 'c', tokens: range(300, 30), out: 1 });
        while (h.step());
        const d = h.detailsOf('dlpm');
        expect(d.map((x) => x.refill?.clients)).toEqual([['a', 'b', 'c'], undefined, undefined]);
        expect([0, 1, 2].map((c) => dlpm(h).deficit(c))).toEqual([13, 13, -12]);
        // c1 is skipped (a and b have credit: no refill), a1 does not fit the KV cache at all and
        // is refused, b1 is admitted: its record names c as skipped
        h.add({ id: 'c1', client: 'c', tokens: range(400, 5), out: 1 });
        h.add({ id: 'a1', client: 'a', tokens: range(500, 400), out: 1 });
        h.add({ id: 'b1', client: 'b', tokens: range(600, 5), out: 1 });
        h.step();
        const last = h.detailsOf('dlpm').at(-1);
        expect(last).toMatchObject({ admitted: ['b1'], skipped: [{ client: 'c', deficit: -12 }] });
        // a refill before a refused try: a1 and b1 meet a and b at ≤ 0 with nobody in credit
        const g = new Harness({ policy: 'dlpm', clients: ['a', 'b'], quantum: 20, kvTokens: 160 });
        g.add({ id: 'a1', client: 'a', tokens: range(500, 400), out: 1 });
        g.add({ id: 'b1', client: 'b', tokens: range(600, 5), out: 1 });
        g.step();
        expect(g.detailsOf('dlpm')).toMatchObject([
          { admitted: ['b1'], refill: { quantum: 20, clients: ['a', 'b'] }, skipped: [] },
        ]);
      } finally {
        dlpmImplementation.reference = false;
      }
    }
  });

  it('longest prefix first within the deficit rule', () => {
    const h = new Harness({ policy: 'dlpm', clients: ['a', 'b'], quantum: 1000 });
    const doc = range(0, 40);
    h.add({ id: 'warm', client: 'b', tokens: doc, out: 1 });
    while (h.step());
    h.admitted.length = 0;
    h.add({ id: 'a1', client: 'a', tokens: range(500, 10), out: 1 });
    h.add({ id: 'b1', client: 'b', tokens: concat(doc, range(700, 10)), out: 1 });
    h.step();
    expect(h.admitted).toEqual(['b1', 'a1']);
  });

  it('skips a request that does not fit and keeps scanning (unlike LPM’s head-of-line stop)', () => {
    for (const [policy, expected] of [
      ['dlpm', ['small']],
      ['lpm', []],
    ] as const) {
      const h = new Harness({ policy, clients: ['a', 'b'], kvTokens: 100, quantum: 1000 });
      h.add({ id: 'runner', client: 'b', tokens: range(0, 59), out: 30 });
      h.step();
      h.admitted.length = 0;
      h.add({ id: 'big', client: 'a', tokens: range(1000, 60), out: 1 });
      h.add({ id: 'small', client: 'b', tokens: range(2000, 5), out: 1 });
      h.step();
      expect(h.admitted).toEqual(expected);
    }
  });

  it('a new client starts at 0 and idle clients are refilled only up to one quantum', () => {
    const h = new Harness({ policy: 'dlpm', clients: ['a', 'b', 'c'], quantum: 20 });
    h.add({ id: 'c0', client: 'c', tokens: range(9000, 5), out: 1 });
    while (h.step()); // c is now in the client list, idle
    for (let i = 0; i < 6; i++) h.add({ id: `a${i}`, client: 'a', tokens: range(i * 100, 10), out: 1 });
    while (h.step());
    expect(dlpm(h).deficit(1)).toBe(0); // b never seen
    expect(dlpm(h).deficit(2)).toBeLessThanOrEqual(20);
    expect(dlpm(h).deficit(2)).toBeGreaterThan(0);
  });

  it('describes the Theorem 4.1 bound 2·(U + Q^u), U = w_e·L_input + w_q·M', () => {
    const h = new Harness({ policy: 'dlpm', clients: ['a', 'b'], quantum: 300, kvTokens: 1000 });
    h.add({ id: 'a1', client: 'a', tokens: range(0, 120), out: 1 });
    const s = schedulerState(h.policy);
    expect(s.policy).toBe('dlpm');
    expect(s.policy === 'dlpm' && s.policy_state).toMatchObject({
      U: 120 + 2 * 1000,
      quantum: 300,
      bound: 2 * (2120 + 300),
    });
  });

  it('builds no records when not recording, and decides the same', () => {
    const run = (recording: boolean) => {
      const h = new Harness({ policy: 'dlpm', clients: ['a', 'b'], quantum: 20, recording });
      for (let i = 0; i < 8; i++)
        h.add({ id: `r${i}`, client: i % 3 === 0 ? 'b' : 'a', tokens: range(i * 100, 10 + i), out: 3 });
      while (h.step());
      return { admitted: h.admitted, records: h.records.length };
    };
    const on = run(true);
    const off = run(false);
    expect(off.admitted).toEqual(on.admitted);
    expect(off.records).toBe(0);
  });
});
