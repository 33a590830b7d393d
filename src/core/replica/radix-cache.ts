/**
 * A radix prefix cache over token sequences (the idea of SGLang's RadixAttention), page-granular.
 *
 * Every edge holds a run of tokens whose length is a multiple of the KV block size, so each node owns
 * exactly `len / blockSize` KV blocks. Sequences are compared page by page through their page
 * fingerprints (./pages.ts: a 30-bit key and a 32-bit check per page, computed once per prompt), and
 * an edge stores the fingerprints of its pages, not token ids. Children are keyed by their first
 * page's key; a lookup always compares key and check of every page, so two pages whose keys collide
 * are a cache miss, never a wrong match (a wrong match needs both words to collide: about 2^-62).
 *
 * Locks: a running request locks the node its cached prefix ends at, which adds one to the lock count
 * of that node and of every ancestor. Only unlocked leaves can be evicted. Eviction takes leaves in
 * least-recently-used order (ties: older node first) and re-checks the parent, which may have become
 * an unlocked leaf itself. The LRU order lives in an EvictionQueue with lazy deletion: a node whose
 * state changed gets a new version and its stale entries are skipped.
 */
import { EvictionQueue } from './eviction-queue';
import { PageSeq } from './pages';
import { TokenSlab } from './token-slab';

/** What the cache's lookups accept: page fingerprints, or token ids (fingerprinted on the spot). */
export type TokenSeq = PageSeq | Int32Array;

export class RadixNode {
  parent: RadixNode | null;
  /**
   * Children by page key. Evicted children stay in the map, flagged `removed`, until the map is
   * compacted: deleting from a large, churning Map is slow in JavaScript engines.
   */
  children: Map<number, RadixNode> | null = null;
  /** Live (not removed) children. */
  nChildren = 0;
  /**
   * Page fingerprints of this edge (see ./pages.ts): page j of the edge is at `src[2 (start / b + j)]`
   * (key) and the word after it (check), for block size b. `start` is in tokens (a multiple of b)
   * and `len` in tokens, so `start`/`len` read as if `src` held the token ids.
   */
  src: Int32Array;
  start: number;
  len: number;
  /** Hash of this edge's first page (its key in the parent's map). */
  key: number;
  /** Number of locked nodes in this subtree, this node included. */
  lock = 0;
  lastAccess: number;
  /** Bumped on every change that may invalidate an eviction-heap entry. */
  version = 0;
  removed = false;
  /**
   * This node's place among its siblings, in the order SGLang's children dict keeps (insertion
   * order): a smaller slot entered its parent's map earlier. A new leaf takes a fresh slot (its id);
   * a split's new upper node takes the lower one's slot (it replaces it under the same key), and the
   * lower one, now the upper's first child, a fresh slot. The map here is no guide: an evicted child
   * keeps its entry until compaction, so a re-inserted one would take the old place (SGLang's
   * eviction deletes the entry and a re-insert goes last). DFS-weight breaks equal weights by it.
   */
  slot: number;

  constructor(
    readonly id: number,
    parent: RadixNode | null,
    src: Int32Array,
    start: number,
    len: number,
    key: number,
    now: number,
  ) {
    this.parent = parent;
    this.src = src;
    this.start = start;
    this.len = len;
    this.key = key;
    this.lastAccess = now;
    this.slot = id;
  }

  get isLeaf(): boolean {
    return this.nChildren === 0;
  }
}

/** Where a prefix lookup ended: the deepest node fully or partly matched, and the matched length. */
/** Where a walk ended (see `RadixCache.walk`). */
export interface WalkEnd extends PrefixMatch {
  /** The page key the walk read at its starting depth (-1 when it read none). */
  firstKey: number;
}

export interface PrefixMatch {
  /** Matched tokens (a multiple of the block size). */
  length: number;
  /** The node the match ends in (the root when nothing matched). */
  node: RadixNode;
  /** Tokens of `node` matched (< node.len means the match ends inside the edge). */
  within: number;
}

/** A bounded description of the tree for snapshots. */
export interface RadixSummary {
  nodes: number;
  cached_tokens: number;
  /** Nodes with a non-zero lock count (held by running requests). */
  locked_nodes: number;
  /** Unlocked leaves (what eviction can take next). */
  evictable_leaves: number;
  /** Up to `limit` nodes, most recently used paths first: [id, parentId, tokens, lock]. */
  top: [number, number, number, number][];
}

/** Hears about evictions (an object, not a callback, so deep copies of the engine stay wired). */
export interface EvictListener {
  evicted(node: RadixNode): void;
}

/**
 * Hears about every change of the tree's shape, the only events that can change where a prefix
 * match ends (an object, for the same reason as EvictListener). LPM keeps its order live with it.
 */
export interface RadixChangeListener {
  /** Leaf `node` left the tree (its `parent` still names where it hung). */
  evicted(node: RadixNode): void;
  /** New leaf `leaf` now hangs under `leaf.parent`, keyed by its first page (`leaf.key`). */
  inserted(leaf: RadixNode): void;
  /** `lower` (the same object as before) was cut: its first `upper.len` tokens are the new `upper`. */
  split(lower: RadixNode, upper: RadixNode): void;
}

export class RadixCache {
  readonly blockSize: number;
  readonly root: RadixNode;
  private nextId = 1;
  private tokens = 0;
  private count = 0;
  private locked = 0;
  /** Σ tokens of locked nodes (see `evictableBlockCount`). */
  private lockedTokenCount = 0;
  private readonly lru = new EvictionQueue<RadixNode>();
  private readonly popped: { node: RadixNode | null; version: number } = { node: null, version: 0 };
  /**
   * Told of every node `evict` removes, right after it left the tree (its `parent` link still names
   * where it hung). Routers with a global prefix tree listen here; null = nobody listens.
   */
  evictListener: EvictListener | null = null;
  /** Told of every eviction, new leaf and split (see RadixChangeListener); null = nobody listens. */
  changeListener: RadixChangeListener | null = null;
  /** Storage for the page runs of edges copied out of larger arrays. */
  private readonly runs = new TokenSlab();

  constructor(blockSize: number) {
    this.blockSize = blockSize;
    this.root = new RadixNode(0, null, new Int32Array(0), 0, 0, 0, 0);
    this.root.lock = 1; // never evicted
  }

  /** Tokens held by the tree (a multiple of the block size). */
  get cachedTokens(): number {
    return this.tokens;
  }

  get cachedBlocks(): number {
    return this.tokens / this.blockSize;
  }

  /**
   * Blocks that eviction could free right now. Locks run from a node up to the root, so every
   * unlocked node has only unlocked descendants and can go, leaf by leaf: evictable = cached −
   * locked. O(1), kept by `lock`/`unlock` (a split keeps the locked total the same).
   */
  get evictableBlockCount(): number {
    return (this.tokens - this.lockedTokenCount) / this.blockSize;
  }

  get nodeCount(): number {
    return this.count;
  }

  /** `seq` as page fingerprints of this cache's block size. */
  pages(seq: TokenSeq): PageSeq {
    if (seq instanceof Int32Array) return PageSeq.fromTokens(seq, this.blockSize);
    if (seq.size !== this.blockSize)
      throw new Error(
        `radix cache: pages of ${seq.size} tokens given to a cache of ${this.blockSize}-token blocks`,
      );
    return seq;
  }

  /** Longest cached prefix of the first `maxLen` tokens of `seq`, in whole pages. Read-only: touches nothing. */
  match(seq: TokenSeq, maxLen = seq.length): PrefixMatch {
    const b = this.blockSize;
    return this.walk(this.pages(seq), this.root, 0, Math.floor(Math.min(maxLen, seq.length) / b) * b);
  }

  /**
   * The one prefix walk (`match` and the remembered matches of LPM-like queues use it): from `node`,
   * whose end is at depth `pos` of `seq`, follow whole pages down to `limit` (a multiple of the
   * block size). The result says where the match ends, as `match` does, and the page key it used at
   * `pos` (-1 when it read none).
   */
  walk(seq: PageSeq, node: RadixNode, pos: number, limit: number): WalkEnd {
    const b = this.blockSize;
    const d = seq.data;
    let firstKey = -1;
    let at = 2 * (pos / b);
    while (pos + b <= limit) {
      const key = d[at];
      if (firstKey < 0) firstKey = key;
      const child = node.children?.get(key);
      if (child === undefined || child.removed) break;
      const room = 2 * (Math.min(child.len, limit - pos) / b);
      const src = child.src;
      const off = 2 * (child.start / b) - at;
      let c = 0;
      while (c < room && src[off + at + c] === d[at + c] && src[off + at + c + 1] === d[at + c + 1]) c += 2;
      if (c === 0) break; // the first page's keys collide, the pages differ: a miss
      at += c;
      const tokens = (c / 2) * b;
      pos += tokens;
      if (tokens < child.len) return { length: pos, node: child, within: tokens, firstKey };
      node = child;
    }
    return { length: pos, node, within: node.len, firstKey };
  }

  /** Matched prefix length only (the hot path of routers and LPM-like policies). */
  matchLength(seq: TokenSeq, maxLen = seq.length): number {
    return this.match(seq, maxLen).length;
  }

  /**
   * Match and lock the matched prefix for a running request (splitting an edge when the match ends
   * inside it). Returns the locked node and the matched length; release with `unlock(node)`.
   */
  acquire(seq: TokenSeq, maxLen: number, now: number): { node: RadixNode; length: number } {
    const m = this.match(seq, maxLen);
    let node = m.node;
    if (m.within < node.len) node = this.split(node, m.within);
    this.lock(node, now);
    return { node, length: m.length };
  }

  /** Add one lock along the path from `node` to the root, and mark the path as used now. */
  lock(node: RadixNode, now: number): void {
    for (let n: RadixNode | null = node; n !== null && n !== this.root; n = n.parent) {
      if (n.lock === 0) {
        n.version++;
        this.locked++;
        this.lockedTokenCount += n.len;
      }
      n.lock++;
      n.lastAccess = now;
    }
  }

  /** Remove one lock along the path; nodes that become unlocked leaves turn evictable. */
  unlock(node: RadixNode, now: number): void {
    for (let n: RadixNode | null = node; n !== null && n !== this.root; n = n.parent) {
      if (n.lock <= 0) throw new Error(`radix cache: lock count of node ${n.id} would go negative`);
      n.lock--;
      if (n.lock === 0) {
        this.locked--;
        this.lockedTokenCount -= n.len;
      }
      n.lastAccess = now;
      if (n.lock === 0 && n.isLeaf) this.pushEvictable(n);
    }
  }

  /**
   * Insert `tokens[0 .. len)` (len rounded down to whole pages). Returns the deepest node covering
   * the inserted prefix, how many tokens the path covers (normally all of them) and how many were new
   * (their blocks now belong to the tree; the caller transfers them from its own).
   */
  insert(seq: TokenSeq, len: number, now: number): { node: RadixNode; covered: number; added: number } {
    return this.insertFrom(this.root, 0, this.pages(seq).data, 0, len, now);
  }

  /**
   * Insert continuing below `from`, whose path from the root is the first `depth` tokens of the
   * sequence (e.g. a request's locked node). `src` holds page fingerprints of the sequence (2 words
   * per page, ./pages.ts) from page `srcPage` on: page k of the sequence is at `src[2 (k - srcPage)]`
   * for k ≥ depth / b (srcPage may be negative when the run sits further into a shared slab). Saves
   * re-walking a known prefix and lets callers pass only the new tail.
   */
  insertFrom(
    from: RadixNode,
    depth: number,
    src: Int32Array,
    srcPage: number,
    len: number,
    now: number,
    /** `src` is compact storage already (a run of a slab): never copy it. */
    compact = false,
  ): { node: RadixNode; covered: number; added: number } {
    const b = this.blockSize;
    const srcPages = src.length >> 1;
    const limit = Math.min(Math.floor(len / b), srcPage + srcPages) * b;
    let node = from;
    let pos = depth;
    while (pos < limit) {
      const at = 2 * (pos / b - srcPage);
      const key = src[at];
      const child = node.children?.get(key);
      if (child === undefined || child.removed) {
        // A new edge that is a small part of its array (a chunk or the tail of a long prompt) gets
        // its own copy: otherwise the tree, which holds about KV-size tokens, would keep every
        // request's whole prompt alive long after it finished (#15.3). Same pages, only stored apart.
        let own = src;
        let ownAt = at;
        const len = limit - pos;
        const words = 2 * (len / b);
        if (!compact && 2 * words < src.length) {
          const run = this.runs.take(words);
          run.src.set(src.subarray(at, at + words), run.offset);
          own = run.src;
          ownAt = run.offset;
        }
        const leaf = new RadixNode(this.nextId++, node, own, (ownAt / 2) * b, len, key, now);
        if (node.children === null) node.children = new Map();
        if (node !== this.root && node.lock === 0 && node.nChildren === 0) node.version++;
        node.children.set(key, leaf);
        node.nChildren++;
        this.count++;
        this.tokens += leaf.len;
        this.pushEvictable(leaf);
        if (this.changeListener !== null) this.changeListener.inserted(leaf);
        return { node: leaf, covered: limit, added: leaf.len };
      }
      const room = 2 * (Math.min(child.len, limit - pos) / b);
      const csrc = child.src;
      const cs = 2 * (child.start / b);
      let c = 0;
      while (c < room && csrc[cs + c] === src[at + c] && csrc[cs + c + 1] === src[at + c + 1]) c += 2;
      if (c === 0) return { node, covered: pos, added: 0 }; // first-page keys collide: stop caching here
      const tokens = (c / 2) * b;
      node = tokens < child.len ? this.split(child, tokens) : child;
      this.touch(node, now);
      pos += tokens;
    }
    return { node, covered: pos, added: 0 };
  }

  /** Split `child` after `at` tokens; returns the new upper node (which inherits locks and age). */
  private split(child: RadixNode, at: number): RadixNode {
    const parent = child.parent!;
    const upper = new RadixNode(
      this.nextId++,
      parent,
      child.src,
      child.start,
      at,
      child.key,
      child.lastAccess,
    );
    upper.lock = child.lock;
    if (upper.lock > 0) this.locked++;
    upper.slot = child.slot;
    child.slot = upper.id;
    parent.children!.set(child.key, upper);
    child.start += at;
    child.len -= at;
    child.key = child.src[2 * (child.start / this.blockSize)];
    child.parent = upper;
    upper.children = new Map([[child.key, child]]);
    upper.nChildren = 1;
    this.count++;
    if (this.changeListener !== null) this.changeListener.split(child, upper);
    return upper;
  }

  /**
   * Free at least `blocks` blocks by evicting unlocked leaves, least recently used first.
   * Returns the blocks actually freed (less when everything left is locked).
   */
  evict(blocks: number): number {
    let freed = 0;
    const b = this.blockSize;
    while (freed < blocks) {
      if (!this.lru.pop(this.popped)) break;
      const n = this.popped.node!;
      if (n.removed || n.version !== this.popped.version || n.lock !== 0 || !n.isLeaf) continue;
      const parent = n.parent!;
      parent.nChildren--;
      if (parent.children!.size > 2 * parent.nChildren + 8) compactChildren(parent);
      n.removed = true;
      this.count--;
      this.tokens -= n.len;
      freed += n.len / b;
      if (this.evictListener !== null) this.evictListener.evicted(n);
      if (this.changeListener !== null) this.changeListener.evicted(n);
      if (parent !== this.root && parent.lock === 0 && parent.nChildren === 0) this.pushEvictable(parent);
    }
    return freed;
  }

  /** Blocks that eviction could free right now (unlocked subtrees): `evictableBlockCount`, O(1). */
  evictableBlocks(): number {
    return this.evictableBlockCount;
  }

  /** The same by walking the tree, O(nodes): `check` compares it with the O(1) count. */
  private evictableBlocksByWalk(): number {
    let t = 0;
    const walk = (n: RadixNode) => {
      if (n !== this.root && n.lock === 0) t += n.len;
      if (n.children) for (const c of n.children.values()) if (!c.removed) walk(c);
    };
    walk(this.root);
    return t / this.blockSize;
  }

  /** Mark a node as used now (re-queueing it for eviction when it is an unlocked leaf). */
  private touch(n: RadixNode, now: number): void {
    n.lastAccess = now;
    if (n.lock === 0 && n.isLeaf) this.pushEvictable(n);
  }

  private pushEvictable(n: RadixNode): void {
    n.version++;
    if (this.lru.size > 2 * this.count + 64) this.compactLru();
    this.lru.push(n);
  }

  /** Drop stale LRU entries: keep one current entry per evictable leaf. */
  private compactLru(): void {
    const live: RadixNode[] = [];
    const walk = (n: RadixNode) => {
      if (n !== this.root && n.lock === 0 && n.isLeaf) live.push(n);
      if (n.children) for (const c of n.children.values()) if (!c.removed) walk(c);
    };
    walk(this.root);
    this.lru.reset(live);
  }

  /** Structural checks (tests): lock counts consistent and non-negative, token total right. */
  check(): string | null {
    let tokens = 0;
    let nodes = 0;
    let problem: string | null = null;
    const walk = (n: RadixNode): number => {
      let childLocks = 0;
      let live = 0;
      if (n.children)
        for (const c of n.children.values()) {
          if (c.removed) continue;
          live++;
          if (c.parent !== n) problem ??= `node ${c.id} has a wrong parent`;
          if (c.len <= 0 || c.len % this.blockSize !== 0)
            problem ??= `node ${c.id} has ${c.len} tokens (not whole pages)`;
          childLocks += walk(c);
        }
      if (live !== n.nChildren) problem ??= `node ${n.id} counts ${n.nChildren} children, has ${live}`;
      if (n !== this.root) {
        nodes++;
        tokens += n.len;
        if (n.lock < 0) problem ??= `node ${n.id} has a negative lock count`;
        if (n.lock < childLocks) problem ??= `node ${n.id} has fewer locks than its children`;
      }
      return n === this.root ? 0 : n.lock;
    };
    walk(this.root);
    if (tokens !== this.tokens) problem ??= `cached tokens ${this.tokens} != sum of edges ${tokens}`;
    const walked = this.evictableBlocksByWalk();
    if (this.evictableBlockCount !== walked)
      problem ??= `evictable blocks ${this.evictableBlockCount} != ${walked} by a walk`;
    if (nodes !== this.count) problem ??= `node count ${this.count} != ${nodes}`;
    return problem;
  }

  summary(limit = 64): RadixSummary {
    // Best first by recency: a lock stamps its whole path to the root, so the most recently used
    // paths (the prefix an admission just matched among them) come first, and every listed node's
    // parent is listed before it. Ties: older node first. Bounded: `limit` pops from a heap.
    const top: [number, number, number, number][] = [];
    const heap: RadixNode[] = [];
    const before = (a: RadixNode, b: RadixNode) =>
      a.lastAccess > b.lastAccess || (a.lastAccess === b.lastAccess && a.id < b.id);
    const push = (n: RadixNode) => {
      let i = heap.push(n) - 1;
      while (i > 0) {
        const up = (i - 1) >> 1;
        if (!before(heap[i], heap[up])) break;
        [heap[i], heap[up]] = [heap[up], heap[i]];
        i = up;
      }
    };
    const pop = (): RadixNode => {
      const first = heap[0];
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        for (let i = 0; ; ) {
          const l = 2 * i + 1;
          const r = l + 1;
          let m = i;
          if (l < heap.length && before(heap[l], heap[m])) m = l;
          if (r < heap.length && before(heap[r], heap[m])) m = r;
          if (m === i) break;
          [heap[i], heap[m]] = [heap[m], heap[i]];
          i = m;
        }
      }
      return first;
    };
    const expand = (n: RadixNode) => {
      if (n.children !== null && n.nChildren > 0)
        for (const c of n.children.values()) if (!c.removed) push(c);
    };
    expand(this.root);
    while (heap.length > 0 && top.length < limit) {
      const n = pop();
      top.push([n.id, n.parent === this.root ? 0 : n.parent!.id, n.len, n.lock]);
      expand(n);
    }
    let leaves = 0;
    const stack: RadixNode[] = [this.root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.nChildren === 0) {
        if (n !== this.root && n.lock === 0) leaves++;
      } else for (const c of n.children!.values()) if (!c.removed) stack.push(c);
    }
    return {
      nodes: this.count,
      cached_tokens: this.tokens,
      locked_nodes: this.locked,
      evictable_leaves: leaves,
      top,
    };
  }
}

/** Rebuild a node's child map without its removed entries (insertion order kept). */
function compactChildren(n: RadixNode): void {
  const next = new Map<number, RadixNode>();
  for (const [k, c] of n.children!) if (!c.removed) next.set(k, c);
  n.children = next;
}
