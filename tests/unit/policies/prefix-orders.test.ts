import { describe, expect, it } from 'vitest';
import { concat, Harness, range } from './harness';

const P = range(0, 20); // shared prefix
const X = range(100, 10);
const Y = range(200, 10);

/** A worker whose radix cache holds P+X and P+Y (two finished requests with one output token). */
function warmed(policy: string, scheduler: Record<string, unknown> = {}) {
  const h = new Harness({ policy, scheduler });
  h.add({ id: 'warm-x', client: 'a', tokens: concat(P, X), out: 1 });
  h.add({ id: 'warm-y', client: 'a', tokens: concat(P, Y), out: 1 });
  while (h.step());
  expect(h.w.radix.matchLength(concat(P, X, range(900, 3)))).toBe(30);
  h.admitted.length = 0;
  h.records.length = 0;
  return h;
}

/** Waiting requests: w1 under X, w2 and w3 under Y, w4 ends at P, w5 matches nothing. */
function queue(h: Harness) {
  h.add({ id: 'w5', client: 'a', tokens: range(5000, 12), out: 2 });
  h.add({ id: 'w4', client: 'a', tokens: concat(P, range(4000, 12)), out: 2 });
  h.add({ id: 'w1', client: 'a', tokens: concat(P, X, range(1000, 5)), out: 2 });
  h.add({ id: 'w2', client: 'a', tokens: concat(P, Y, range(2000, 5)), out: 2 });
  h.add({ id: 'w3', client: 'a', tokens: concat(P, Y, range(3000, 5)), out: 2 });
}

describe('LPM', () => {
  it('longest cached prefix first, ties in queue order', () => {
    const h = warmed('lpm');
    queue(h);
    expect(h.policy.waiting(10).map((r) => r.id)).toEqual(['w1', 'w2', 'w3', 'w4', 'w5']);
    h.step();
    expect(h.admitted).toEqual(['w1', 'w2', 'w3', 'w4', 'w5']);
    expect(h.detailsOf('lpm').map((d) => d.prefix_match)).toEqual([30, 30, 30, 20, 0]);
  });

  it('falls back to queue order above lpm_fcfs_fallback waiting requests', () => {
    const h = warmed('lpm', { lpm_fcfs_fallback: 4 });
    queue(h);
    h.step();
    expect(h.admitted).toEqual(['w5', 'w4', 'w1', 'w2', 'w3']);
    expect(h.detailsOf('lpm')[0].fcfs_fallback).toBe(true);
  });

  it('puts shared-prefix duplicates last in queue order, whatever their cached prefix (SGLang: one key, +inf)', () => {
    const H = range(40_000, 32); // the shared head
    for (const policy of ['lpm', 'dlpm']) {
      const h = new Harness({ policy, scheduler: policy === 'dlpm' ? { quantum: 1_000_000 } : {} });
      h.add({ id: 'warm', client: 'a', tokens: concat(H, range(41_000, 10)), out: 1 });
      while (h.step());
      h.admitted.length = 0;
      // first: 32 cached (≤ 32, checked), remembered; d-short: its whole 32-token prompt is H, so at
      // most 31 reusable; d-long: 32 cached. Both share H with first: deferred, in queue order.
      h.add({ id: 'first', client: 'a', tokens: concat(H, range(42_000, 10)), out: 2 });
      h.add({ id: 'd-short', client: 'a', tokens: H, out: 2 });
      h.add({ id: 'd-long', client: 'a', tokens: concat(H, range(43_000, 10)), out: 2 });
      h.add({ id: 'other', client: 'a', tokens: range(44_000, 40), out: 2 });
      h.step();
      expect(h.admitted, policy).toEqual(['first', 'other', 'd-short', 'd-long']);
    }
  });

  it('stops at the first request that does not fit (head-of-line in LPM order)', () => {
    const h = warmed('lpm');
    h.add({ id: 'small', client: 'a', tokens: range(7000, 5), out: 2 });
    h.add({ id: 'cached-big', client: 'a', tokens: concat(P, X, range(8000, 200)), out: 2 });
    const before = h.admitted.length;
    // leave room for 'small' but not for the 200 uncached tokens of 'cached-big'
    const w = h.w;
    w.kv.allocate(w.kv.freeBlocks - 100);
    h.step();
    expect(h.admitted.slice(before)).toEqual([]);
  });
});

describe('DFS-weight', () => {
  it('visits the heaviest branch first and emits a node’s requests after its subtree', () => {
    const h = warmed('dfs-weight');
    queue(h);
    // weights: Y 2, X 1, P 4 (1 own + 3 below), root 5 → Y's w2 w3, then X's w1, then P's w4, then root's w5
    expect(h.policy.waiting(10).map((r) => r.id)).toEqual(['w2', 'w3', 'w1', 'w4', 'w5']);
    h.step();
    expect(h.admitted).toEqual(['w2', 'w3', 'w1', 'w4', 'w5']);
  });

  it('equal weights: the older radix node first', () => {
    const h = warmed('dfs-weight');
    h.add({ id: 'y1', client: 'a', tokens: concat(P, Y, range(2000, 5)), out: 2 });
    h.add({ id: 'x1', client: 'a', tokens: concat(P, X, range(1000, 5)), out: 2 });
    // P+X was cached first; caching P+Y cut it at P: X is P's first child, Y joined after it
    expect(h.policy.waiting(10).map((r) => r.id)).toEqual(['x1', 'y1']);
  });

  it('a match ending inside an edge hangs just above that node: after the node’s own requests', () => {
    const h = warmed('dfs-weight');
    h.add({ id: 'mid', client: 'a', tokens: concat(P, range(100, 5), range(6000, 5)), out: 2 }); // 25 of P+X
    h.add({ id: 'end', client: 'a', tokens: concat(P, X, range(1000, 5)), out: 2 }); // all 30
    expect(h.policy.waiting(10).map((r) => r.id)).toEqual(['end', 'mid']);
  });
});
