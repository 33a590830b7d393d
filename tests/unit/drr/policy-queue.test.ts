import { describe, expect, it } from 'vitest';
import { type CompiledPolicy, PolicyQueue, type Profile } from '../../../src/core/drr';

function explicitPolicy(classes: [string, number][]): CompiledPolicy {
  const root: Profile = {
    name: '(root)',
    model: null,
    defaultFamily: null,
    buckets: [],
    classes: classes.map(([name, quantum]) => ({ name, quantum, queuePolicy: 'fcfs' as const })),
    families: [],
    cells: [],
  };
  return { root, models: [] };
}

const always = () => true;

describe('PolicyQueue DRR (V2)', () => {
  it('docs burst: A spends its quantum-10 burst on three cost-3 requests before B', () => {
    const q = new PolicyQueue<null>(
      explicitPolicy([
        ['A', 10],
        ['B', 10],
      ]),
    );
    for (const c of ['A', 'B'])
      for (let i = 0; i < 4; i++)
        q.enqueue({
          id: `${c.toLowerCase()}${i}`,
          requestedClass: c,
          rawIsl: 3,
          cachedTokens: 0,
          payload: null,
        });
    const got: string[] = [];
    const deficitsA: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = q.pop(always);
      got.push(r.request?.id ?? 'none');
      deficitsA.push(r.record?.deficits[0].after ?? -1);
    }
    expect(got).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'a3', 'b3']);
    expect(deficitsA).toEqual([7, 4, 1, 1, 1, 1, 0, 0]);
  });

  it('docs bulk credit: four virtual rounds, latency keeps 1000, standard reaches 5000', () => {
    const q = new PolicyQueue<null>(
      explicitPolicy([
        ['standard', 1000],
        ['latency', 2000],
      ]),
    );
    q.enqueue({ id: 's0', requestedClass: 'standard', rawIsl: 7000, cachedTokens: 0, payload: null });
    q.enqueue({ id: 'l0', requestedClass: 'latency', rawIsl: 9000, cachedTokens: 0, payload: null });
    q.enqueue({ id: 'l1', requestedClass: 'latency', rawIsl: 9000, cachedTokens: 0, payload: null });
    const r = q.pop(always);
    expect(r.request?.id).toBe('l0');
    expect(r.record?.bulk_rounds).toBe(4);
    expect(r.record?.deficits.map((d) => d.after)).toEqual([5000, 1000]);
    expect(r.record?.carry_after).toBe('latency');
    expect(r.record?.cursor_after).toBe('standard');
  });
});
