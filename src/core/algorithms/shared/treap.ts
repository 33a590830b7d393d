/**
 * An ordered set (a treap: a binary search tree kept balanced by heap-ordered priorities) with
 * subtree sizes: insert, remove, the successor of an item, an item's rank and the first k items, all
 * O(log n) expected (first k: O(k + log n)). Items are ordered by `before`, a strict total order; an
 * item's key must not change while it is in the set (remove it, change it, insert it again).
 * Priorities come from a fixed xorshift sequence, so the shape, like everything else, is
 * deterministic.
 *
 * Optionally (a `Weights` object given to the constructor) each node also keeps its
 * item's weights, read once when the item is inserted, and the smallest of each in its subtree:
 * `firstAtMost` finds the first item after a given one whose weight (the first or the second) is at
 * most a limit in O(log n) expected. A weight, like the key, is what it was at insertion: re-insert an
 * item to refresh it. Without weights the set keeps none (one untaken branch per node update). Like
 * `Order`, `Weights` is an object, not a closure, so a forked simulation's copy of the set reads its
 * own copy of whatever the weights depend on.
 */
export interface Order<T> {
  before(a: T, b: T): boolean;
}

/** An item's two weights, read when it is inserted. */
export interface Weights<T> {
  weight(item: T): number;
  weight2(item: T): number;
}

class TreapNode<T> {
  left: TreapNode<T> | null = null;
  right: TreapNode<T> | null = null;
  size = 1;
  /** The subtree's smallest weights (with weights; else 0). */
  min: number;
  min2: number;
  constructor(
    readonly item: T,
    readonly pri: number,
    /** The item's weights at insertion (with weights; else 0). */
    readonly weight: number,
    readonly weight2: number,
  ) {
    this.min = weight;
    this.min2 = weight2;
  }
}

const sizeOf = <T>(n: TreapNode<T> | null) => (n === null ? 0 : n.size);
const minOf = <T>(n: TreapNode<T> | null, second: boolean) =>
  n === null ? Number.POSITIVE_INFINITY : second ? n.min2 : n.min;

export class Treap<T> {
  private root: TreapNode<T> | null = null;
  private seed = 0x9e3779b9;

  constructor(
    private readonly order: Order<T>,
    private readonly weights: Weights<T> | null = null,
  ) {}

  get size(): number {
    return sizeOf(this.root);
  }

  insert(item: T): void {
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x >>> 0;
    const node = new TreapNode(
      item,
      this.seed,
      this.weights === null ? 0 : this.weights.weight(item),
      this.weights === null ? 0 : this.weights.weight2(item),
    );
    const [l, r] = this.split(this.root, item);
    this.root = this.merge(this.merge(l, node), r);
  }

  remove(item: T): void {
    this.root = this.without(this.root, item);
  }

  /** The first item strictly after `item` (the first of all when `item` is null), or null. */
  after(item: T | null): T | null {
    let n = this.root;
    let best: T | null = null;
    const before = this.order;
    while (n !== null) {
      if (item === null || before.before(item, n.item)) {
        best = n.item;
        n = n.left;
      } else n = n.right;
    }
    return best;
  }

  /** The last item strictly before `item` (the last of all when `item` is null), or null. */
  prior(item: T | null): T | null {
    let n = this.root;
    let best: T | null = null;
    const order = this.order;
    while (n !== null) {
      if (item === null || order.before(n.item, item)) {
        best = n.item;
        n = n.right;
      } else n = n.left;
    }
    return best;
  }

  /**
   * The first item strictly after `item` (from the first when null) whose weight — the second when
   * `second` — is at most `limit`, or null (a set built with weights).
   */
  firstAtMost(item: T | null, limit: number, second = false): T | null {
    return this.atMost(this.root, item, limit, second);
  }

  private atMost(n: TreapNode<T> | null, item: T | null, limit: number, second: boolean): T | null {
    // down the search path for `item`; the subtrees wholly after it are tried in order, each in O(1)
    // by its minimum, and only the first that holds a match is entered
    while (n !== null && minOf(n, second) <= limit) {
      if (item !== null && !this.order.before(item, n.item)) {
        n = n.right;
        continue;
      }
      const left = this.atMost(n.left, item, limit, second);
      if (left !== null) return left;
      if ((second ? n.weight2 : n.weight) <= limit) return n.item;
      return this.leftmostAtMost(n.right, limit, second);
    }
    return null;
  }

  /** The first item of subtree `n` whose weight is at most `limit`. */
  private leftmostAtMost(n: TreapNode<T> | null, limit: number, second: boolean): T | null {
    while (n !== null && minOf(n, second) <= limit) {
      if (minOf(n.left, second) <= limit) n = n.left;
      else if ((second ? n.weight2 : n.weight) <= limit) return n.item;
      else n = n.right;
    }
    return null;
  }

  /** Items before `item` (it need not be in the set). */
  rank(item: T): number {
    let n = this.root;
    let r = 0;
    while (n !== null) {
      if (this.order.before(n.item, item)) {
        r += sizeOf(n.left) + 1;
        n = n.right;
      } else n = n.left;
    }
    return r;
  }

  /** The first `limit` items in order. */
  first(limit: number): T[] {
    const out: T[] = [];
    const stack: TreapNode<T>[] = [];
    let n = this.root;
    while ((n !== null || stack.length > 0) && out.length < limit) {
      while (n !== null) {
        stack.push(n);
        n = n.left;
      }
      const top = stack.pop() as TreapNode<T>;
      out.push(top.item);
      n = top.right;
    }
    return out;
  }

  /** Split into (items before `key`, the rest). */
  private split(n: TreapNode<T> | null, key: T): [TreapNode<T> | null, TreapNode<T> | null] {
    if (n === null) return [null, null];
    if (this.order.before(n.item, key)) {
      const [l, r] = this.split(n.right, key);
      n.right = l;
      this.fix(n);
      return [n, r];
    }
    const [l, r] = this.split(n.left, key);
    n.left = r;
    this.fix(n);
    return [l, n];
  }

  private merge(a: TreapNode<T> | null, b: TreapNode<T> | null): TreapNode<T> | null {
    if (a === null) return b;
    if (b === null) return a;
    if (a.pri > b.pri) {
      a.right = this.merge(a.right, b);
      this.fix(a);
      return a;
    }
    b.left = this.merge(a, b.left);
    this.fix(b);
    return b;
  }

  private without(n: TreapNode<T> | null, item: T): TreapNode<T> | null {
    if (n === null) return null;
    if (n.item === item) return this.merge(n.left, n.right);
    if (this.order.before(item, n.item)) n.left = this.without(n.left, item);
    else n.right = this.without(n.right, item);
    this.fix(n);
    return n;
  }

  /** Size (and, with weights, minimum) of `n` from its children. */
  private fix(n: TreapNode<T>): void {
    n.size = 1 + sizeOf(n.left) + sizeOf(n.right);
    if (this.weights !== null) {
      n.min = Math.min(n.weight, minOf(n.left, false), minOf(n.right, false));
      n.min2 = Math.min(n.weight2, minOf(n.left, true), minOf(n.right, true));
    }
  }
}
