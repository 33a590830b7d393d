import { describe, expect, it } from 'vitest';
import { evictedBranch, GlobalPrefixTree } from '../../../src/core/algorithms/shared/global-prefix-tree';
import { PageSeq } from '../../../src/core/replica/pages';
import { RadixCache, type RadixNode } from '../../../src/core/replica/radix-cache';
import { concat, range } from './helpers';

describe('global prefix tree', () => {
  it('matches whole pages and lists the workers holding the longest match', () => {
    const t = new GlobalPrefixTree(3, 4);
    const doc = range(0, 16);
    t.insert(concat(doc, range(100, 8)), 0);
    t.insert(concat(doc.subarray(0, 8), range(200, 8)), 2);
    expect(t.match(concat(doc, range(300, 3)))).toEqual({ length: 16, holders: [0] });
    expect(t.match(concat(doc.subarray(0, 8), range(400, 8)))).toEqual({ length: 8, holders: [0, 2] });
    expect(t.match(range(999, 30))).toEqual({ length: 0, holders: [] });
    expect(t.match(doc.subarray(0, 7))).toEqual({ length: 4, holders: [0, 2] }); // partial page ignored
    expect(t.heldLength(concat(doc, range(100, 8)), 2)).toBe(8);
    expect(t.pageCount).toBe(8);
    expect(t.heldTokens()).toEqual([24, 0, 16]);
  });

  it('evicting a branch for one worker keeps it for the others and drops pages nobody holds', () => {
    const t = new GlobalPrefixTree(2, 4);
    const a = range(0, 16);
    t.insert(a, 0);
    t.insert(a.subarray(0, 8), 1);
    t.evict(a, 4, 0); // w0 keeps only the first page
    expect(t.match(a)).toEqual({ length: 8, holders: [1] });
    expect(t.pageCount).toBe(2);
    t.evict(a, 0, 1);
    expect(t.match(a)).toEqual({ length: 4, holders: [0] });
    expect(t.pageCount).toBe(1);
    t.evict(a, 0, 0);
    expect(t.pageCount).toBe(0);
    expect(t.match(a).length).toBe(0);
  });

  it('handles more than 32 workers', () => {
    const t = new GlobalPrefixTree(40, 2);
    t.insert(range(0, 4), 37);
    t.insert(range(0, 2), 3);
    expect(t.match(range(0, 4))).toEqual({ length: 4, holders: [37] });
    expect(t.match(range(0, 2))).toEqual({ length: 2, holders: [3, 37] });
  });

  it('rebuilds the path (page fingerprints) of an evicted worker cache node', () => {
    const c = new RadixCache(4);
    const x = concat(range(0, 8), range(100, 8));
    const y = concat(range(0, 8), range(200, 12));
    c.insert(x, x.length, 0);
    c.insert(y, y.length, 1);
    const evicted: RadixNode[] = [];
    c.evictListener = { evicted: (n) => evicted.push(n) };
    expect(c.evict(2)).toBe(2);
    expect(evicted).toHaveLength(1);
    const { path, depth } = evictedBranch(evicted[0], 4);
    expect(depth).toBe(8);
    expect(path.length).toBe(12);
    expect([...path.data]).toEqual([...PageSeq.fromTokens(concat(range(0, 8), range(100, 4)), 4).data]);
    // and the global tree prunes exactly that branch with it
    const t = new GlobalPrefixTree(1, 4);
    t.insert(x, 0);
    t.insert(y, 0);
    t.evict(path, depth, 0);
    expect(t.heldLength(x, 0)).toBe(8);
    expect(t.heldLength(y, 0)).toBe(20);
  });
});
