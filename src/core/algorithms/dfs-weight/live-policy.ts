/**
 * DFS-weight's order kept live (#15.3) instead of rebuilt every batch step: the same order as
 * ./policy.ts's `dfsWeightOrder` over SGLang's kept list (the reference the tests compare with),
 * maintained under the radix cache's changes.
 *
 * Where each waiting request's match ends comes from ../shared/live-prefix-order.ts (a request is
 * refreshed only when the tree changed where it is registered). Here, per radix node that has
 * waiting requests in its subtree, a Hang keeps its weight (requests hanging in the subtree), its
 * own requests (Pins) ordered by (longer match, place in SGLang's list) and its children with
 * weight ordered by (heavier, earlier slot in the parent's children dict, `RadixNode.slot`): all as
 * the reference sorts them.
 *   - A request that starts or stops hanging at a node adds or removes 1 along the path to the root
 *     (each ancestor re-placed among its siblings): O(depth · log) per request whose match moved,
 *     arrived or was admitted. An evicted leaf's requests move to its parent, a new leaf takes some
 *     of its parent's requests: both only through those requests.
 *   - A split puts the new upper node between the lower one and its parent, with the lower one's
 *     weight and slot (the lower one takes a fresh slot under it). Splits are applied at the next
 *     read, in the order they happened, so the order a step walks is the one at its start, as the
 *     reference sorts once.
 *
 * The list, without keeping it. SGLang's list after a step is that step's walk; the walk is not
 * stored, but what it said about any two requests that meet at one point later can be read back:
 *   - each request remembers where the last sort (the start of the last admission) left it: its
 *     Hang, its match and a seq that orders it among the requests at that same point;
 *   - each Hang remembers its weight at that sort (w0); a split's upper node copies the lower one's.
 * A request's match moves only along its own prompt, so at the next sort the requests at one point
 * are, in list order: those that came to the front since (preempted under optimistic admission,
 * the latest first), those whose match shrank (they hung deeper on this path, in the subtree the
 * walk emitted before this point), those that stayed (by seq), those whose match grew (they hung
 * higher on this path: emitted after it; deeper first, then by seq) and the arrivals since (in
 * arrival order). Requests whose match shrank from different branches are ordered as the last walk
 * ordered those branches: climb to where their remembered Hangs meet and compare the two children
 * there by (w0, slot), O(depth). At the sort, the requests that moved since take seqs that keep
 * exactly this order (in front of the stayers from a falling counter, behind them from a rising
 * one), and the touched Hangs their new w0: O(depth · log) per request that moved, nothing for the
 * rest.
 *
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
  /** Equal matches at a node in arrival order, as if the list were rebuilt from arrivals each step. */
  tiesByArrival: false,
  /** Children with equal weight by node id (creation), not by their slot in the parent's map. */
  kidsById: false,
  /** Requests whose match shrank: among themselves in arrival order, not as the last walk put them. */
  shrunkByArrival: false,
  /** Requests whose match shrank from two branches: by the branches' slots, their weights then ignored. */
  shrunkBySlot: false,
};

/** One radix node with waiting requests in its subtree. */
class Hang {
  weight = 0;
  /** The weight at the last sort: how the last walk (the list) ordered this branch. */
  w0 = 0;
  /** Weight changed since the last sort (listed in `Weights.touched`). */
  touched = false;
  /** The node's slot among its siblings (`RadixNode.slot`), moved by splits as they are applied. */
  slot: number;
  /** Position stamp among equal-weight siblings for the tieByWeightOnly fault. */
  stamp = 0;
  readonly kids = new Treap<Hang>(new KidOrder());
  readonly own = new Treap<Pin>(new OwnOrder());
  constructor(
    readonly node: RadixNode,
    public parent: Hang | null,
  ) {
    this.slot = node.slot;
  }
}

/** Equal-weight siblings: `a` first. */
function tieBefore(a: Hang, b: Hang): boolean {
  if (liveDfsFaults.tieByWeightOnly) return a.stamp < b.stamp;
  if (liveDfsFaults.kidsById) return a.node.id < b.node.id;
  return a.slot < b.slot;
}

class KidOrder implements Order<Hang> {
  before(a: Hang, b: Hang): boolean {
    if (a.weight !== b.weight) return a.weight > b.weight;
    return tieBefore(a, b);
  }
}

/** One waiting request where the walk holds it. */
class Pin {
  /** The Hang it hangs at now (null: not placed) and the match it is filed under there. */
  hang: Hang | null = null;
  match = 0;
  /** Where the last sort left it: Hang (null: it came since), match, order among that point's. */
  h0: Hang | null = null;
  m0 = 0;
  seq = 0;
  /** Placed since the last sort (listed in `Weights.moved`). */
  moved = false;
  constructor(readonly e: LiveEntry) {}
}

/** Where a request stands in the list among the others at its point (see the file comment). */
const FRONT = 0;
const SHRUNK = 1;
const KEPT = 2;
const GREW = 3;
const ARRIVED = 4;

function standing(p: Pin): number {
  if (p.h0 === null) return p.e.pos < 0 ? FRONT : ARRIVED;
  return p.m0 > p.match ? SHRUNK : p.m0 === p.match ? KEPT : GREW;
}

/** How many Hangs lie above `h` (the root: 0). */
function depthOf(h: Hang): number {
  let d = 0;
  for (let x = h.parent; x !== null; x = x.parent) d++;
  return d;
}

/**
 * Two requests whose match shrank to one point, in the last walk's order: at one Hang then, the
 * deeper match first, then seq; else the one whose Hang lay under the other's first (post-order),
 * else the branch the walk took first where the two meet (heavier then, then earlier slot).
 */
function walkedBefore(a: Pin, b: Pin): boolean {
  let x = a.h0 as Hang;
  let y = b.h0 as Hang;
  if (x === y) return a.m0 !== b.m0 ? a.m0 > b.m0 : a.seq < b.seq;
  let dx = depthOf(x);
  let dy = depthOf(y);
  for (; dx > dy; dx--) {
    x = x.parent as Hang;
    if (x === y) return true;
  }
  for (; dy > dx; dy--) {
    y = y.parent as Hang;
    if (y === x) return false;
  }
  while (x.parent !== y.parent) {
    x = x.parent as Hang;
    y = y.parent as Hang;
  }
  return x.w0 !== y.w0 && !liveDfsFaults.shrunkBySlot ? x.w0 > y.w0 : tieBefore(x, y);
}

/** A node's own requests: the longer match (the deeper split point) first, then list order. */
class OwnOrder implements Order<Pin> {
  before(a: Pin, b: Pin): boolean {
    if (liveDfsFaults.ownByPosition) return a.e.pos < b.e.pos;
    if (a.match !== b.match) return a.match > b.match;
    if (liveDfsFaults.tiesByArrival) return a.e.pos < b.e.pos;
    const sa = standing(a);
    const sb = standing(b);
    if (sa !== sb) return sa < sb;
    if (sa === KEPT) return a.seq < b.seq;
    if (sa === GREW) return a.m0 !== b.m0 ? a.m0 > b.m0 : a.seq < b.seq;
    if (sa === SHRUNK && !liveDfsFaults.shrunkByArrival) return walkedBefore(a, b);
    return a.e.pos < b.e.pos;
  }
}

const ownOrder = new OwnOrder();

/** The tree of weights, kept by the live prefix order's key changes. */
class Weights implements KeyListener {
  readonly hangs = new Map<RadixNode, Hang>();
  /** Each waiting request's Pin. */
  readonly pins = new Map<LiveEntry, Pin>();
  /** Splits not yet applied: lower, upper, lower, upper, … */
  pending: RadixNode[] = [];
  radix: RadixCache | null = null;
  private stamps = 0;
  /** Pins placed and Hangs whose weight changed since the last sort. */
  private moved: Pin[] = [];
  private touched: Hang[] = [];
  /** Seqs handed out by sorts: in front of a point's stayers below every other, behind above. */
  private seqLow = 0;
  private seqHigh = 0;

  joining(e: LiveEntry): void {
    this.place(e);
  }

  leaving(e: LiveEntry): void {
    this.unplace(e);
    if (e.gone) this.pins.delete(e);
  }

  synced(e: LiveEntry): void {
    const pin = this.pins.get(e);
    if (pin !== undefined && pin.hang?.node === this.nodeOf(e) && pin.match === e.match) return;
    this.unplace(e);
    this.place(e);
  }

  private nodeOf(e: LiveEntry): RadixNode {
    return e.part ?? e.full ?? (this.radix as RadixCache).root;
  }

  private place(e: LiveEntry): void {
    let pin = this.pins.get(e);
    if (pin === undefined) {
      pin = new Pin(e);
      this.pins.set(e, pin);
    }
    const h = this.hangOf(this.nodeOf(e));
    pin.hang = h;
    pin.match = e.match;
    h.own.insert(pin);
    this.bump(h, 1);
    if (!pin.moved) {
      pin.moved = true;
      this.moved.push(pin);
    }
  }

  private unplace(e: LiveEntry): void {
    const pin = this.pins.get(e);
    const h = pin?.hang ?? null;
    if (pin === undefined || h === null) return;
    h.own.remove(pin);
    pin.hang = null;
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

  private touch(x: Hang): void {
    if (x.touched) return;
    x.touched = true;
    this.touched.push(x);
  }

  /** Add `d` to the weight of `h` and its ancestors, each re-placed among its siblings. */
  private bump(h: Hang, d: number): void {
    for (let x: Hang | null = h; x !== null; x = x.parent) {
      const p = x.parent;
      if (p !== null && x.weight > 0) p.kids.remove(x);
      x.weight += d;
      this.touch(x);
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
      // the upper node takes the lower one's place among its siblings (and, for requests that
      // remember the last walk, its weight then); the lower one becomes the upper's first child,
      // with the upper's id as its slot, as the radix cache gives it (RadixNode.slot)
      upper.slot = lower.slot;
      upper.w0 = lower.w0;
      if (lower.weight > 0) p.kids.remove(lower);
      lower.slot = upper.node.id;
      upper.weight = lower.weight;
      if (upper.weight > 0) {
        p.kids.insert(upper);
        upper.kids.insert(lower);
      }
      lower.parent = upper;
      this.hangs.set(upper.node, upper);
      this.touch(upper);
    }
  }

  /**
   * The sort: the order now is the list the next one starts from. Each Pin placed since takes this
   * point as its own, and a seq that keeps its place among the point's requests; each touched Hang
   * its weight now. The relative order of the requests at each point does not change.
   */
  commit(): void {
    const groups = new Map<Hang, Pin[]>();
    for (const pin of this.moved) {
      pin.moved = false;
      const h = pin.hang;
      if (h === null || pin.e.gone) continue;
      const g = groups.get(h);
      if (g === undefined) groups.set(h, [pin]);
      else g.push(pin);
    }
    this.moved = [];
    for (const [h, list] of groups) {
      // The others at this point stayed since the last sort and keep their seq. The new keys order
      // the Hang's requests exactly as the old ones did (those in front of the stayers below them
      // all, those behind above, each side in its order), so they change in place in the set.
      list.sort((a, b) => (ownOrder.before(a, b) ? -1 : ownOrder.before(b, a) ? 1 : 0));
      for (let i = list.length - 1; i >= 0; i--) if (standing(list[i]) < KEPT) list[i].seq = --this.seqLow;
      for (const p of list) if (standing(p) > KEPT) p.seq = ++this.seqHigh;
      for (const p of list) {
        p.h0 = h;
        p.m0 = p.match;
      }
    }
    for (const h of this.touched) {
      h.w0 = h.weight;
      h.touched = false;
    }
    this.touched = [];
  }
}

/** A lazy post-order walk of the weights: children heaviest first, then the node's own requests. */
class Walk {
  private readonly nodes: Hang[] = [];
  /** Per frame: the last child visited (null: none yet). */
  private readonly lastKid: (Hang | null)[] = [];
  private ownOf: Hang | null = null;
  private lastOwn: Pin | null = null;

  constructor(root: Hang | undefined) {
    if (root !== undefined && root.weight > 0) {
      this.nodes.push(root);
      this.lastKid.push(null);
    }
  }

  next(): LiveEntry | null {
    for (;;) {
      if (this.ownOf !== null) {
        const p = this.ownOf.own.after(this.lastOwn);
        if (p !== null) {
          this.lastOwn = p;
          return p.e;
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
    // SGLang's list becomes this step's order (what the next step's ties follow)
    this.weights.commit();
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
