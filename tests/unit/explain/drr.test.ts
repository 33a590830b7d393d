import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArbitrationSession, type DrrPopRecord } from '../../../src/core/drr';
import { explainDrrDecision, explainDrrText, quantaFromSnapshot } from '../../../src/core/explain';
import { validateScriptText } from '../../../src/policy';

/** Run a script in the real sandbox session; return every pop's record and the class quanta. */
function pops(script: string): { records: DrrPopRecord[]; quanta: Record<string, number> } {
  const parsed = validateScriptText(script);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const session = new ArbitrationSession(parsed.value);
  const quanta = quantaFromSnapshot(session.snapshot());
  const records: DrrPopRecord[] = [];
  for (let s = session.step(); s; s = session.step()) if (s.record) records.push(s.record);
  return { records, quanta };
}

const BURST = `
policy: {policy_classes: [{name: A, quantum: 10}, {name: B, quantum: 10}]}
ops:
  - enqueue: {id: a0, class: A, cost: 3}
  - enqueue: {id: a1, class: A, cost: 3}
  - enqueue: {id: a2, class: A, cost: 3}
  - enqueue: {id: a3, class: A, cost: 3}
  - enqueue: {id: b0, class: B, cost: 3}
  - enqueue: {id: b1, class: B, cost: 3}
  - enqueue: {id: b2, class: B, cost: 3}
  - enqueue: {id: b3, class: B, cost: 3}
  - pop: {count: 8}
`;

describe('DRR explanation: the docs burst (quantum 10, cost 3)', () => {
  const { records, quanta } = pops(BURST);
  const text = (i: number) => explainDrrText(records[i], { quanta });

  it('pop 1: A earns its quantum and becomes the carry', () => {
    expect(text(0)).toBe(
      [
        '1. Start: no class carries credit from its last turn, so the ring scan starts at A (the cursor).',
        '2. A: its head a0 costs 3, more than its 0 credit; A earns its quantum: 0 + 10 = 10 ≥ 3, so A dispatches a0.',
        'Result: a0 from A (cost 3); A keeps 7 credit and becomes the carry; the next scan starts at B.',
      ].join('\n'),
    );
  });

  it('pop 2: the carry continues the burst without a new quantum', () => {
    expect(text(1)).toBe(
      [
        '1. Carry: class A still has 7 tokens of credit from its last turn; its head a1 costs 3 ≤ 7, so A continues its burst without a new quantum.',
        'Result: a1 from A (cost 3); A keeps 4 credit and stays the carry; the next scan starts at B.',
      ].join('\n'),
    );
  });

  it('pop 4: the burst ends when the carry cannot pay; B takes its turn', () => {
    expect(text(3)).toBe(
      [
        '1. Carry: class A still has 1 token of credit from its last turn, but its head a3 costs 3 > 1, so its burst ends here; it keeps the credit and the ring scan starts at B (the cursor).',
        '2. B: its head b0 costs 3, more than its 0 credit; B earns its quantum: 0 + 10 = 10 ≥ 3, so B dispatches b0.',
        'Result: b0 from B (cost 3); B keeps 7 credit and becomes the carry; the next scan starts at A.',
      ].join('\n'),
    );
  });

  it('pop 7: A pays its last request from 1 + 10 and its emptied queue resets the credit', () => {
    expect(text(6)).toBe(
      [
        '1. Carry: class B still has 1 token of credit from its last turn, but its head b3 costs 3 > 1, so its burst ends here; it keeps the credit and the ring scan starts at A (the cursor).',
        '2. A: its head a3 costs 3, more than its 1 credit; A earns its quantum: 1 + 10 = 11 ≥ 3, so A dispatches a3.',
        "Result: a3 from A (cost 3); A's queue is now empty, so its credit resets to 0; the next scan starts at B.",
      ].join('\n'),
    );
  });

  it('the record alone carries each visited class quantum, so it explains itself exactly', () => {
    expect(explainDrrText(records[6])).toBe(text(6));
  });

  it('a record without quanta (older links) still gives a correct, less precise account', () => {
    const old = { ...records[6], visits: records[6].visits.map(({ quantum: _q, ...v }) => v) };
    expect(explainDrrText(old)).toBe(
      [
        '1. Carry: class B still has 1 token of credit from its last turn, but its head b3 costs 3 > 1, so its burst ends here; it keeps the credit and the ring scan starts at A (the cursor).',
        '2. A: its head a3 costs 3, more than its 1 credit; A earns its quantum, which covers the cost, so A dispatches a3.',
        'Result: a3 from A (cost 3); A has no credit left, so nothing carries over; the next scan starts at B.',
      ].join('\n'),
    );
    // Where the record shows the quantum (the class kept credit), it is read back exactly.
    const old0 = { ...records[0], visits: records[0].visits.map(({ quantum: _q, ...v }) => v) };
    expect(explainDrrText(old0)).toBe(text(0));
  });

  it('links each step to the class it talks about, in the root profile', () => {
    const steps = explainDrrDecision(records[3], { quanta });
    expect(steps.map((s) => s.ref)).toEqual([
      { kind: 'class', name: 'A', profile: '(root)' },
      { kind: 'class', name: 'B', profile: '(root)' },
      { kind: 'class', name: 'B', profile: '(root)' },
    ]);
    expect(steps.map((s) => s.final === true)).toEqual([false, false, true]);
  });
});

describe('DRR explanation: the docs bulk-credit example', () => {
  it('names the per-class rounds, the minimum 4, the grants and the winner', () => {
    const { records, quanta } = pops(`
policy: {policy_classes: [{name: standard, quantum: 1000}, {name: latency, quantum: 2000}]}
ops:
  - enqueue: {id: s0, class: standard, cost: 7000}
  - enqueue: {id: l0, class: latency, cost: 9000}
  - enqueue: {id: l1, class: latency, cost: 9000}
  - pop: {}
`);
    const expected = [
      '1. Start: no class carries credit from its last turn, so the ring scan starts at standard (the cursor).',
      '2. standard: its head s0 costs 7000, more than its 0 credit; standard earns its quantum: 0 + 1000 = 1000 < 7000, still not enough.',
      '3. latency: its head l0 costs 9000, more than its 0 credit; latency earns its quantum: 0 + 2000 = 2000 < 9000, still not enough.',
      '4. Bulk credit: no class could afford its head after one round; the smallest number of extra rounds that lets some class pay is 4 (standard would need ⌈6000 / 1000⌉ = 6, latency would need ⌈7000 / 2000⌉ = 4), so every waiting class gets 4 × its quantum at once: standard 1000 → 5000, latency 2000 → 10000.',
      '5. Final scan from standard: standard is still short (s0 costs 7000, it has 5000); latency can now pay for l0 (9000 ≤ 10000) and wins as the first class from the cursor that can pay.',
      'Result: l0 from latency (cost 9000); latency keeps 1000 credit and becomes the carry; the next scan starts at standard.',
    ].join('\n');
    expect(explainDrrText(records[0], { quanta })).toBe(expected);
    expect(explainDrrText(records[0])).toBe(expected);
    const bulk = explainDrrDecision(records[0])[3];
    expect(bulk.ref).toEqual({ kind: 'class', name: 'latency', profile: '(root)' });
  });

  it('says blocked classes get nothing and carries the old carry through the scan', () => {
    const { records, quanta } = pops(`
policy: {policy_classes: [{name: A, quantum: 10}, {name: B, quantum: 100}, {name: C, quantum: 50}]}
ops:
  - enqueue: {id: a0, class: A, cost: 4}
  - enqueue: {id: a1, class: A, cost: 500}
  - enqueue: {id: b0, class: B, cost: 1000}
  - enqueue: {id: c0, class: C, cost: 700}
  - pop: {}
  - pop: {blocked: [C]}
`);
    expect(explainDrrText(records[1], { quanta })).toBe(
      [
        '1. Carry: class A still has 6 tokens of credit from its last turn, but its head a1 costs 500 > 6, so its burst ends here; it keeps the credit and the ring scan starts at B (the cursor).',
        '2. B: its head b0 costs 1000, more than its 0 credit; B earns its quantum: 0 + 100 = 100 < 1000, still not enough.',
        '3. C is blocked: its head c0 cannot be dispatched right now, so C keeps its 0 credit and earns no quantum.',
        '4. A: its head a1 costs 500, more than its 6 credit; A earns its quantum: 6 + 10 = 16 < 500, still not enough.',
        '5. Bulk credit: no class could afford its head after one round; the smallest number of extra rounds that lets some class pay is 9 (B would need ⌈900 / 100⌉ = 9, A would need ⌈484 / 10⌉ = 49), so every waiting class gets 9 × its quantum at once: B 100 → 1000, A 16 → 106. Blocked classes get nothing.',
        '6. Final scan from B: B can now pay for b0 (1000 ≤ 1000) and wins as the first class from the cursor that can pay.',
        'Result: b0 from B (cost 1000); B has no credit left, so nothing carries over; the next scan starts at C.',
      ].join('\n'),
    );
  });
});

describe('DRR explanation: the exact 1:3 ratio', () => {
  it('first four pops: one, then three with a two-request carry', () => {
    const ops = [
      ...Array.from({ length: 20 }, (_, i) => `  - enqueue: {id: one${i}, class: one, cost: 1}`),
      ...Array.from({ length: 60 }, (_, i) => `  - enqueue: {id: three${i}, class: three, cost: 1}`),
    ].join('\n');
    const { records, quanta } = pops(
      `policy: {policy_classes: [{name: one, quantum: 1}, {name: three, quantum: 3}]}\nops:\n${ops}\n  - pop: {count: 4}\n`,
    );
    expect(records.map((r) => explainDrrText(r, { quanta }))).toEqual([
      [
        '1. Start: no class carries credit from its last turn, so the ring scan starts at one (the cursor).',
        '2. one: its head one0 costs 1, more than its 0 credit; one earns its quantum: 0 + 1 = 1 ≥ 1, so one dispatches one0.',
        'Result: one0 from one (cost 1); one has no credit left, so nothing carries over; the next scan starts at three.',
      ].join('\n'),
      [
        '1. Start: no class carries credit from its last turn, so the ring scan starts at three (the cursor).',
        '2. three: its head three0 costs 1, more than its 0 credit; three earns its quantum: 0 + 3 = 3 ≥ 1, so three dispatches three0.',
        'Result: three0 from three (cost 1); three keeps 2 credit and becomes the carry; the next scan starts at one.',
      ].join('\n'),
      [
        '1. Carry: class three still has 2 tokens of credit from its last turn; its head three1 costs 1 ≤ 2, so three continues its burst without a new quantum.',
        'Result: three1 from three (cost 1); three keeps 1 credit and stays the carry; the next scan starts at one.',
      ].join('\n'),
      [
        '1. Carry: class three still has 1 token of credit from its last turn; its head three2 costs 1 ≤ 1, so three continues its burst without a new quantum.',
        'Result: three2 from three (cost 1); three has no credit left, so nothing carries over; the next scan starts at one.',
      ].join('\n'),
    ]);
  });
});

describe('DRR explanation: blocked heads', () => {
  it('a fully blocked ring: nothing dispatched, no credit, the same account every time', () => {
    const { records, quanta } = pops(`
policy: {policy_classes: [{name: first, quantum: 7}, {name: second, quantum: 11}]}
ops:
  - enqueue: {id: f, class: first, cost: 100}
  - enqueue: {id: s, class: second, cost: 100}
  - pop: {count: 50, blocked: [first, second]}
`);
    const expected = [
      '1. Start: no class carries credit from its last turn, so the ring scan starts at first (the cursor).',
      '2. first is blocked: its head f cannot be dispatched right now, so first keeps its 0 credit and earns no quantum.',
      '3. second is blocked: its head s cannot be dispatched right now, so second keeps its 0 credit and earns no quantum.',
      'Result: nothing dispatched: every class with work has a blocked head, so no credit is granted (no bulk rounds); the next scan still starts at first.',
    ].join('\n');
    expect(records).toHaveLength(50);
    for (const r of records) expect(explainDrrText(r, { quanta })).toBe(expected);
  });

  it('a blocked class keeps its credit, is passed over, and later spends it without a new quantum', () => {
    const { records, quanta } = pops(`
policy: {policy_classes: [{name: A, quantum: 10}, {name: B, quantum: 10}, {name: C, quantum: 10}]}
ops:
  - enqueue: {id: a0, class: A, cost: 3}
  - enqueue: {id: a1, class: A, cost: 3}
  - enqueue: {id: a2, class: A, cost: 3}
  - enqueue: {id: b0, class: B, cost: 3}
  - enqueue: {id: b1, class: B, cost: 3}
  - enqueue: {id: c0, class: C, cost: 3}
  - pop: {}
  - pop: {count: 4, blocked: [A]}
  - pop: {count: 3}
`);
    const t = records.map((r) => explainDrrText(r, { quanta }));
    expect(t[1]).toBe(
      [
        '1. Carry: class A still has 7 tokens of credit from its last turn, but its head a1 cannot be dispatched right now (blocked); it keeps the credit and the ring scan starts at B (the cursor).',
        '2. B: its head b0 costs 3, more than its 0 credit; B earns its quantum: 0 + 10 = 10 ≥ 3, so B dispatches b0.',
        'Result: b0 from B (cost 3); B keeps 7 credit and becomes the carry; the next scan starts at C.',
      ].join('\n'),
    );
    expect(t[2]).toBe(
      [
        '1. Carry: class B still has 7 tokens of credit from its last turn; its head b1 costs 3 ≤ 7, so B continues its burst without a new quantum.',
        "Result: b1 from B (cost 3); B's queue is now empty, so its credit resets to 0; the next scan starts at C.",
      ].join('\n'),
    );
    expect(t[4]).toBe(
      [
        '1. Start: no class carries credit from its last turn, so the ring scan starts at A (the cursor).',
        '2. A is blocked: its head a1 cannot be dispatched right now, so A keeps its 7 credit and earns no quantum.',
        '3. B is empty: its credit resets to 0.',
        '4. C is empty: its credit resets to 0.',
        'Result: nothing dispatched: every class with work has a blocked head, so no credit is granted (no bulk rounds); the next scan still starts at A.',
      ].join('\n'),
    );
    expect(t[5]).toBe(
      [
        '1. Start: no class carries credit from its last turn, so the ring scan starts at A (the cursor).',
        '2. A: its head a1 costs 3 ≤ its 7 saved credit, so A dispatches a1 without a new quantum.',
        'Result: a1 from A (cost 3); A keeps 4 credit and becomes the carry; the next scan starts at B.',
      ].join('\n'),
    );
    expect(t[7]).toBe('Result: nothing is queued in any class, so there is nothing to arbitrate.');
  });
});

describe("DRR explanation: the docs' cursor rule (V1)", () => {
  it('the cursor stays on a class whose next head is affordable, and moves on when it is not', () => {
    const { records, quanta } = pops(`
variant: v1
policy: {policy_classes: [{name: A, quantum: 10}, {name: B, quantum: 10}]}
ops:
  - enqueue: {id: a0, class: A, cost: 3}
  - enqueue: {id: a1, class: A, cost: 3}
  - enqueue: {id: a2, class: A, cost: 3}
  - enqueue: {id: a3, class: A, cost: 3}
  - enqueue: {id: b0, class: B, cost: 3}
  - pop: {count: 3}
`);
    const t = records.map((r) => explainDrrText(r, { quanta }));
    expect(t[0]).toBe(
      [
        "1. Start: under the docs' rule (V1) nothing carries over between pops; the ring scan starts at A (the cursor).",
        '2. A: its head a0 costs 3, more than its 0 credit; A earns its quantum: 0 + 10 = 10 ≥ 3, so A dispatches a0.',
        "Result: a0 from A (cost 3); A keeps 7 credit and its next head is already affordable, so the cursor stays on A (docs' rule, V1).",
      ].join('\n'),
    );
    expect(t[2]).toBe(
      [
        "1. Start: under the docs' rule (V1) nothing carries over between pops; the ring scan starts at A (the cursor).",
        '2. A: its head a2 costs 3 ≤ its 4 saved credit, so A dispatches a2 without a new quantum.',
        'Result: a2 from A (cost 3); A keeps 1 credit; the next scan starts at B.',
      ].join('\n'),
    );
  });
});

describe('DRR explanation: hand-made records for the rare paths', () => {
  const base: DrrPopRecord = {
    variant: 'v2',
    profile: 'example/large-model',
    visits: [],
    bulk_rounds: null,
    deficits: [
      { class: 'x', before: 5, after: 0 },
      { class: 'y', before: 0, after: 0 },
    ],
    cursor_before: 'y',
    cursor_after: 'y',
    carry_before: 'x',
    carry_after: null,
    chosen: null,
    heads_touched: 2,
    summary: '',
  };

  it('an emptied carry class resets and the model profile is named in the refs', () => {
    const r: DrrPopRecord = {
      ...base,
      visits: [
        {
          phase: 'carry',
          class: 'x',
          outcome: 'empty',
          head_id: null,
          head_cost: null,
          deficit_before: 5,
          deficit_after: 0,
        },
        {
          phase: 'scan',
          class: 'y',
          outcome: 'blocked',
          head_id: 'y0',
          head_cost: 4,
          deficit_before: 0,
          deficit_after: 0,
        },
        {
          phase: 'scan',
          class: 'x',
          outcome: 'empty',
          head_id: null,
          head_cost: null,
          deficit_before: 0,
          deficit_after: 0,
        },
      ],
    };
    const steps = explainDrrDecision(r);
    expect(steps.map((s) => s.text)).toEqual([
      'Carry: class x had 5 tokens of credit left, but its queue is empty now, so the credit resets to 0; the ring scan starts at y (the cursor).',
      'y is blocked: its head y0 cannot be dispatched right now, so y keeps its 0 credit and earns no quantum.',
      'x is empty: its credit resets to 0.',
      'Result: nothing dispatched: every class with work has a blocked head, so no credit is granted (no bulk rounds); x keeps its credit but is no longer the carry; the next scan still starts at y.',
    ]);
    expect(steps[0].ref).toEqual({ kind: 'class', name: 'x', profile: 'example/large-model' });
  });

  it('an empty class that had credit says how much it lost', () => {
    const r: DrrPopRecord = {
      ...base,
      carry_before: null,
      visits: [
        {
          phase: 'scan',
          class: 'y',
          outcome: 'empty',
          head_id: null,
          head_cost: null,
          deficit_before: 9,
          deficit_after: 0,
        },
      ],
    };
    expect(explainDrrDecision(r)[1].text).toBe('y is empty: its credit resets to 0 (it had 9).');
  });

  it('nothing queued clears the carry', () => {
    expect(explainDrrText({ ...base, visits: [], heads_touched: 0 })).toBe(
      'Result: nothing is queued in any class, so there is nothing to arbitrate; x is no longer the carry.',
    );
  });
});

describe('DRR explanation: properties over random scripts', () => {
  const op = fc.oneof(
    fc.record({
      kind: fc.constant('enqueue' as const),
      cls: fc.constantFrom('P', 'Q', 'R'),
      cost: fc.integer({ min: 1, max: 60 }),
    }),
    fc.record({ kind: fc.constant('pop' as const), blocked: fc.subarray(['P', 'Q', 'R']) }),
  );
  it('every pop gets a deterministic account that ends with one result naming the winner', () => {
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 1, maxLength: 40 }),
        fc.constantFrom('v1', 'v2'),
        (ops, variant) => {
          let n = 0;
          const lines = ops.map((o) =>
            o.kind === 'enqueue'
              ? `  - enqueue: {id: r${n++}, class: ${o.cls}, cost: ${o.cost}}`
              : `  - pop: {blocked: [${o.blocked.join(', ')}]}`,
          );
          const script = `variant: ${variant}\npolicy: {policy_classes: [{name: P, quantum: 7}, {name: Q, quantum: 20}, {name: R, quantum: 3}]}\nops:\n${lines.join('\n')}\n`;
          const { records, quanta } = pops(script);
          for (const r of records) {
            const steps = explainDrrDecision(r, { quanta });
            expect(steps.filter((s) => s.final)).toHaveLength(1);
            expect(steps[steps.length - 1].final).toBe(true);
            const last = steps[steps.length - 1].text;
            if (r.chosen)
              expect(
                last.startsWith(`Result: ${r.chosen.id} from ${r.chosen.class} (cost ${r.chosen.cost})`),
              ).toBe(true);
            else expect(last.startsWith('Result: nothing')).toBe(true);
            for (const v of r.visits) expect(steps.some((s) => s.text.includes(v.class))).toBe(true);
            expect(explainDrrText(r, { quanta })).toBe(explainDrrText(structuredClone(r), { quanta }));
            // With the quanta given, every earned quantum is shown as a sum.
            expect(steps.some((s) => s.text.includes('which covers the cost'))).toBe(false);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
