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
 * Children are keyed by a hash of their page; a hit re-compares the tokens, so a hash collision is a
 * miss, never a wrong match.
 */

interface PageNode {
  /** The page's tokens are `src[off .. off + blockSize)`. */
  readonly src: Int32Array;
  readonly off: number;
  readonly key: number;
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
    this.root = this.node(new Int32Array(0), 0, 0, null);
  }

  /** Pages in the tree (for tests and snapshots). */
  get pageCount(): number {
    return this.pages;
  }

  private node(src: Int32Array, off: number, key: number, parent: PageNode | null): PageNode {
    return { src, off, key, parent, children: null, holders: new Uint32Array(this.words) };
  }

  private pageKey(src: Int32Array, pos: number): number {
    let h = 0x811c9dc5;
    for (let i = pos, end = pos + this.blockSize; i < end; i++) h = Math.imul(h ^ src[i], 0x01000193);
    return h | 0;
  }

  /** The child of `n` whose page equals `tokens[pos .. pos + blockSize)`, if any. */
  private child(n: PageNode, tokens: Int32Array, pos: number): PageNode | undefined {
    const c = n.children?.get(this.pageKey(tokens, pos));
    if (c === undefined) return undefined;
    const b = this.blockSize;
    for (let i = 0; i < b; i++) if (c.src[c.off + i] !== tokens[pos + i]) return undefined;
    return c;
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

  /** Longest prefix of `tokens` held by at least one worker, and its holders. Read-only. */
  match(tokens: Int32Array): GlobalMatch {
    const b = this.blockSize;
    let n = this.root;
    let pos = 0;
    while (pos + b <= tokens.length) {
      const c = this.child(n, tokens, pos);
      if (c === undefined) break;
      n = c;
      pos += b;
    }
    return { length: pos, holders: n === this.root ? [] : this.holderList(n) };
  }

  /** Tokens of the longest prefix of `tokens` that worker `w` is believed to hold. Read-only. */
  heldLength(tokens: Int32Array, w: number): number {
    const b = this.blockSize;
    let n = this.root;
    let pos = 0;
    while (pos + b <= tokens.length) {
      const c = this.child(n, tokens, pos);
      if (c === undefined || !GlobalPrefixTree.has(c, w)) break;
      n = c;
      pos += b;
    }
    return pos;
  }

  /** Record that worker `w` holds (or is about to hold) the whole pages of `tokens`. */
  insert(tokens: Int32Array, w: number): void {
    const b = this.blockSize;
    const word = w >>> 5;
    const bit = 1 << (w & 31);
    let n = this.root;
    for (let pos = 0; pos + b <= tokens.length; pos += b) {
      let c = this.child(n, tokens, pos);
      if (c === undefined) {
        const key = this.pageKey(tokens, pos);
        if (n.children === null) n.children = new Map();
        // a colliding key with different tokens: stop here (the rest stays unknown to the router)
        if (n.children.has(key)) return;
        c = this.node(tokens, pos, key, n);
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
  evict(path: Int32Array, depth: number, w: number): void {
    const b = this.blockSize;
    if (depth % b !== 0 || depth + b > path.length) return;
    let n = this.root;
    for (let pos = 0; pos < depth; pos += b) {
      const c = this.child(n, path, pos);
      if (c === undefined) return;
      n = c;
    }
    const top = this.child(n, path, depth);
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

/** The parts of a worker radix node needed to rebuild its token path. */
export interface RadixEdge {
  readonly parent: RadixEdge | null;
  readonly src: Int32Array;
  readonly start: number;
  readonly len: number;
}

/**
 * The tokens from the root down to the first page of `node`'s edge, and the depth at which that edge
 * starts: what `GlobalPrefixTree.evict` needs when a worker's cache evicts `node`.
 */
export function evictedBranch(node: RadixEdge, blockSize: number): { path: Int32Array; depth: number } {
  const edges: RadixEdge[] = [];
  let depth = 0;
  for (let n = node.parent; n !== null && n.parent !== null; n = n.parent) {
    edges.push(n);
    depth += n.len;
  }
  const head = Math.min(node.len, blockSize);
  const path = new Int32Array(depth + head);
  let pos = 0;
  for (let i = edges.length - 1; i >= 0; i--) {
    const e = edges[i];
    path.set(e.src.subarray(e.start, e.start + e.len), pos);
    pos += e.len;
  }
  path.set(node.src.subarray(node.start, node.start + head), pos);
  return { path, depth };
}
