/** V1 (the docs' cursor rule) and V2 (the code's carry) diverge only when an arrival changes a head. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { PolicyQueue, runScript } from '../../../src/core/drr';
import { validateScriptText } from '../../../src/policy';
import { explicitPolicy, repoRoot } from './helpers';

function scenario(variant: 'v1' | 'v2') {
  const q = new PolicyQueue<null>(
    explicitPolicy([
      ['A', 10],
      ['B', 10],
    ]),
    { variant },
  );
  const add = (id: string, cls: string, cost: number, strictPriority = 0) =>
    q.enqueue({ id, requestedClass: cls, rawIsl: cost, cachedTokens: 0, strictPriority, payload: null });
  add('a0', 'A', 3);
  add('a1', 'A', 8);
  add('b0', 'B', 3);
  const first = q.pop(() => true);
  // A keeps 7 but its next head (cost 8) is unaffordable: V1 moves the cursor on, V2 keeps A as the carry.
  add('a-small', 'A', 2, 1); // jumps to A's head
  const second = q.pop(() => true);
  return { first, second };
}

describe('V1 vs V2', () => {
  it('same first pop; after an arrival changes the head, V2 spends the carry and V1 serves B', () => {
    const v1 = scenario('v1');
    const v2 = scenario('v2');
    expect(v1.first.request?.id).toBe('a0');
    expect(v2.first.request?.id).toBe('a0');
    expect([v1.first.record?.cursor_after, v1.first.record?.carry_after]).toEqual(['B', null]);
    expect([v2.first.record?.cursor_after, v2.first.record?.carry_after]).toEqual(['B', 'A']);
    expect(v2.second.request?.id).toBe('a-small');
    expect(v2.second.record?.visits[0]).toMatchObject({ phase: 'carry', class: 'A', outcome: 'affordable' });
    expect(v1.second.request?.id).toBe('b0');
    expect(v1.second.record?.deficits).toEqual([
      { class: 'A', before: 7, after: 7 },
      { class: 'B', before: 0, after: 0 }, // B earned 10, paid 3, emptied: reset
    ]);
  });

  it('V1 keeps the cursor on a class whose next head is already affordable', () => {
    const q = new PolicyQueue<null>(
      explicitPolicy([
        ['A', 10],
        ['B', 10],
      ]),
      { variant: 'v1' },
    );
    for (const id of ['a0', 'a1'])
      q.enqueue({ id, requestedClass: 'A', rawIsl: 3, cachedTokens: 0, payload: null });
    q.enqueue({ id: 'b0', requestedClass: 'B', rawIsl: 3, cachedTokens: 0, payload: null });
    const r = q.pop(() => true);
    expect([r.record?.cursor_after, r.record?.carry_after]).toEqual(['A', null]);
    expect(q.pop(() => true).request?.id).toBe('a1');
  });
});

describe('decision records', () => {
  it('explain the bulk step with visits, rounds and a summary', () => {
    const q = new PolicyQueue<null>(
      explicitPolicy([
        ['standard', 1000],
        ['latency', 2000],
      ]),
    );
    q.enqueue({ id: 's0', requestedClass: 'standard', rawIsl: 7000, cachedTokens: 0, payload: null });
    q.enqueue({ id: 'l0', requestedClass: 'latency', rawIsl: 9000, cachedTokens: 0, payload: null });
    const r = q.pop(() => true).record!;
    expect(
      r.visits.map((v) => `${v.phase}:${v.class}:${v.outcome}:${v.deficit_before}->${v.deficit_after}`),
    ).toEqual([
      'scan:standard:unaffordable:0->1000',
      'scan:latency:unaffordable:0->2000',
      'final:standard:short:5000->5000',
      'final:latency:chosen:10000->0', // latency is empty after l0: reset
    ]);
    expect(r.bulk_rounds).toBe(4);
    expect(r.chosen).toEqual({ id: 'l0', class: 'latency', cost: 9000 });
    expect(r.summary).toContain('4 virtual round(s)');
    expect(r.heads_touched).toBe(4);
  });

  it('explain a fully blocked ring', () => {
    const q = new PolicyQueue<null>(
      explicitPolicy([
        ['A', 1],
        ['B', 1],
      ]),
    );
    q.enqueue({ id: 'a', requestedClass: 'A', rawIsl: 5, cachedTokens: 0, payload: null });
    const r = q.pop(() => false).record!;
    expect(r.visits.map((v) => v.outcome)).toEqual(['blocked', 'empty']);
    expect(r.chosen).toBeNull();
    expect(r.bulk_rounds).toBeNull();
    expect(r.summary).toMatch(/blocked/);
  });

  it('saturate instead of overflowing on huge costs', () => {
    const q = new PolicyQueue<null>(
      explicitPolicy([
        ['A', 9_007_199_254_740_991],
        ['B', 1],
      ]),
    );
    q.enqueue({
      id: 'a',
      requestedClass: 'A',
      rawIsl: 9_007_199_254_740_991,
      cachedTokens: 0,
      payload: null,
    });
    q.enqueue({
      id: 'b',
      requestedClass: 'B',
      rawIsl: 9_007_199_254_740_991,
      cachedTokens: 0,
      payload: null,
    });
    expect(q.pop(() => true).request?.id).toBe('a');
    const r = q.pop(() => true);
    expect(r.request?.id).toBe('b');
    expect(r.record?.bulk_rounds).toBe(9_007_199_254_740_990);
  });
});

describe('scenarios/drr-carry-vs-cursor.yaml', () => {
  it('orders differ between the variants exactly as its description says', () => {
    const text = readFileSync(`${repoRoot}/scenarios/drr-carry-vs-cursor.yaml`, 'utf8');
    const order = (t: string) => {
      const res = validateScriptText(t);
      if (!res.ok) throw new Error('invalid');
      return runScript(res.value)
        .filter((l) => l.op === 'pop')
        .map((l) => l.id);
    };
    expect(order(text)).toEqual(['a0', 'urgent', 'b0', 'b1', 'a1']);
    expect(order(text.replace('variant: v2', 'variant: v1'))).toEqual(['a0', 'b0', 'b1', 'urgent', 'a1']);
  });
});
