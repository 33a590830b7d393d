import { describe, expect, it } from 'vitest';
import { PageSeq } from '../../../src/core/replica/pages';
import { RadixCache } from '../../../src/core/replica/radix-cache';

const seq = (...xs: number[]) => Int32Array.from(xs);
const range = (from: number, n: number) => Int32Array.from({ length: n }, (_, i) => from + i);

describe('radix cache (block size 1)', () => {
  it('matches the longest inserted prefix and splits edges on insert', () => {
    const c = new RadixCache(1);
    expect(c.insert(seq(1, 2, 3, 4), 4, 0).added).toBe(4);
    expect(c.matchLength(seq(1, 2, 3, 4, 5))).toBe(4);
    expect(c.matchLength(seq(1, 2, 9))).toBe(2);
    expect(c.matchLength(seq(7))).toBe(0);
    // a sibling branch splits the edge [1,2,3,4] at 2
    const ins = c.insert(seq(1, 2, 7, 8), 4, 1);
    expect(ins.added).toBe(2);
    expect(ins.covered).toBe(4);
    expect(c.nodeCount).toBe(3); // [1,2] -> {[3,4], [7,8]}
    expect(c.cachedTokens).toBe(6);
    expect(c.matchLength(seq(1, 2, 7, 8, 9))).toBe(4);
    expect(c.check()).toBeNull();
    // inserting what is already there adds nothing
    expect(c.insert(seq(1, 2, 3), 3, 2).added).toBe(0);
    expect(c.cachedTokens).toBe(6);
  });

  it('acquire splits inside an edge and locks the path; unlock never goes negative', () => {
    const c = new RadixCache(1);
    c.insert(seq(1, 2, 3, 4), 4, 0);
    const a = c.acquire(seq(1, 2, 3, 9), 4, 1);
    expect(a.length).toBe(3);
    expect(a.node.len).toBe(3);
    expect(a.node.lock).toBe(1);
    expect(c.nodeCount).toBe(2);
    expect(c.check()).toBeNull();
    c.unlock(a.node, 2);
    expect(a.node.lock).toBe(0);
    expect(() => c.unlock(a.node, 3)).toThrow(/negative/);
  });

  it('evicts unlocked leaves in LRU order and then the parent that became a leaf', () => {
    const c = new RadixCache(1);
    c.insert(seq(1, 2, 3), 3, 0); // t=0
    c.insert(seq(1, 2, 5), 3, 1); // splits: [1,2] -> {[3], [5]}
    c.insert(seq(8, 9), 2, 2);
    // [3] last used at 0 (split kept its age), [5] at 1, [8,9] at 2
    expect(c.evict(1)).toBe(1);
    expect(c.matchLength(seq(1, 2, 3))).toBe(2);
    expect(c.matchLength(seq(1, 2, 5))).toBe(3);
    // lock [8,9]; evicting 10 frees [5] then [1,2] (now a leaf), never the locked node
    const lk = c.acquire(seq(8, 9), 2, 3);
    expect(c.evict(10)).toBe(3);
    expect(c.cachedTokens).toBe(2);
    expect(c.matchLength(seq(8, 9))).toBe(2);
    c.unlock(lk.node, 4);
    expect(c.evict(10)).toBe(2);
    expect(c.cachedTokens).toBe(0);
    expect(c.check()).toBeNull();
  });

  it('a use refreshes the LRU position', () => {
    const c = new RadixCache(1);
    c.insert(seq(1), 1, 0);
    c.insert(seq(2), 1, 1);
    const a = c.acquire(seq(1), 1, 5);
    c.unlock(a.node, 5); // [1] now used at 5
    expect(c.evict(1)).toBe(1);
    expect(c.matchLength(seq(1))).toBe(1);
    expect(c.matchLength(seq(2))).toBe(0);
  });
});

describe('radix cache (pages of 4)', () => {
  it('matches and inserts whole pages only', () => {
    const c = new RadixCache(4);
    const a = range(100, 10);
    const ins = c.insert(a, 10, 0);
    expect(ins.added).toBe(8);
    expect(c.cachedBlocks).toBe(2);
    expect(c.matchLength(a)).toBe(8);
    const b = Int32Array.from([...range(100, 6), 1, 1, 1, 1]);
    expect(c.matchLength(b)).toBe(4); // diverges inside the second page
    const ins2 = c.insert(b, 8, 1);
    expect(ins2.added).toBe(4);
    expect(c.nodeCount).toBe(3);
    expect(c.check()).toBeNull();
    expect(c.matchLength(a, 7)).toBe(4); // maxLen limits to whole pages below it
  });
});

describe('radix summary', () => {
  it('counts locked nodes and evictable leaves, and lists a bounded breadth-first prefix', () => {
    const c = new RadixCache(1);
    c.insert(Int32Array.from([1, 2, 3]), 3, 0);
    c.insert(Int32Array.from([1, 2, 4]), 3, 0);
    c.insert(Int32Array.from([5]), 1, 0);
    const a = c.acquire(Int32Array.from([1, 2, 3]), 3, 1);
    const s = c.summary(2);
    expect(s.nodes).toBe(4);
    expect(s.locked_nodes).toBe(2); // [1,2] and [3]
    expect(s.evictable_leaves).toBe(2); // [4] and [5]
    expect(s.top.length).toBe(2);
    c.unlock(a.node, 2);
    expect(c.summary().locked_nodes).toBe(0);
    expect(c.summary().top.length).toBe(4);
  });
});

describe('radix cache memory (#15.3)', () => {
  it('an edge that is a small part of a long prompt keeps a copy, not the whole prompt', () => {
    const c = new RadixCache(16);
    const prompt = PageSeq.fromTokens(
      Int32Array.from({ length: 10_000 }, (_, i) => 7 + i),
      16,
    );
    // a chunk at a time, as chunked prefill caches it
    c.insert(prompt, 512, 0);
    const chunk = c.insertFrom(c.root, 0, prompt.data, 0, 1024, 1);
    expect(chunk.added).toBe(512);
    const leaf = chunk.node;
    expect(leaf.src).not.toBe(prompt.data);
    // (a shared slab of runs: the prompt's fingerprints can be freed once its request is done)
    const at = 2 * (leaf.start / 16);
    expect(Array.from(leaf.src.subarray(at, at + 2 * (leaf.len / 16)))).toEqual(
      Array.from(prompt.data.subarray(2 * 32, 2 * 64)),
    );
    // a whole prompt inserted at once keeps its own array (nothing to save)
    const whole = PageSeq.fromTokens(
      Int32Array.from({ length: 4096 }, (_, i) => 50_000 + i),
      16,
    );
    const ins = c.insert(whole, 4096, 2);
    expect(ins.node.src).toBe(whole.data);
    expect(c.check()).toBeNull();
  });
});
