/**
 * LPM's order kept live instead of rebuilt every batch step (#15.3): the waiting queue sorted by
 * (in-batch deferral, longest cached prefix, queue position), as ./prefix-order.ts's `prefixOrder`
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
 * Order: an indexed binary heap (./indexed-heap.ts) keyed by (deferred, −match, position), the
 * deferred ones by position alone; a preempted request gets a position before every other. Above the `lpm_fcfs_fallback` threshold the
 * order is queue order: a second heap by position (kept only when the threshold is set).
 *
 * SGLang's in-batch prefix deferral (`sharedPrefixDuplicates` in ./prefix-order.ts): among waiting
 * requests with at most IN_BATCH_PREFIX_TOKENS cached, those with the same head hash form a group;
 * the first in queue order is not deferred, every later one whose head equals the first's token by
 * token is. A group remembers whether all its heads are equal (the normal case: a change of the
 * first flips two flags); after a hash collision it re-checks every member when its first changes.
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
  /** 1 when put last as a shared-prefix duplicate. */
  deferred = 0;
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
  ) {}
}

/**
 * LPM's order: not deferred first, then the longer match, then queue position; deferred requests in
 * queue order whatever their match (SGLang's sort gives them all the same key, +inf).
 */
export function lpmBefore(a: LiveEntry, b: LiveEntry): boolean {
  if (a.deferred !== b.deferred) return a.deferred < b.deferred;
  if (a.deferred === 0 && a.match !== b.match) return a.match > b.match;
  return a.pos < b.pos;
}

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

class ByPosition implements HeapSlot<LiveEntry> {
  before(a: LiveEntry, b: LiveEntry): boolean {
    return a.pos < b.pos;
  }
  get(e: LiveEntry): number {
    return e.fi;
  }
  set(e: LiveEntry, at: number): void {
    e.fi = at;
  }
}

class ByGroupPosition implements HeapSlot<LiveEntry> {
  before(a: LiveEntry, b: LiveEntry): boolean {
    return a.pos < b.pos;
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
  readonly heap = new IndexedHeap<LiveEntry>(new ByGroupPosition());
  /** Some member's head differs from another's (a hash collision): re-check all on a change. */
  mixed = false;
  constructor(readonly key: number) {}
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
  /** By (deferred, −match, position); null when a KeyListener keeps the order instead. */
  readonly order: IndexedHeap<LiveEntry> | null;
  /** By position (queue order), for the FCFS fallback; null when there is no fallback. */
  readonly fifo: IndexedHeap<LiveEntry> | null;
  private readonly buckets = new Map<RadixNode, Bucket>();
  private readonly groups = new Map<number, HeadGroup>();
  private dirty: LiveEntry[] = [];
  private back = 0;
  private front = 0;
  private radix: RadixCache | null = null;
  private defer = false;
  /** Waiting requests (admitted ones leave the heaps during a scan, and this count after it). */
  private count = 0;

  constructor(
    withFifo: boolean,
    private readonly listener: KeyListener | null = null,
  ) {
    this.order = listener === null ? new IndexedHeap<LiveEntry>(new ByOrder()) : null;
    this.fifo = withFifo && listener === null ? new IndexedHeap<LiveEntry>(new ByPosition()) : null;
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
    const e = new LiveEntry(req, front && !livePrefixFaults.preemptedLast ? --this.front : this.back++);
    this.count++;
    // match 0, not deferred, until its first refresh
    this.order?.push(e);
    this.fifo?.push(e);
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
    this.fifo?.remove(e);
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
      e.dirty = false;
      refreshMemo(e, e.req, radix);
      const match = e.part === null ? e.fullDepth : e.fullDepth + e.partWithin;
      this.register(e, radix);
      this.setKey(e, match, e.deferred);
      if (this.defer) this.regroup(e);
      this.listener?.synced?.(e);
    }
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

  /** Put `e` in or out of its head group after its match changed. */
  private regroup(e: LiveEntry): void {
    const r = e.req;
    let want = e.match <= IN_BATCH_PREFIX_TOKENS;
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
      g = new HeadGroup(key);
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
