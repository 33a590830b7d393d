/**
 * LPM's order kept live instead of rebuilt every batch step (#15.3): the waiting queue sorted by
 * (in-batch deferral, longest cached prefix, then list order), as ./prefix-order.ts's `prefixOrder`
 * sorts it, maintained under the radix cache's changes.
 *
 * Where a waiting request's cached prefix ends changes only when the tree changes right there
 * (see ./matched-queue.ts for why a remembered match stays valid):
 *   - a leaf X is evicted: the requests whose match ends inside X or at its end drop back;
 *   - a new leaf Y hangs under node P: only the requests whose match ends exactly at P's end and
 *     whose next page has Y's key can grow (into Y);
 *   - a node Q is split: its length and every match length stay, but a match that ended inside Q
 *     now ends in (or at the end of) the new upper node, so its memo must move.
 * The radix cache reports these (RadixChangeListener). Each waiting request is registered where its
 * match ends: inside a node, or at a node's end under its next page's key. An event marks exactly
 * the requests registered there dirty; before the order is next read, each dirty request's memo is
 * refreshed (./matched-queue.ts `refreshMemo`, exact), it is registered again and re-keyed.
 *
 * Order: an indexed binary heap (./indexed-heap.ts) keyed by (deferred, −match, seq), the deferred
 * ones by seq alone. For LPM it is SGLang's waiting list, which SGLang sorts in place with a stable
 * sort and keeps: keys change only when `sort` runs, and seq keeps each request where the last sort
 * left it among those of its key (see `sort`); a request that came since the last sort is behind
 * every sorted one (a preempted one under optimistic admission in front of them), by queue
 * position. Above the `lpm_fcfs_fallback` threshold SGLang does not sort: the list is scanned as it
 * stands. With a KeyListener (DLPM, DFS-weight, fcfs-mpq) keys follow every refresh and ties fall in
 * queue position (seq is the position).
 *
 * SGLang's in-batch prefix deferral (`sharedPrefixDuplicates` in ./prefix-order.ts): among waiting
 * requests with at most IN_BATCH_PREFIX_TOKENS cached, those with the same head hash form a group;
 * the first in queue order (LPM: in the list) is not deferred, every later one whose head equals the
 * first's token by token is. A group remembers whether all its heads are equal (the normal case: a
 * change of the first flips two flags); after a hash collision it re-checks every member when its
 * first changes.
 *
 * Cost per batch step: O((1 + c) log n) for n waiting, c = waiting requests registered where the
 * tree changed during the step (their match grew, shrank or moved to another node), plus O(log n)
 * per request admitted or looked at, and per arrival. A request whose match is unchanged but whose
 * node was split is counted in c (it is re-registered); SGLang re-reads all n.
 */
import type { SimRequest } from '../../sim/request';
import type { RadixCache, RadixChangeListener, RadixNode } from '../../replica/radix-cache';
import { headKey, IN_BATCH_PREFIX_TOKENS, sameHead } from '../../replica/sglang';
import { type HeapSlot, IndexedHeap } from './indexed-heap';
import { type Memo, refreshMemo } from './matched-queue';
import { reusableLimit } from './prefix-order';

/**
 * Deliberately broken variants, for tests only: each must make the equivalence tests fail (they are
 * never set outside tests).
 */
export const livePrefixFaults = {
  /** Do not react to evictions. */
  ignoreEvict: false,
  /** Do not react to new leaves. */
  ignoreInsert: false,
  /** Do not react to splits. */
  ignoreSplit: false,
  /** Register requests at a node's end without their next page key (a new leaf wakes none). */
  ignoreNextKey: false,
  /** No in-batch deferral. */
  noDefer: false,
  /** Trust the head hash (no token check after a collision). */
  trustHeadHash: false,
  /** A preempted request goes to the back of the queue order instead of the front. */
  preemptedLast: false,
  /** LPM: ties in queue position order, as if the list were rebuilt every step (not kept sorted). */
  lpmTiesByPosition: false,
  /** LPM: a request whose key drops goes to the back of its new key, one whose key rises to the front. */
  lpmTiesInverted: false,
  /** DLPM: the scan never stops at a client without deficit for CHECKREFILL. */
  dlpmNoCreditStop: false,
  /** DLPM: the bulk skip under KV pressure also passes over a request whose bound equals the room. */
  dlpmSkipAtRoom: false,
  /** DLPM: the bound is the whole prompt as first filed (match 0), not refreshed when re-keyed. */
  dlpmStaleBound: false,
  /**
   * DLPM: a request the bulk skip passed over counts as not yet reached for a client that later
   * loses its credit in the step (the reference has found it no room and never offers it again).
   */
  dlpmNoSweep: false,
  /** DLPM: a refused try clears the record's notes (they belong to the next admission's record). */
  dlpmTryClearsNotes: false,
};

/** Registered inside a node's edge (not at its end). */
const INSIDE = -2;

/** One waiting request. */
export class LiveEntry implements Memo {
  full: RadixNode | null = null;
  fullDepth = 0;
  part: RadixNode | null = null;
  partWithin = 0;
  partStart = 0;
  partLen = 0;
  /** Cached prefix (valid when not dirty). */
  match = 0;
  /**
   * 1 when put last as a shared-prefix duplicate. LPM's list (LivePrefixOrder.sort) also has -1 for a
   * request put at the list's front and 2 for one appended to it since the last sort (sorted next).
   */
  deferred = 0;
  /**
   * Order among equal keys: the queue position, or, in LPM's list, where the last sort left it
   * within its key (see LivePrefixOrder.sort).
   */
  seq: number;
  /** LPM's sort: the match and flag this sort gives (before they replace `match` and `deferred`). */
  nextMatch = 0;
  nextDeferred = 0;
  /** LPM's sort: already among the entries whose key this sort decides. */
  planned = false;
  /** Positions in the order heap, the queue-order heap, its deferral group's heap (-1: not in). */
  hi = -1;
  fi = -1;
  gi = -1;
  dirty = false;
  gone = false;
  /** A step number a policy may stamp it with (DLPM: admitted or failed in that step). */
  stamp = -1;
  /** Where it is registered (null: nowhere) and under which key (INSIDE, a page key, or -1). */
  at: RadixNode | null = null;
  atKey = 0;
  group: HeadGroup | null = null;

  constructor(
    readonly req: SimRequest,
    /** Queue position: smaller = earlier (a preempted request gets a smaller one than all). */
    readonly pos: number,
  ) {
    this.seq = pos;
  }
}

/**
 * LPM's order: not deferred first, then the longer match, then queue position; deferred requests in
 * queue order whatever their match (SGLang's sort gives them all the same key, +inf).
 */
export function lpmBefore(a: LiveEntry, b: LiveEntry): boolean {
  if (a.deferred !== b.deferred) return a.deferred < b.deferred;
  if (a.deferred === 0 && a.match !== b.match) return a.match > b.match;
  return a.seq < b.seq;
}

/** The key (flag, match) `d1, m1` comes before `d2, m2` in LPM's order (ties aside). */
const keyBefore = (d1: number, m1: number, d2: number, m2: number): boolean =>
  d1 !== d2 ? d1 < d2 : d1 === 0 && m1 > m2;

class ByOrder implements HeapSlot<LiveEntry> {
  before(a: LiveEntry, b: LiveEntry): boolean {
    return lpmBefore(a, b);
  }
  get(e: LiveEntry): number {
    return e.hi;
  }
  set(e: LiveEntry, at: number): void {
    e.hi = at;
  }
}

class ByGroupPosition implements HeapSlot<LiveEntry> {
  /** `list`: by place in LPM's list (its order), else by queue position. */
  constructor(private readonly list: boolean) {}
  before(a: LiveEntry, b: LiveEntry): boolean {
    return this.list ? lpmBefore(a, b) : a.pos < b.pos;
  }
  get(e: LiveEntry): number {
    return e.gi;
  }
  set(e: LiveEntry, at: number): void {
    e.gi = at;
  }
}

/** Low-match waiting requests with one head hash, by queue position. */
class HeadGroup {
  readonly heap: IndexedHeap<LiveEntry>;
  /** Some member's head differs from another's (a hash collision): re-check all on a change. */
  mixed = false;
  /** LPM's list: the member not deferred at the last sort, and who joined since. */
  lastFirst: LiveEntry | null = null;
  readonly joiners: LiveEntry[] = [];
  /** Members whose flag the deciding pass set (a look ahead's are undone before the next pass). */
  readonly flagged: LiveEntry[] = [];
  constructor(
    readonly key: number,
    list: boolean,
  ) {
    this.heap = new IndexedHeap<LiveEntry>(new ByGroupPosition(list));
  }
}

/**
 * Hears every change of an entry's order key (another ordered index kept beside the heaps, e.g.
 * DLPM's per-client sets): `leaving` with the old key, `joining` with the new one.
 */
export interface KeyListener {
  joining(e: LiveEntry): void;
  leaving(e: LiveEntry): void;
  /**
   * After each refresh of a dirty entry (its memo, registration and key up to date), even when its
   * key did not change: its match may now end in another node (DFS-weight hangs requests by node).
   */
  synced?(e: LiveEntry): void;
}

/** The requests registered at one node: inside its edge, and at its end by next page key. */
interface Bucket {
  inside: Set<LiveEntry> | null;
  ends: Map<number, Set<LiveEntry>> | null;
}

export class LivePrefixOrder implements RadixChangeListener {
  /**
   * LPM's list, by (flag, −match, seq); null when a KeyListener keeps the order instead. It is
   * re-keyed only by `sort`, so between sorts it is the list as SGLang holds it.
   */
  readonly order: IndexedHeap<LiveEntry> | null;
  private readonly buckets = new Map<RadixNode, Bucket>();
  private readonly groups = new Map<number, HeadGroup>();
  private dirty: LiveEntry[] = [];
  private back = 0;
  private front = 0;
  private radix: RadixCache | null = null;
  private defer = false;
  /** Waiting requests (admitted ones leave the heaps during a scan, and this count after it). */
  private count = 0;
  /** LPM's list (no listener): keys change only when `sort` runs, SGLang's in-place stable sort. */
  private readonly list: boolean;
  /** Head groups whose first may have changed since the last sort (LPM's list). */
  private readonly pending = new Set<HeadGroup>();
  /** The entries a sort decides (LPM's list). */
  private readonly planned: LiveEntry[] = [];
  /** Seqs handed out by sorts: to the front of a key below every other, to its back above. */
  private seqLow = 0;
  private seqHigh = 0;

  constructor(private readonly listener: KeyListener | null = null) {
    this.list = listener === null;
    this.order = this.list ? new IndexedHeap<LiveEntry>(new ByOrder()) : null;
  }

  get size(): number {
    return this.count;
  }

  /** Listen to `radix` (once: a worker keeps its cache) with the worker's deferral setting. */
  attach(radix: RadixCache, defer: boolean): void {
    if (this.radix === radix) return;
    if (this.radix !== null) throw new Error('live prefix order: the worker changed its radix cache');
    this.radix = radix;
    this.defer = defer && !livePrefixFaults.noDefer;
    radix.changeListener = this;
  }

  add(req: SimRequest, front: boolean): LiveEntry {
    const atFront = front && !livePrefixFaults.preemptedLast;
    const e = new LiveEntry(req, atFront ? --this.front : this.back++);
    this.count++;
    // LPM's list: before or after every sorted request until the next sort; else match 0, not
    // deferred, until its first refresh
    if (this.list) e.deferred = atFront ? -1 : 2;
    this.order?.push(e);
    this.listener?.joining(e);
    this.markDirty(e);
    return e;
  }

  /** Take `e` out (admitted). Not while the order is being scanned: after it. */
  remove(e: LiveEntry): void {
    e.gone = true;
    this.count--;
    this.listener?.leaving(e);
    this.order?.remove(e);
    this.unregister(e);
    if (e.group !== null) this.leave(e);
  }

  /** Bring every dirty request's match, registration and key up to date. */
  sync(): void {
    const radix = this.radix;
    if (radix === null || this.dirty.length === 0) return;
    const list = this.dirty;
    this.dirty = [];
    for (const e of list) {
      if (e.gone || !e.dirty) continue;
      this.setKey(e, this.refresh(e, radix), e.deferred);
      if (this.defer) this.regroup(e, e.match);
      this.listener?.synced?.(e);
    }
  }

  /**
   * LPM's sort, as SGLang's `calc_priority` does it on its waiting list: every match re-read, the
   * in-batch deferral decided walking the list in its present order (the first of a head group is
   * the one earliest in the list), then the list sorted in place by (deferred, −match) with Python's
   * stable sort, so requests of one key keep the order the list had. Kept live: only the requests
   * whose key this sort changes move, and each goes where the stable sort puts it among those that
   * already had its new key: to the front if its old key came before the new one (it was ahead of
   * them all in the list), else to the back (behind them all, as are requests appended since the
   * last sort); several moving into one key keep their list order. O((1 + c) log n) for c requests
   * whose match moved or whose deferral flag flips.
   */
  sort(): void {
    const moved = this.decide(true);
    if (moved === null) return;
    const { front, back } = moved;
    for (let i = front.length - 1; i >= 0; i--) this.rekey(front[i], --this.seqLow);
    for (const e of back) this.rekey(e, ++this.seqHigh);
  }

  /**
   * LPM: the first `limit` requests of the order a sort now would give, without sorting (what the
   * policy would now consider first). It does what any sort would do first (re-reads the moved
   * matches, files requests in their head groups) and keeps the rest for the next `sort`.
   */
  wouldSort(limit: number): LiveEntry[] {
    const heap = this.order as IndexedHeap<LiveEntry>;
    const moved = this.decide(false);
    if (moved === null) return heap.first(limit);
    const { front, back } = moved;
    // those that keep their key, in order, then the movers placed where `sort` would put them
    const tier = new Map<LiveEntry, number>();
    for (let i = 0; i < front.length; i++) tier.set(front[i], i - front.length);
    for (let i = 0; i < back.length; i++) tier.set(back[i], i + 1);
    const all = heap.first(limit + tier.size).filter((e) => !tier.has(e));
    const rank = (e: LiveEntry) => tier.get(e) ?? 0;
    const d = (e: LiveEntry) => (tier.has(e) ? e.nextDeferred : e.deferred);
    const m = (e: LiveEntry) => (tier.has(e) ? e.nextMatch : e.match);
    all.push(...front, ...back);
    all.sort((x, y) => {
      const dx = d(x);
      const dy = d(y);
      if (dx !== dy) return dx - dy;
      if (dx === 0 && m(x) !== m(y)) return m(y) - m(x);
      const rx = rank(x);
      const ry = rank(y);
      return rx !== ry ? rx - ry : x.seq - y.seq;
    });
    return all.slice(0, limit);
  }

  /**
   * The sort's decisions: every moved match re-read, the deferral decided, and the requests whose
   * key changes split into those that go to the front of their new key and those that go to its
   * back, each in list order. `commit`: this is the sort (its state is consumed), else a look ahead.
   */
  private decide(commit: boolean): { front: LiveEntry[]; back: LiveEntry[] } | null {
    const radix = this.radix;
    if (radix === null) return null;
    const planned = this.planned;
    const list = this.dirty;
    this.dirty = [];
    for (const e of list) {
      if (e.gone || !e.dirty) continue;
      this.plan(e);
      e.nextMatch = this.refresh(e, radix);
      if (this.defer) this.regroup(e, e.nextMatch);
      // a head group that did not change keeps its flags (the pending ones are decided below)
      e.nextDeferred = e.group === null ? 0 : e.deferred;
    }
    for (const g of this.pending) {
      // a look ahead may have flagged members this pass does not: back to their own flag first
      for (const m of g.flagged) if (!m.gone && m.group === g) m.nextDeferred = m.deferred;
      g.flagged.length = 0;
      const first = g.heap.peek();
      if (first !== undefined) {
        if (g.mixed) {
          const head = headOf(first);
          for (const m of g.heap.items) this.flag(g, m, m === first ? 0 : sameHead(head, headOf(m)) ? 1 : 0);
        } else {
          this.flag(g, first, 0);
          for (const m of g.joiners) if (m !== first && m.group === g) this.flag(g, m, 1);
          const last = g.lastFirst;
          if (last !== null && last !== first && last.group === g) this.flag(g, last, 1);
        }
      }
      if (commit) {
        g.lastFirst = first ?? null;
        g.joiners.length = 0;
        g.flagged.length = 0;
      }
    }
    if (commit) this.pending.clear();
    const front: LiveEntry[] = [];
    const back: LiveEntry[] = [];
    for (const e of planned) {
      if (commit) e.planned = false;
      if (e.gone) continue;
      const d = e.nextDeferred;
      const m = e.nextMatch;
      // the same key: its place stays (a deferred request's match is not part of its key)
      if (d === e.deferred && (d !== 0 || m === e.match)) {
        if (commit) e.match = m;
      } else (keyBefore(e.deferred, e.match, d, m) ? front : back).push(e);
    }
    if (commit) planned.length = 0;
    else if (planned.length > 2 * this.count + 16) {
      // admitted requests planned by a look ahead under the FCFS fallback (no sort since)
      let k = 0;
      for (const e of planned) if (!e.gone) planned[k++] = e;
      planned.length = k;
    }
    // (in list order, read before any of them moves)
    const inList = (a: LiveEntry, b: LiveEntry) => (lpmBefore(a, b) ? -1 : lpmBefore(b, a) ? 1 : 0);
    front.sort(inList);
    back.sort(inList);
    if (livePrefixFaults.lpmTiesInverted) front.push(...back.splice(0, back.length, ...front));
    return { front, back };
  }

  /** A dirty entry's memo re-read and its registration moved: its match now. */
  private refresh(e: LiveEntry, radix: RadixCache): number {
    e.dirty = false;
    refreshMemo(e, e.req, radix);
    this.register(e, radix);
    return e.part === null ? e.fullDepth : e.fullDepth + e.partWithin;
  }

  /** Among the entries this sort decides (its match as it was, until re-read). */
  private plan(e: LiveEntry): void {
    if (e.planned) return;
    e.planned = true;
    e.nextMatch = e.match;
    e.nextDeferred = e.deferred;
    this.planned.push(e);
  }

  private flag(g: HeadGroup, e: LiveEntry, d: number): void {
    this.plan(e);
    e.nextDeferred = d;
    g.flagged.push(e);
  }

  private rekey(e: LiveEntry, seq: number): void {
    e.deferred = e.nextDeferred;
    e.match = e.nextMatch;
    e.seq = livePrefixFaults.lpmTiesByPosition ? e.pos : seq;
    this.order?.update(e);
    const g = e.group;
    if (g === null) return;
    g.heap.update(e);
    // after a hash collision a group's first is its earliest member in the list, and a member not
    // deferred may move ahead of it: the next sort's walk looks again (in a group of one head the
    // first is the only member not deferred, ahead of all the others whatever moves)
    if (g.mixed) this.pending.add(g);
  }

  // ---- radix events -------------------------------------------------------------------------------

  evicted(node: RadixNode): void {
    if (livePrefixFaults.ignoreEvict) return;
    const b = this.buckets.get(node);
    if (b === undefined) return;
    this.buckets.delete(node);
    if (b.inside !== null) this.wake(b.inside);
    if (b.ends !== null) for (const s of b.ends.values()) this.wake(s);
  }

  inserted(leaf: RadixNode): void {
    if (livePrefixFaults.ignoreInsert) return;
    const parent = leaf.parent;
    if (parent === null) return;
    const b = this.buckets.get(parent);
    const s = b?.ends?.get(leaf.key);
    if (b === undefined || s === undefined) return;
    b.ends?.delete(leaf.key);
    this.tidy(parent, b);
    this.wake(s);
  }

  split(lower: RadixNode): void {
    if (livePrefixFaults.ignoreSplit) return;
    const b = this.buckets.get(lower);
    if (b === undefined || b.inside === null) return;
    const s = b.inside;
    b.inside = null;
    this.tidy(lower, b);
    this.wake(s);
  }

  // ---- internals ----------------------------------------------------------------------------------

  private wake(s: Set<LiveEntry>): void {
    for (const e of s) {
      e.at = null;
      this.markDirty(e);
    }
  }

  private markDirty(e: LiveEntry): void {
    if (e.dirty) return;
    e.dirty = true;
    this.dirty.push(e);
  }

  private register(e: LiveEntry, radix: RadixCache): void {
    let node: RadixNode;
    let key: number;
    if (e.part !== null) {
      node = e.part;
      key = INSIDE;
    } else {
      node = e.full ?? radix.root;
      const b = radix.blockSize;
      const r = e.req;
      const limit = Math.floor(Math.min(reusableLimit(r, b), r.promptLen) / b) * b;
      key =
        e.fullDepth + b <= limit && !livePrefixFaults.ignoreNextKey
          ? r.pages(b).data[2 * (e.fullDepth / b)]
          : -1;
    }
    if (e.at === node && e.atKey === key) return;
    this.unregister(e);
    let bucket = this.buckets.get(node);
    if (bucket === undefined) {
      bucket = { inside: null, ends: null };
      this.buckets.set(node, bucket);
    }
    let s: Set<LiveEntry> | undefined;
    if (key === INSIDE) s = bucket.inside ??= new Set();
    else {
      bucket.ends ??= new Map();
      s = bucket.ends.get(key);
      if (s === undefined) {
        s = new Set();
        bucket.ends.set(key, s);
      }
    }
    s.add(e);
    e.at = node;
    e.atKey = key;
  }

  private unregister(e: LiveEntry): void {
    const node = e.at;
    if (node === null) return;
    e.at = null;
    const b = this.buckets.get(node);
    if (b === undefined) return;
    if (e.atKey === INSIDE) {
      b.inside?.delete(e);
      if (b.inside?.size === 0) b.inside = null;
    } else {
      const s = b.ends?.get(e.atKey);
      if (s !== undefined) {
        s.delete(e);
        if (s.size === 0) b.ends?.delete(e.atKey);
      }
    }
    this.tidy(node, b);
  }

  private tidy(node: RadixNode, b: Bucket): void {
    if (b.ends !== null && b.ends.size === 0) b.ends = null;
    if (b.inside === null && b.ends === null) this.buckets.delete(node);
  }

  // ---- in-batch deferral --------------------------------------------------------------------------

  /** Put `e` in or out of its head group after its match changed to `match`. */
  private regroup(e: LiveEntry, match: number): void {
    const r = e.req;
    let want = match <= IN_BATCH_PREFIX_TOKENS;
    if (want) {
      // (the first ids only: a waiting request holds no prompt-sized array, #15.3)
      if (r.headKey === -2) r.headKey = headKey(r.promptHead(IN_BATCH_PREFIX_TOKENS));
      want = r.headKey >= 0;
    }
    if (want === (e.group !== null)) return;
    if (want) this.join(e);
    else this.leave(e);
  }

  private join(e: LiveEntry): void {
    const key = e.req.headKey;
    let g = this.groups.get(key);
    if (g === undefined) {
      g = new HeadGroup(key, this.list);
      this.groups.set(key, g);
    }
    const first = g.heap.peek();
    if (
      first !== undefined &&
      !g.mixed &&
      !sameHead(headOf(first), headOf(e)) &&
      !livePrefixFaults.trustHeadHash
    )
      g.mixed = true;
    g.heap.push(e);
    e.group = g;
    if (this.list) {
      // decided when the sort walks the list (`sort`)
      g.joiners.push(e);
      this.pending.add(g);
      return;
    }
    if (first === undefined) return;
    if (g.mixed) this.recheck(g);
    else if (g.heap.peek() === e) this.setDeferred(first, 1);
    else this.setDeferred(e, 1);
  }

  private leave(e: LiveEntry): void {
    const g = e.group as HeadGroup;
    const wasFirst = g.heap.peek() === e;
    g.heap.remove(e);
    e.group = null;
    if (this.list) {
      if (g.heap.size === 0) {
        this.groups.delete(g.key);
        this.pending.delete(g);
      } else this.pending.add(g);
      return;
    }
    if (!e.gone) this.setDeferred(e, 0);
    if (g.heap.size === 0) {
      this.groups.delete(g.key);
      return;
    }
    if (!wasFirst) return;
    if (g.mixed) this.recheck(g);
    else this.setDeferred(g.heap.peek() as LiveEntry, 0);
  }

  /** After a hash collision: every member's flag from the first's head. */
  private recheck(g: HeadGroup): void {
    const first = g.heap.peek() as LiveEntry;
    const head = headOf(first);
    for (const m of g.heap.items) this.setDeferred(m, m === first ? 0 : sameHead(head, headOf(m)) ? 1 : 0);
  }

  private setDeferred(e: LiveEntry, d: number): void {
    this.setKey(e, e.match, d);
  }

  private setKey(e: LiveEntry, match: number, deferred: number): void {
    if (e.match === match && e.deferred === deferred) return;
    const l = this.listener;
    if (l !== null && !e.gone) l.leaving(e);
    e.match = match;
    e.deferred = deferred;
    this.order?.update(e);
    if (l !== null && !e.gone) l.joining(e);
  }
}

const headOf = (e: LiveEntry): Int32Array => e.req.promptHead(IN_BATCH_PREFIX_TOKENS);
