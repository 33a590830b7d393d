/**
 * A waiting queue that remembers where each request's prefix match in the worker's radix cache ended,
 * so LPM, DLPM and DFS-weight can re-read every match at every batch step for about O(1) each
 * instead of re-walking whole prompts (a long-context prompt is thousands of tokens to compare).
 *
 * Why a remembered match stays valid: the token path from the root to a node never changes while
 * the node lives. A split keeps the original node object as the lower part, so the depth at the end
 * of a node is fixed for its whole life; only leaves are evicted, so a live node's ancestors are
 * live. So for each request we keep
 *   - `full`: the deepest node its prompt covers completely, and the depth at that node's end;
 *   - `part`: the node the match ended inside (if any), the tokens matched in it, and that node's
 *     `start`/`len` when we looked (a split changes them).
 * On the next read: if `full` was evicted, climb to its nearest live ancestor (subtracting edge
 * lengths); if `part` is still there unchanged, the match cannot have grown (its next page differs
 * from the request's, and no other child can take the same page key while it lives), so the answer
 * is the same. If `part` was split at or above the match end (an admission locking a prefix), the
 * new upper nodes are fully matched and the match ends at the same place (in the lower part, or at
 * the end of the upper one, from where it may go on into a new sibling), so the memo moves down
 * without comparing tokens again. Otherwise continue matching from
 * `full` exactly as `RadixCache.match` does from the root. The result always equals a fresh `radix.match` (checked by tests).
 */
import type { SimRequest } from '../../sim/request';
import type { RadixCache, RadixNode } from '../../replica/radix-cache';
import { reusableLimit } from './prefix-order';

/** Where one request's match ended last time. */
export interface Memo {
  full: RadixNode | null;
  fullDepth: number;
  part: RadixNode | null;
  partWithin: number;
  partStart: number;
  partLen: number;
}

const fresh = (): Memo => ({
  full: null,
  fullDepth: 0,
  part: null,
  partWithin: 0,
  partStart: 0,
  partLen: 0,
});

export class MatchedQueue {
  /** Waiting requests in queue order (a preempted request first). */
  items: SimRequest[] = [];
  private memos: Memo[] = [];

  get length(): number {
    return this.items.length;
  }

  push(r: SimRequest): void {
    this.items.push(r);
    this.memos.push(fresh());
  }

  unshift(r: SimRequest): void {
    this.items.unshift(r);
    this.memos.unshift(fresh());
  }

  /** Keep only the entries whose flag is 0. */
  removeFlagged(flags: Uint8Array): void {
    let k = 0;
    const items = this.items;
    const memos = this.memos;
    for (let i = 0; i < items.length; i++)
      if (flags[i] === 0) {
        items[k] = items[i];
        memos[k] = memos[i];
        k++;
      }
    items.length = k;
    memos.length = k;
  }

  /**
   * The queue becomes its entries `order[from]`, `order[from + 1]`, …: a step's sorted order less
   * the `from` requests it admitted from its head (SGLang's list after its in-place sort).
   */
  keepInOrder(order: ArrayLike<number>, from: number): void {
    const items: SimRequest[] = [];
    const memos: Memo[] = [];
    for (let k = from; k < order.length; k++) {
      items.push(this.items[order[k]]);
      memos.push(this.memos[order[k]]);
    }
    this.items = items;
    this.memos = memos;
  }

  /** Cached prefix of entry `i` in `radix` (the same as `radix.matchLength` with the reuse limit). */
  matchLength(i: number, radix: RadixCache): number {
    const m = this.refresh(i, radix);
    return m.part === null ? m.fullDepth : m.fullDepth + m.partWithin;
  }

  /** The node the match of entry `i` ends in (inside it when `within < node.len`) and the length. */
  matchEnd(i: number, radix: RadixCache): { node: RadixNode; within: number; length: number } {
    const m = this.refresh(i, radix);
    if (m.part !== null) return { node: m.part, within: m.partWithin, length: m.fullDepth + m.partWithin };
    const node = m.full ?? radix.root;
    return { node, within: node.len, length: m.fullDepth };
  }

  private refresh(i: number, radix: RadixCache): Memo {
    const m = this.memos[i];
    refreshMemo(m, this.items[i], radix);
    return m;
  }
}

/** Bring `m`, where request `r`'s match ended, up to date with `radix` (see the file comment). */
export function refreshMemo(m: Memo, r: SimRequest, radix: RadixCache): void {
  let full = m.full ?? radix.root;
  let depth = m.fullDepth;
  // climb out of evicted nodes
  while (full.removed) {
    depth -= full.len;
    full = full.parent ?? radix.root;
    m.part = null;
  }
  const p = m.part;
  if (p !== null && !p.removed) {
    if (p.start === m.partStart && p.len === m.partLen && p.parent === full) {
      m.full = full;
      m.fullDepth = depth;
      return;
    }
    // `p` was split since (the lower part keeps the object, its start moved down by `shift`): when
    // the split points lie above where the match ended, the new upper nodes are fully matched and
    // the match still ends inside `p`, at the same place
    const shift = p.start - m.partStart;
    if (shift > 0 && shift <= m.partWithin && m.partStart + m.partLen === p.start + p.len) {
      const upper = p.parent as RadixNode;
      if (shift < m.partWithin) {
        m.full = upper;
        m.fullDepth = depth + shift;
        m.partWithin -= shift;
        m.partStart = p.start;
        m.partLen = p.len;
        return;
      }
      // split exactly where the match ended: it ends at the end of the upper node now, and may go
      // on into a sibling branch the split made room for
      full = upper;
      depth += shift;
    }
  }
  // continue from `full` with the radix cache's own walk, as its `match` does from the root
  const b = radix.blockSize;
  const limit = Math.floor(Math.min(reusableLimit(r, b), r.promptLen) / b) * b;
  // (the request's page fingerprints are computed once: most re-reads stop at the first lookup)
  const w = radix.walk(r.pages(b), full, depth, limit);
  let newDepth: number;
  if (w.within < w.node.len) {
    m.part = w.node;
    m.partWithin = w.within;
    m.partStart = w.node.start;
    m.partLen = w.node.len;
    m.full = w.node.parent ?? radix.root;
    newDepth = w.length - w.within;
  } else {
    m.part = null;
    m.full = w.node;
    newDepth = w.length;
  }
  m.fullDepth = newDepth;
}
