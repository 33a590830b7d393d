/** `renamed` (core/export/rename.ts): the typed key renaming behind the run export and `--trace`. */
import { describe, expect, it } from 'vitest';
import { renamed } from '../../../src/core/export/rename';

interface Visit {
  phase: 'scan';
  head_id: string | null;
  head_cost: number | null;
  deficit_before: number;
  quantum?: number;
}

describe('renamed', () => {
  const v: Visit = { phase: 'scan', head_id: 'r1', head_cost: 3, deficit_before: 7, quantum: undefined };

  it('renames the named keys in place and keeps every other key and value', () => {
    const r = renamed(v, { head_id: 'headId', deficit_before: 'deficitBefore' });
    expect(Object.keys(r)).toEqual(['phase', 'headId', 'head_cost', 'deficitBefore', 'quantum']);
    expect(JSON.stringify(r)).toBe('{"phase":"scan","headId":"r1","head_cost":3,"deficitBefore":7}');
    // the result's type has the written names (and no longer the new ones)
    const id: string | null = r.headId;
    const before: number = r.deficitBefore;
    // @ts-expect-error renamed away
    expect(r.head_id).toBeUndefined();
    expect([id, before]).toEqual(['r1', 7]);
  });

  it('refuses, at compile time, a name the type does not have', () => {
    // @ts-expect-error `headCost` is not a key of Visit (the old name is the value, not the key)
    expect(Object.keys(renamed(v, { headCost: 'head_cost' }))).toContain('head_cost');
  });
});
