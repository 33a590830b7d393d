/**
 * An ordered set (a treap: a binary search tree kept balanced by heap-ordered priorities) with
 * subtree sizes: insert, remove, the successor of an item, an item's rank and the first k items, all
 * O(log n) expected (first k: O(k + log n)). Items are ordered by `before`, a strict total order; an
 * item's key must not change while it is in the set (remove it, change it, insert it again).
 * Priorities come from a fixed xorshift sequence, so the shape, like everything else, is
 * deterministic.
 */
export interface Order<T> {
  before(a: T, b: T): boolean;
}

class TreapNode<T> {
  left: TreapNode<T> | null = null;
  right: TreapNode<T> | null = null;
  size = 1;
  constructor(
    readonly item: T,
    readonly pri: number,
  ) {}
}

const sizeOf = <T>(n: TreapNode<T> | null) => (n === null ? 0 : n.size);

export class Treap<T> {
  private root: TreapNode<T> | null = null;
  private seed = 0x9e3779b9;

  constructor(private readonly order: Order<T>) {}

  get size(): number {
    return sizeOf(this.root);
  }

  insert(item: T): void {
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x >>> 0;
    const node = new TreapNode(item, this.seed);
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
      n.size = 1 + sizeOf(n.left) + sizeOf(n.right);
      return [n, r];
    }
    const [l, r] = this.split(n.left, key);
    n.left = r;
    n.size = 1 + sizeOf(n.left) + sizeOf(n.right);
    return [l, n];
  }

  private merge(a: TreapNode<T> | null, b: TreapNode<T> | null): TreapNode<T> | null {
    if (a === null) return b;
    if (b === null) return a;
    if (a.pri > b.pri) {
      a.right = this.merge(a.right, b);
      a.size = 1 + sizeOf(a.left) + sizeOf(a.right);
      return a;
    }
    b.left = this.merge(a, b.left);
    b.size = 1 + sizeOf(b.left) + sizeOf(b.right);
    return b;
  }

  private without(n: TreapNode<T> | null, item: T): TreapNode<T> | null {
    if (n === null) return null;
    if (n.item === item) return this.merge(n.left, n.right);
    if (this.order.before(item, n.item)) n.left = this.without(n.left, item);
    else n.right = this.without(n.right, item);
    n.size = 1 + sizeOf(n.left) + sizeOf(n.right);
    return n;
  }
}
