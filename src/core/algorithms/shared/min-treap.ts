/**
 * An ordered set like ./treap.ts's, whose items each carry a number (given at insertion) and whose
 * subtrees keep the smallest of theirs: besides insert, remove, successor, rank and the first k
 * items, it finds the first item after a given one whose number is at most a bound, O(log n)
 * expected, however many items it passes over (a subtree whose smallest number is above the bound
 * is stepped over whole). Items are ordered by `before`, a strict total order; an item's key and
 * number must not change while it is in the set (remove it, change it, insert it again).
 * Priorities come from a fixed xorshift sequence, so the shape is deterministic.
 */
import type { Order } from './treap';

class Node<T> {
  left: Node<T> | null = null;
  right: Node<T> | null = null;
  size = 1;
  /** The smallest `value` in this subtree. */
  min: number;
  constructor(
    readonly item: T,
    readonly value: number,
    readonly pri: number,
  ) {
    this.min = value;
  }
}

const sizeOf = <T>(n: Node<T> | null) => (n === null ? 0 : n.size);

function pull<T>(n: Node<T>): void {
  const l = n.left;
  const r = n.right;
  n.size = 1 + sizeOf(l) + sizeOf(r);
  let m = n.value;
  if (l !== null && l.min < m) m = l.min;
  if (r !== null && r.min < m) m = r.min;
  n.min = m;
}

export class MinTreap<T> {
  private root: Node<T> | null = null;
  private seed = 0x9e3779b9;

  constructor(private readonly order: Order<T>) {}

  get size(): number {
    return sizeOf(this.root);
  }

  insert(item: T, value: number): void {
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x >>> 0;
    const node = new Node(item, value, this.seed);
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
    while (n !== null) {
      if (item === null || this.order.before(item, n.item)) {
        best = n.item;
        n = n.left;
      } else n = n.right;
    }
    return best;
  }

  /**
   * The first item strictly after `item` (from the start when null) whose value is at most `bound`,
   * or null.
   */
  firstAtMost(item: T | null, bound: number): T | null {
    return this.find(this.root, item, bound);
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
    const stack: Node<T>[] = [];
    let n = this.root;
    while ((n !== null || stack.length > 0) && out.length < limit) {
      while (n !== null) {
        stack.push(n);
        n = n.left;
      }
      const top = stack.pop() as Node<T>;
      out.push(top.item);
      n = top.right;
    }
    return out;
  }

  /**
   * In `n`'s subtree, the first item after `from` (null: every item qualifies) with value ≤ bound.
   * Along the boundary path (where `from` would sit) the search goes right past items not after
   * `from`; a subtree whose minimum is above the bound is never entered, and one wholly after `from`
   * whose minimum is within it holds the answer, so the search costs O(depth): the boundary path
   * plus one descent.
   */
  private find(n: Node<T> | null, from: T | null, bound: number): T | null {
    while (n !== null) {
      if (n.min > bound) return null;
      if (from !== null && !this.order.before(from, n.item)) {
        n = n.right; // n and its left subtree are not after `from`
        continue;
      }
      const inLeft = this.find(n.left, from, bound);
      if (inLeft !== null) return inLeft;
      if (n.value <= bound) return n.item;
      n = n.right;
      from = null; // everything right of n is after `from`
    }
    return null;
  }

  /** Split into (items before `key`, the rest). */
  private split(n: Node<T> | null, key: T): [Node<T> | null, Node<T> | null] {
    if (n === null) return [null, null];
    if (this.order.before(n.item, key)) {
      const [l, r] = this.split(n.right, key);
      n.right = l;
      pull(n);
      return [n, r];
    }
    const [l, r] = this.split(n.left, key);
    n.left = r;
    pull(n);
    return [l, n];
  }

  private merge(a: Node<T> | null, b: Node<T> | null): Node<T> | null {
    if (a === null) return b;
    if (b === null) return a;
    if (a.pri > b.pri) {
      a.right = this.merge(a.right, b);
      pull(a);
      return a;
    }
    b.left = this.merge(a, b.left);
    pull(b);
    return b;
  }

  private without(n: Node<T> | null, item: T): Node<T> | null {
    if (n === null) return null;
    if (n.item === item) return this.merge(n.left, n.right);
    if (this.order.before(item, n.item)) n.left = this.without(n.left, item);
    else n.right = this.without(n.right, item);
    pull(n);
    return n;
  }
}
