/**
 * The DRR visit animation as data (#13.2): each pop's phases show the rule that fired — the bar rises
 * by the quantum before it falls by the cost, bulk credit counts its rounds up, a blocked class keeps
 * its credit frozen — and the frame at any moment is what the bars show then.
 */
import { describe, expect, test } from 'vitest';
import type { DrrPopRecord } from '../../../src/core/drr/types';
import { frameAt, phasePeak, phasesOf, totalMs } from '../../../src/ui/views/drr-phases';
import { stateAt } from '../../../src/ui/views/drr-animate';
import { firedRules } from '../../../src/ui/views/DrrRing';
import { bulkScript, burstScript, enqueue, policyOf, pop, sessionSnapshot } from './fixtures';

function recordAfter(script: Parameters<typeof sessionSnapshot>[0], steps: number): DrrPopRecord {
  const rec = sessionSnapshot(script, steps).drr.last_pop?.record;
  if (!rec) throw new Error('no record');
  return rec;
}

/** Deficit of a class sampled across the whole animation (every 10 ms). */
function trace(rec: DrrPopRecord, q: Map<string, number>, cls: string): number[] {
  const phases = phasesOf(rec, q);
  const start = new Map(rec.deficits.map((d) => [d.class, d.before]));
  const out: number[] = [];
  for (let t = 0; t <= totalMs(phases) + 20; t += 10)
    out.push(frameAt(phases, start, t).deficits.get(cls) ?? 0);
  return out;
}

describe('phases of a pop', () => {
  const q = new Map([
    ['A', 10],
    ['B', 10],
  ]);

  test('burst pop 1: A earns its quantum (0 → 10), then pays the head (10 → 7), then the cursor moves', () => {
    const rec = recordAfter(burstScript(), 9);
    const phases = phasesOf(rec, q);
    expect(phases.map((p) => [p.kind, p.rule, p.from, p.to])).toEqual([
      ['earn', 'earn', [0], [10]],
      ['pay', 'take', [10], [7]],
      ['cursor', 'cursor', [], []],
    ]);
    const a = trace(rec, q, 'A');
    // the bar really reaches deficit + quantum mid-step, and ends at the deficit kept
    expect(Math.max(...a)).toBe(10);
    expect(a.at(-1)).toBe(7);
    const peakAt = a.indexOf(10);
    expect(a.slice(0, peakAt).every((v, i, xs) => i === 0 || v >= xs[i - 1])).toBe(true);
    expect(a.slice(peakAt).every((v, i, xs) => i === 0 || v <= xs[i - 1])).toBe(true);
    expect(firedRules(rec).decisive).toBe('earn');
  });

  test('burst pop 2: the carried class pays from its saved burst, no new quantum', () => {
    const rec = recordAfter(burstScript(), 10);
    const phases = phasesOf(rec, q);
    expect(phases[0]).toMatchObject({ kind: 'pay', rule: 'carry', from: [7], to: [4] });
    expect(Math.max(...trace(rec, q, 'A'))).toBe(7);
  });

  test('bulk credit counts its virtual rounds up: latency 2,000 → 10,000 in 4 rounds, then pays 9,000', () => {
    const bq = new Map([
      ['standard', 1000],
      ['latency', 2000],
    ]);
    const rec = recordAfter(bulkScript(), 4);
    const phases = phasesOf(rec, bq);
    const bulk = phases.find((p) => p.kind === 'bulk');
    expect(bulk).toMatchObject({
      rounds: 4,
      classes: ['standard', 'latency'],
      from: [1000, 2000],
      to: [5000, 10000],
    });
    expect(phasePeak(phases)).toBe(10000);
    const at = phases.indexOf(bulk as (typeof phases)[number]);
    expect(stateAt(phases, at, 'latency')).toBe('bulk: 4 virtual rounds');
    // one round is "1 virtual round" (a tryout read "bulk: 1 virtual rounds")
    const one = phases.map((p) => (p.kind === 'bulk' ? { ...p, rounds: 1 } : p));
    expect(stateAt(one, at, 'latency')).toBe('bulk: 1 virtual round');
    const start = new Map(rec.deficits.map((d) => [d.class, d.before]));
    // every round shows up: the counter passes 1, 2, 3 and 4, and latency's bar passes each level
    const rounds = new Set<number>();
    const levels = new Set<number>();
    for (let t = 0; t <= totalMs(phases); t += 5) {
      const f = frameAt(phases, start, t);
      if (f.round !== null) rounds.add(f.round);
      levels.add(Math.round(f.deficits.get('latency') ?? 0));
    }
    expect([...rounds].filter((r) => r > 0).sort()).toEqual([1, 2, 3, 4]);
    for (const v of [4000, 6000, 8000, 10000]) expect(levels).toContain(v);
    expect(firedRules(rec).fired.has('bulk')).toBe(true);
  });

  test('a blocked class shows its frozen credit (no change), an empty class resets', () => {
    const script = {
      name: 'blocked',
      policy: policyOf([
        { name: 'A', quantum: 10 },
        { name: 'B', quantum: 10 },
      ]),
      workers: 1,
      variant: 'v2' as const,
      ops: [enqueue('a0', 'A', 25), enqueue('b0', 'B', 3), pop(1), pop(1, ['A'])],
    };
    const rec = recordAfter(script, 4);
    const phases = phasesOf(rec, q);
    const frozen = phases.find((p) => p.kind === 'frozen');
    expect(frozen?.rule).toBe('blocked');
    expect(frozen?.from).toEqual(frozen?.to);
  });

  test('a take that empties the class pays the cost, then resets what is left: the state line says the cost', () => {
    // burst pop 7: A's carried 1 is short of a3; the scan comes to A, which earns 10 (11), pays 3 for
    // its last request a3 (8), and its queue is empty (0)
    const rec = recordAfter(burstScript(), 15);
    expect(rec.chosen?.id).toBe('a3');
    const phases = phasesOf(rec, q);
    expect(phases.map((p) => [p.kind, p.rule, p.from, p.to])).toEqual([
      ['short', 'carry', [1], [1]],
      ['earn', 'earn', [1], [11]],
      ['pay', 'take', [11], [8]],
      ['reset', 'take', [8], [0]],
      ['cursor', 'cursor', [], []],
    ]);
    expect(stateAt(phases, 2, 'A')).toBe('pays 3 for its head');
    expect(stateAt(phases, 3, 'A')).toBe('queue left empty: deficit reset to 0');
    expect(trace(rec, q, 'A')).toContain(8);
  });

  test('speed-up shortens every phase in proportion', () => {
    const rec = recordAfter(burstScript(), 9);
    const phases = phasesOf(rec, q);
    const start = new Map(rec.deficits.map((d) => [d.class, d.before]));
    const half = totalMs(phases) / 2;
    expect(frameAt(phases, start, half / 2, 2).phase).toBe(frameAt(phases, start, half, 1).phase);
  });
});
