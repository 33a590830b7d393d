/**
 * DFS-weight's order kept live (#15.3) instead of rebuilt every batch step: the same order as
 * ./policy.ts's `dfsWeightOrder` (kept as the reference the tests compare with), maintained under
 * the radix cache's changes.
 *
 * Where each waiting request's match ends comes from ../shared/live-prefix-order.ts (a request is
 * refreshed only when the tree changed where it is registered). Here, per radix node that has
 * waiting requests in its subtree, a Hang keeps its weight (requests hanging in the subtree), its
 * own requests ordered by (longer match, queue position) and its children with weight ordered by
 * (heavier, older node = smaller id): all as the reference sorts them.
 *   - A request that starts or stops hanging at a node adds or removes 1 along the path to the root
 *     (each ancestor re-placed among its siblings): O(depth · log) per request whose match moved,
 *     arrived or was admitted. An evicted leaf's requests move to its parent, a new leaf takes some
 *     of its parent's requests: both only through those requests.
 *   - A split puts the new upper node between the lower one and its parent, with the lower one's
 *     weight (it takes the lower one's place among its siblings, with its own, newer id). Splits are
 *     applied at the next read, in the order they happened, so the order a step walks is the one at
 *     its start, as the reference sorts once.
 * The order is emitted lazily, post-order (a node's own requests after its subtree): O(log) per node
 * entered and per request emitted, so taking k requests enters at most (k + 1) · depth nodes, and
 * about depth + k when they share a branch; the rest of the queue is never read.
 */
import type { SimRequest } from '../../sim/request';
import type { AdmissionContext, LocalPolicy, WorkerView } from '../../replica/local-policy';
import type { RadixCache, RadixNode } from '../../replica/radix-cache';
import { type KeyListener, type LiveEntry, LivePrefixOrder } from '../shared/live-prefix-order';
import { type Order, Treap } from '../shared/treap';
import type { DfsWeightDetail } from './policy';

/** Deliberately broken variants, for tests only (never set outside tests). */
export const liveDfsFaults = {
  /** Children with equal weight in no particular order (tie by weight only: insertion order). */
  tieByWeightOnly: false,
  /** Splits do not put the new upper node into the tree of weights. */
  ignoreSplitNode: false,
  /** A node's own requests in queue order only (match ignored). */
  ownByPosition: false,
};

/** One radix node with waiting requests in its subtree. */
class Hang {
  weight = 0;
  /** Position stamp among equal-weight siblings for the tieByWeightOnly fault. */
  stamp = 0;
  readonly kids = new Treap<Hang>(new KidOrder());
  readonly own = new Treap<LiveEntry>(new OwnOrder());
  constructor(
    readonly node: RadixNode,
    public parent: Hang | null,
  ) {}
}

class KidOrder implements Order<Hang> {
  before(a: Hang, b: Hang): boolean {
    if (a.weight !== b.weight) return a.weight > b.weight;
    return liveDfsFaults.tieByWeightOnly ? a.stamp < b.stamp : a.node.id < b.node.id;
  }
}

class OwnOrder implements Order<LiveEntry> {
  before(a: LiveEntry, b: LiveEntry): boolean {
    if (a.match !== b.match && !liveDfsFaults.ownByPosition) return a.match > b.match;
    return a.pos < b.pos;
  }
}

/** The tree of weights, kept by the live prefix order's key changes. */
class Weights implements KeyListener {
  readonly hangs = new Map<RadixNode, Hang>();
  /** Where each entry hangs (null: not placed). */
  readonly placed = new Map<LiveEntry, Hang>();
  /** Splits not yet applied: lower, upper, lower, upper, … */
  pending: RadixNode[] = [];
  radix: RadixCache | null = null;
  private stamps = 0;

  joining(e: LiveEntry): void {
    this.place(e);
  }

  leaving(e: LiveEntry): void {
    this.unplace(e);
  }

  synced(e: LiveEntry): void {
    const node = this.nodeOf(e);
    if (this.placed.get(e)?.node === node) return;
    this.unplace(e);
    this.place(e);
  }

  private nodeOf(e: LiveEntry): RadixNode {
    return e.part ?? e.full ?? (this.radix as RadixCache).root;
  }

  private place(e: LiveEntry): void {
    const h = this.hangOf(this.nodeOf(e));
    h.own.insert(e);
    this.placed.set(e, h);
    this.bump(h, 1);
  }

  private unplace(e: LiveEntry): void {
    const h = this.placed.get(e);
    if (h === undefined) return;
    this.placed.delete(e);
    h.own.remove(e);
    this.bump(h, -1);
  }

  /** The Hang of a live node, made (with its missing ancestors) at weight 0 if need be. */
  private hangOf(node: RadixNode): Hang {
    const h = this.hangs.get(node);
    if (h !== undefined) return h;
    const parent = node.parent === null ? null : this.hangOf(node.parent);
    const made = new Hang(node, parent);
    made.stamp = this.stamps++;
    this.hangs.set(node, made);
    return made;
  }

  /** Add `d` to the weight of `h` and its ancestors, each re-placed among its siblings. */
  private bump(h: Hang, d: number): void {
    for (let x: Hang | null = h; x !== null; x = x.parent) {
      const p = x.parent;
      if (p !== null && x.weight > 0) p.kids.remove(x);
      x.weight += d;
      if (x.weight > 0) {
        if (p !== null) p.kids.insert(x);
      } else if (p !== null) this.hangs.delete(x.node);
    }
  }

  /** Put each split's new upper node between the lower one and its parent, in event order. */
  applySplits(): void {
    const list = this.pending;
    if (list.length === 0) return;
    this.pending = [];
    for (let k = 0; k < list.length; k += 2) {
      const lower = this.hangs.get(list[k]);
      if (lower === undefined || liveDfsFaults.ignoreSplitNode) continue;
      const p = lower.parent as Hang;
      const upper = new Hang(list[k + 1], p);
      upper.stamp = this.stamps++;
      if (lower.weight > 0) p.kids.remove(lower);
      upper.weight = lower.weight;
      if (upper.weight > 0) {
        p.kids.insert(upper);
        upper.kids.insert(lower);
      }
      lower.parent = upper;
      this.hangs.set(upper.node, upper);
    }
  }
}

/** A lazy post-order walk of the weights: children heaviest first, then the node's own requests. */
class Walk {
  private readonly nodes: Hang[] = [];
  /** Per frame: the last child visited (null: none yet). */
  private readonly lastKid: (Hang | null)[] = [];
  private ownOf: Hang | null = null;
  private lastOwn: LiveEntry | null = null;

  constructor(root: Hang | undefined) {
    if (root !== undefined && root.weight > 0) {
      this.nodes.push(root);
      this.lastKid.push(null);
    }
  }

  next(): LiveEntry | null {
    for (;;) {
      if (this.ownOf !== null) {
        const e = this.ownOf.own.after(this.lastOwn);
        if (e !== null) {
          this.lastOwn = e;
          return e;
        }
        this.ownOf = null;
      }
      const top = this.nodes.length - 1;
      if (top < 0) return null;
      const h = this.nodes[top];
      const kid = h.kids.after(this.lastKid[top]);
      if (kid !== null) {
        this.lastKid[top] = kid;
        this.nodes.push(kid);
        this.lastKid.push(null);
        continue;
      }
      this.nodes.pop();
      this.lastKid.pop();
      this.ownOf = h;
      this.lastOwn = null;
    }
  }
}

export class LiveDfsWeightPolicy implements LocalPolicy {
  readonly name = 'dfs-weight';
  private readonly weights = new Weights();
  private readonly live = new LivePrefixOrder(this.weights);
  private radix: RadixCache | null = null;

  size(): number {
    return this.live.size;
  }

  enqueue(req: SimRequest, worker: WorkerView, front: boolean): void {
    if (this.radix === null) {
      const radix = worker.radix;
      this.radix = radix;
      this.weights.radix = radix;
      // DFS-weight has no in-batch deferral (the reference ignores it)
      this.live.attach(radix, false);
      radix.changeListener = new Relay(this.live, this.weights);
    }
    this.live.add(req, front);
  }

  private sync(): void {
    this.weights.applySplits();
    this.live.sync();
  }

  private walk(): Walk {
    return new Walk(this.radix === null ? undefined : this.weights.hangs.get(this.radix.root));
  }

  admit(ctx: AdmissionContext): void {
    this.sync();
    const walk = this.walk();
    const taken: LiveEntry[] = [];
    // the order is the one at the start of the step: admissions change the tree, but events only
    // mark requests dirty and queue splits until the next sync, as the reference sorts once
    for (let e = walk.next(); e !== null; e = walk.next()) {
      const rank = taken.length;
      const match = e.match;
      const outcome = ctx.recording
        ? ctx.tryAdmit(e.req, `heaviest radix branch first (${match} tokens cached)`, {
            algo: 'dfs-weight',
            prefix_match: match,
            rank,
          } satisfies DfsWeightDetail)
        : ctx.tryAdmit(e.req);
      if (outcome !== 'admitted') break; // head-of-line in DFS-weight order
      taken.push(e);
    }
    for (const e of taken) this.live.remove(e);
  }

  waiting(limit: number): SimRequest[] {
    this.sync();
    const walk = this.walk();
    const out: SimRequest[] = [];
    while (out.length < limit) {
      const e = walk.next();
      if (e === null) break;
      out.push(e.req);
    }
    return out;
  }
}

/** The radix cache's one listener: the live prefix order first, then the splits for the weights. */
class Relay {
  constructor(
    private readonly live: LivePrefixOrder,
    private readonly weights: Weights,
  ) {}
  evicted(node: RadixNode): void {
    this.live.evicted(node);
  }
  inserted(leaf: RadixNode): void {
    this.live.inserted(leaf);
  }
  split(lower: RadixNode, upper: RadixNode): void {
    this.live.split(lower);
    this.weights.pending.push(lower, upper);
  }
}
