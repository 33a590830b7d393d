/**
 * The router's global prefix tree (Preble's and DoubleQ's "global radix tree"): which workers are
 * believed to hold which prompt prefixes.
 *
 * The tree is page-granular: every node stands for one page (`blockSize` tokens) and carries the set
 * of workers holding the path from the root down to it. A prompt is inserted for a worker when the
 * router dispatches it there (before the worker has even computed it), and a worker is pruned from a
 * branch when that worker's own cache evicts the branch. Holder sets only shrink going down (a worker
 * holding a page holds every page above it), so a walk stops at the first page nobody holds, and
 * pruning only descends into nodes that still list the worker.
 *
 * Pages are compared by their fingerprints (../../replica/pages.ts: the same key and check words the
 * workers' radix caches use, computed once per prompt). Children are keyed by the page key; a hit
 * compares the check word too, so two pages whose keys collide are a miss, never a wrong match.
 */
import { PageSeq } from '../../replica/pages';
import type { TokenSeq } from '../../replica/radix-cache';

/** A prompt as the tree reads it: page fingerprints, or token ids (fingerprinted on the spot). */
type PagesOrTokens = TokenSeq;

interface PageNode {
  readonly key: number;
  readonly check: number;
  readonly parent: PageNode | null;
  children: Map<number, PageNode> | null;
  /** Bit set of worker ids holding this page (and so every page above it). */
  readonly holders: Uint32Array;
}

/** The longest prefix some worker is believed to hold, and who holds exactly that much. */
export interface GlobalMatch {
  /** Matched tokens (whole pages). */
  length: number;
  /** Workers holding the whole matched prefix, ascending (empty when nothing matched). */
  holders: number[];
}

export class GlobalPrefixTree {
  readonly blockSize: number;
  readonly workers: number;
  private readonly words: number;
  private readonly root: PageNode;
  private pages = 0;

  constructor(workers: number, blockSize: number) {
    this.workers = workers;
    this.blockSize = Math.max(1, blockSize);
    this.words = Math.max(1, Math.ceil(workers / 32));
    this.root = this.node(0, 0, null);
  }

  /** Pages in the tree (for tests and snapshots). */
  get pageCount(): number {
    return this.pages;
  }

  private node(key: number, check: number, parent: PageNode | null): PageNode {
    return { key, check, parent, children: null, holders: new Uint32Array(this.words) };
  }

  private pagesOf(seq: PagesOrTokens): Int32Array {
    if (seq instanceof Int32Array) return PageSeq.fromTokens(seq, this.blockSize).data;
    if (seq.size !== this.blockSize)
      throw new Error(`global prefix tree: pages of ${seq.size} tokens given to a tree of ${this.blockSize}`);
    return seq.data;
  }

  /** The child of `n` whose page has the fingerprint at `d[at]`, `d[at + 1]`, if any. */
  private child(n: PageNode, d: Int32Array, at: number): PageNode | undefined {
    const c = n.children?.get(d[at]);
    return c === undefined || c.check !== d[at + 1] ? undefined : c;
  }

  private static has(n: PageNode, w: number): boolean {
    return (n.holders[w >>> 5] & (1 << (w & 31))) !== 0;
  }

  private static empty(n: PageNode): boolean {
    for (let i = 0; i < n.holders.length; i++) if (n.holders[i] !== 0) return false;
    return true;
  }

  private holderList(n: PageNode): number[] {
    const out: number[] = [];
    for (let w = 0; w < this.workers; w++) if (GlobalPrefixTree.has(n, w)) out.push(w);
    return out;
  }

  /** Longest prefix of `seq` (whole pages) held by at least one worker, and its holders. Read-only. */
  match(seq: PagesOrTokens): GlobalMatch {
    const d = this.pagesOf(seq);
    let n = this.root;
    let at = 0;
    while (at < d.length) {
      const c = this.child(n, d, at);
      if (c === undefined) break;
      n = c;
      at += 2;
    }
    return { length: (at / 2) * this.blockSize, holders: n === this.root ? [] : this.holderList(n) };
  }

  /** Tokens of the longest prefix of `seq` that worker `w` is believed to hold. Read-only. */
  heldLength(seq: PagesOrTokens, w: number): number {
    const d = this.pagesOf(seq);
    let n = this.root;
    let at = 0;
    while (at < d.length) {
      const c = this.child(n, d, at);
      if (c === undefined || !GlobalPrefixTree.has(c, w)) break;
      n = c;
      at += 2;
    }
    return (at / 2) * this.blockSize;
  }

  /** Record that worker `w` holds (or is about to hold) the whole pages of `seq`. */
  insert(seq: PagesOrTokens, w: number): void {
    const d = this.pagesOf(seq);
    const word = w >>> 5;
    const bit = 1 << (w & 31);
    let n = this.root;
    for (let at = 0; at < d.length; at += 2) {
      let c = this.child(n, d, at);
      if (c === undefined) {
        const key = d[at];
        if (n.children === null) n.children = new Map();
        // a colliding key with a different page: stop here (the rest stays unknown to the router)
        if (n.children.has(key)) return;
        c = this.node(key, d[at + 1], n);
        n.children.set(key, c);
        this.pages++;
      }
      c.holders[word] |= bit;
      n = c;
    }
  }

  /**
   * Worker `w` evicted the branch that starts after the first `depth` tokens of `path` (path holds at
   * least depth + one page): `w` no longer holds anything from that page down. Pages nobody holds
   * any more leave the tree.
   */
  evict(path: PagesOrTokens, depth: number, w: number): void {
    const b = this.blockSize;
    const d = this.pagesOf(path);
    if (depth % b !== 0 || 2 * (depth / b + 1) > d.length) return;
    let n = this.root;
    const top2 = 2 * (depth / b);
    for (let at = 0; at < top2; at += 2) {
      const c = this.child(n, d, at);
      if (c === undefined) return;
      n = c;
    }
    const top = this.child(n, d, top2);
    if (top === undefined || !GlobalPrefixTree.has(top, w)) return;
    this.clear(top, w);
  }

  /**
   * Remove `w` from the subtree of `n` (only where it is listed). A page left without holders leaves
   * the tree with its whole subtree (holder sets shrink going down, so nobody holds anything below).
   */
  private clear(n: PageNode, w: number): void {
    const word = w >>> 5;
    const mask = ~(1 << (w & 31));
    const stack: PageNode[] = [n];
    while (stack.length > 0) {
      const x = stack.pop()!;
      x.holders[word] &= mask;
      if (GlobalPrefixTree.empty(x)) {
        x.parent?.children?.delete(x.key);
        this.pages -= this.countPages(x);
        continue;
      }
      if (x.children) for (const c of x.children.values()) if (GlobalPrefixTree.has(c, w)) stack.push(c);
    }
  }

  private countPages(n: PageNode): number {
    let count = 0;
    const stack: PageNode[] = [n];
    while (stack.length > 0) {
      const x = stack.pop()!;
      count++;
      if (x.children) for (const c of x.children.values()) stack.push(c);
    }
    return count;
  }

  /** Tokens each worker is believed to hold (pages × blockSize), index = worker. O(pages). */
  heldTokens(): number[] {
    const out = new Array<number>(this.workers).fill(0);
    const stack: PageNode[] = [this.root];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x !== this.root)
        for (let w = 0; w < this.workers; w++) if (GlobalPrefixTree.has(x, w)) out[w] += this.blockSize;
      if (x.children) for (const c of x.children.values()) stack.push(c);
    }
    return out;
  }
}

/** The parts of a worker radix node needed to rebuild its path (its edges' page fingerprints). */
export interface RadixEdge {
  readonly parent: RadixEdge | null;
  readonly src: Int32Array;
  readonly start: number;
  readonly len: number;
}

/**
 * The page fingerprints from the root down to the first page of `node`'s edge, and the depth (tokens)
 * at which that edge starts: what `GlobalPrefixTree.evict` needs when a worker's cache evicts `node`.
 */
export function evictedBranch(node: RadixEdge, blockSize: number): { path: PageSeq; depth: number } {
  const edges: RadixEdge[] = [];
  let depth = 0;
  for (let n = node.parent; n !== null && n.parent !== null; n = n.parent) {
    edges.push(n);
    depth += n.len;
  }
  const b = blockSize;
  const head = Math.min(node.len, b);
  const path = new Int32Array(2 * ((depth + head) / b));
  let at = 0;
  for (let i = edges.length - 1; i >= 0; i--) {
    const e = edges[i];
    const from = 2 * (e.start / b);
    const words = 2 * (e.len / b);
    path.set(e.src.subarray(from, from + words), at);
    at += words;
  }
  const from = 2 * (node.start / b);
  path.set(node.src.subarray(from, from + 2 * (head / b)), at);
  return { path: new PageSeq(b, depth + head, path), depth };
}
