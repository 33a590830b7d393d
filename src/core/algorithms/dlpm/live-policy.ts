/**
 * DLPM with its LPM order kept live (#15.3): the same algorithm, decisions and records as
 * ./policy.ts's DlpmPolicy (the reference the tests compare it with), without re-reading and
 * sorting the queue, nor scanning it, at every step.
 *
 * The order is ../shared/live-prefix-order.ts's (re-keyed only where the radix cache changed), kept in
 * ordered sets (../shared/treap.ts): all waiting requests, and each client's own. The reference's
 * scan of that order skips requests whose client has no deficit, one by one; here the scan jumps:
 * from where it stands, the next request it would act on is the first, over the clients with a
 * positive deficit, of each one's requests after that point (a successor query per client), and the
 * first request of a client without deficit after that point is found the same way when the scan
 * must stop there (CHECKREFILL not yet known to be idle, the quantum-per-request variant). What the
 * reference does at the requests it passes over — note each skipped client once, in scan order, and
 * mark the first MAX_ORDER entries of the order for the record — is done for the whole stretch at
 * once (one successor query per client, a look at the first MAX_ORDER). A request admitted or found
 * without room is stamped with the step and passed over by later passes' successor queries.
 *
 * Under KV pressure (after the step's first KV failure, `room` = free + evictable blocks left) the
 * reference checks every request of a client with credit it reaches (`cannotFit`). Its need,
 * blocksFor(uncached prompt), only grows within a step (matches only shrink: evictions) and room only
 * shrinks, so a request whose uncached prompt at the step's start needs more than `room` blocks surely
 * fails that check. Each client's ordered sets keep, per subtree, the smallest such uncached prompt
 * (refreshed whenever the request is re-keyed, as its match changed), so the scan finds a client's
 * next request within the bound in O(log n) and passes over the rest as the reference finds them: no
 * room (marked so among the first MAX_ORDER entries, with the client's deficit then). The reference
 * never looks at such a request again in the step; for a client that later loses its credit the live
 * scan remembers the stretches of the order it went through with that client in credit (every request
 * of the client in them has been acted on or passed over) and steps over them.
 *
 * Under sglang admission most refusals come from the output reservation (uncached prompt + the
 * request's own output estimate against free + evictable less the reserved tokens), with the room
 * still large. The sets keep a second subtree minimum, uncached prompt + reservation, and while a
 * refused try would change nothing (the room already equals free + evictable, a slot and budget
 * left) the scan passes over every request beyond that bound too. Which of those the reference
 * tried does not matter, records included: a refused try writes no record and leaves the notes (the
 * clients skipped and refills since the previous admission record) as they were.
 *
 * Cost per step: O((1 + c) log n) to re-key (c as for LPM) plus O(clients · log n) per request the
 * scan acts on (tried, or checked by `cannotFit` because its bound did not rule it out) and per
 * refill; the requests of clients without deficit, and those the bound rules out, cost nothing. With
 * more than MAX_NOTES clients, a recording scan visits the requests of clients without deficit one by
 * one (the note list's eviction order then depends on every visit).
 */
import type { SimRequest } from '../../sim/request';
import type { AdmissionContext, LocalPolicyConfig, WorkerView } from '../../replica/local-policy';
import {
  type KeyListener,
  type LiveEntry,
  LivePrefixOrder,
  livePrefixFaults,
  lpmBefore,
} from '../shared/live-prefix-order';
import { refreshMemo } from '../shared/matched-queue';
import { cachedPrefix } from '../shared/prefix-order';
import { type Order, Treap, type Weights } from '../shared/treap';
import type { DlpmAdmitDetail, DlpmOrderEntry } from './detail';
import type { DlpmParams } from './params';
import {
  cannotFitAt,
  DlpmPolicy,
  MAX_NOTES,
  MAX_ORDER,
  SEEN_ADMITTED,
  SEEN_NO_DEFICIT,
  SEEN_NO_ROOM,
  SEEN_NONE,
} from './policy';

class LpmOrder implements Order<LiveEntry> {
  before(a: LiveEntry, b: LiveEntry): boolean {
    return lpmBefore(a, b);
  }
}

class QueueOrder implements Order<LiveEntry> {
  before(a: LiveEntry, b: LiveEntry): boolean {
    return a.pos < b.pos;
  }
}

/**
 * A waiting request's match when last keyed: at the step's start (`sync` re-keys every request whose
 * match changed), and an upper bound on it later in the step (the match can only shrink while a step
 * is planned: evictions; a split keeps lengths).
 */
function keyedMatch(e: LiveEntry): number {
  return livePrefixFaults.dlpmStaleBound ? 0 : e.match;
}

/** The uncached tokens at `keyedMatch`: a lower bound on them for the rest of the step. */
function uncachedBound(e: LiveEntry): number {
  return e.req.promptLen - keyedMatch(e);
}

/**
 * The weights of a client's ordered sets, read when an entry is inserted (LivePrefixOrder re-inserts
 * an entry whenever its match changes), whose subtree minima the scan's bounds query: `uncachedBound`,
 * and under SGLang admission the worker's refusal key at `keyedMatch` (WorkerView.refusalKey: the
 * uncached prompt plus the request's own output reservation). It holds the worker (an object, not a
 * bound function), so a forked simulation's copy asks its own worker.
 */
class NeedWeights implements Weights<LiveEntry> {
  /** The worker, once known, when it reserves output for new requests. */
  worker: WorkerView | null = null;

  weight(e: LiveEntry): number {
    return uncachedBound(e);
  }

  weight2(e: LiveEntry): number {
    const w = this.worker;
    return w === null ? uncachedBound(e) : w.refusalKey(e.req, keyedMatch(e));
  }
}

class Sets implements KeyListener {
  readonly all: Treap<LiveEntry>;
  readonly byClient: Treap<LiveEntry>[];
  readonly allFifo: Treap<LiveEntry> | null;
  readonly byClientFifo: Treap<LiveEntry>[] | null;
  readonly weights = new NeedWeights();

  constructor(clients: number, fifo: boolean) {
    const lpm = new LpmOrder();
    const queue = new QueueOrder();
    const weights = this.weights;
    this.all = new Treap(lpm);
    this.byClient = Array.from({ length: clients }, () => new Treap(lpm, weights));
    this.allFifo = fifo ? new Treap(queue) : null;
    this.byClientFifo = fifo ? Array.from({ length: clients }, () => new Treap(queue, weights)) : null;
  }

  joining(e: LiveEntry): void {
    this.all.insert(e);
    this.byClient[e.req.client].insert(e);
    this.allFifo?.insert(e);
    this.byClientFifo?.[e.req.client].insert(e);
  }

  leaving(e: LiveEntry): void {
    this.all.remove(e);
    this.byClient[e.req.client].remove(e);
    this.allFifo?.remove(e);
    this.byClientFifo?.[e.req.client].remove(e);
  }
}

/**
 * A stretch of the order, both ends included, in which the scan of one pass went on with a client
 * having credit: every request of that client in it was acted on (or passed over by the bound), so
 * the reference has marked it admitted or no room for the rest of the step. `from` null: the pass's
 * start; `to` null: its end.
 */
interface Sweep {
  from: LiveEntry | null;
  to: LiveEntry | null;
}

/** This step's record facts about the first MAX_ORDER entries of the order. */
interface Top {
  entries: LiveEntry[];
  index: Map<LiveEntry, number>;
  seen: Uint8Array;
  deficit: Float64Array;
}

/** The stretch of `ranges` (merged, in order) that holds `s`, or null. */
function covering(ranges: readonly Sweep[], s: LiveEntry, ord: Order<LiveEntry>): Sweep | null {
  // the last stretch starting at or before s
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const from = ranges[mid].from;
    if (from === null || !ord.before(s, from)) lo = mid + 1;
    else hi = mid;
  }
  if (lo === 0) return null;
  const r = ranges[lo - 1];
  return r.to === null || !ord.before(r.to, s) ? r : null;
}

/** `ranges` sorted by start with the overlapping ones joined. */
function mergeSweeps(ranges: Sweep[], ord: Order<LiveEntry>): Sweep[] {
  const startsBefore = (a: Sweep, b: Sweep) =>
    a.from === null || (b.from !== null && ord.before(a.from, b.from));
  ranges.sort((a, b) => (startsBefore(a, b) ? -1 : startsBefore(b, a) ? 1 : 0));
  const out: Sweep[] = [];
  for (const r of ranges) {
    const last = out.length > 0 ? out[out.length - 1] : null;
    // r starts within `last`: join them
    if (last !== null && (last.to === null || r.from === null || !ord.before(last.to, r.from))) {
      if (last.to !== null && (r.to === null || ord.before(last.to, r.to))) last.to = r.to;
    } else out.push({ from: r.from, to: r.to });
  }
  return out;
}

export class LiveDlpmPolicy extends DlpmPolicy {
  private readonly sets: Sets;
  private readonly live: LivePrefixOrder;
  private attached = false;
  /** Admission steps so far (stamps the requests a step admitted or found no room for). */
  private step = 0;

  constructor(cfg: LocalPolicyConfig<DlpmParams>) {
    super(cfg);
    this.sets = new Sets(cfg.clients.length, cfg.params.lpm_fcfs_fallback > 0);
    this.live = new LivePrefixOrder(this.sets);
  }

  override size(): number {
    return this.live.size;
  }

  override enqueue(req: SimRequest, worker: WorkerView, front: boolean): void {
    if (!this.attached) {
      this.live.attach(worker.radix, worker.deferSharedPrefixes === true);
      this.attached = true;
      if (worker.reservesOutput === true) this.sets.weights.worker = worker;
    }
    this.noteArrival(req, worker);
    this.live.add(req, front);
  }

  private fallback(): boolean {
    return this.fallbackAbove > 0 && this.live.size > this.fallbackAbove;
  }

  override admit(ctx: AdmissionContext): void {
    const live = this.live;
    live.sync();
    const n = live.size;
    if (n === 0) return;
    const step = ++this.step;
    const fallback = this.fallback();
    const all = fallback ? (this.sets.allFifo as Treap<LiveEntry>) : this.sets.all;
    const own = fallback ? (this.sets.byClientFifo as Treap<LiveEntry>[]) : this.sets.byClient;
    const ord: Order<LiveEntry> = fallback ? new QueueOrder() : new LpmOrder();
    const blockSize = ctx.worker.kv.blockSize;
    const atRoom = livePrefixFaults.dlpmSkipAtRoom ? 1 : 0;
    const rec = ctx.recording;
    let top: Top | null = null;
    if (rec) {
      const entries = all.first(MAX_ORDER);
      top = {
        entries,
        index: new Map(entries.map((e, k) => [e, k])),
        seen: new Uint8Array(entries.length),
        deficit: new Float64Array(entries.length),
      };
    }
    const mark = (e: LiveEntry, seen: number, deficit: number) => {
      const k = top?.index.get(e);
      if (top === null || k === undefined) return;
      top.seen[k] = seen;
      top.deficit[k] = deficit;
    };
    const deficits = this.deficits;
    /** Visit every request of a client without deficit (exact note eviction with many clients). */
    const oneByOne = rec && this.list.length > MAX_NOTES;
    const taken: LiveEntry[] = [];
    let admitted = 0;
    let creditKnown = false;
    let full = false;
    let room = -1;
    /**
     * Uncached tokens above which a request surely cannot fit: its need, blocksFor(uncached), is more
     * than `room` (then `cannotFit` holds: the unlocked part of its path only lowers what it can get).
     * Infinite before the step's first KV failure.
     */
    const limit = () => (room < 0 ? Number.POSITIVE_INFINITY : room * blockSize - atRoom);
    const worker = ctx.worker;
    const reserves = worker.reservesOutput === true;
    /**
     * SGLang admission refuses, before touching the cache, a request whose refusal key (uncached
     * prompt plus its output reservation) exceeds the worker's refusal room ((free + evictable) ×
     * block size − the reserved tokens): the limit on the second weight beyond which a try surely
     * fails so. Such a failure changes nothing when the room is already free + evictable (what it
     * resets the room to) and a slot and budget are left (else the try ends the step): then the
     * reference's outcome for every request past this limit is the same no-room, whether it checks
     * `cannotFit` or tries, and the scan passes over them. This limit implies the room's (a key is at
     * least the uncached prompt, the refusal room at most `room` × block size). Null when it does
     * not hold.
     */
    const reserveLimit = (): number | null => {
      if (!reserves || room < 0 || ctx.slotsLeft <= 0 || ctx.budgetLeft <= 0) return null;
      const fe = worker.kv.freeBlocks + worker.radix.evictableBlocks();
      if (room !== fe) return null;
      return worker.refusalRoom();
    };
    /** Per client, the merged stretches of earlier passes of this step it had credit in, in order. */
    const swept: (Sweep[] | undefined)[] = new Array(own.length);
    for (let pass = 0; !full && admitted < n; pass++) {
      let changed = false;
      let at: LiveEntry | null = null;
      // each client's next request after `at` (kept while `at` is before it, and, for one found under
      // the bound, while it is still within it: the scan only moves on and the room only shrinks)
      const fitCache: (LiveEntry | null | undefined)[] = new Array(own.length);
      // the bound each was found under (and which: the reservation's)
      const fitBound = new Float64Array(own.length);
      const fitSecond = new Uint8Array(own.length);
      /** This iteration's bound: the reservation's (second weight) when it holds, else the room's. */
      let bound = Number.POSITIVE_INFINITY;
      let second = false;
      const anyCache: (LiveEntry | null | undefined)[] = new Array(own.length);
      const stale = (s: LiveEntry | null | undefined) =>
        s === undefined || (s !== null && at !== null && !ord.before(at, s));
      /**
       * The next request of client `c` (with credit) the reference acts on: after `at`, not acted on
       * yet in this step, within the bound. The ones it passes over are found no room.
       */
      const nextFit = (c: number): LiveEntry | null => {
        let s = fitCache[c];
        // a request found under a bound stays the next while the bound only tightens and holds it
        if (
          stale(s) ||
          fitSecond[c] !== (second ? 1 : 0) ||
          bound > fitBound[c] ||
          (s !== undefined &&
            s !== null &&
            (second ? this.sets.weights.weight2(s) : uncachedBound(s)) > bound)
        ) {
          const set = own[c];
          const ranges = livePrefixFaults.dlpmNoSweep ? undefined : swept[c];
          const bounded = bound !== Number.POSITIVE_INFINITY;
          const from = (e: LiveEntry | null) => (bounded ? set.firstAtMost(e, bound, second) : set.after(e));
          s = from(at);
          while (s !== null) {
            if (s.stamp === step) {
              s = from(s);
              continue;
            }
            // acted on or passed over in an earlier pass of this step
            const r: Sweep | null = ranges === undefined ? null : covering(ranges, s, ord);
            if (r === null) break;
            s = r.to === null ? null : from(r.to);
          }
          fitCache[c] = s;
          fitBound[c] = bound;
          fitSecond[c] = second ? 1 : 0;
        }
        return s as LiveEntry | null;
      };
      /** The first request of client `c` after `from` the reference has not acted on in this step. */
      const anyAfter = (c: number, from: LiveEntry | null): LiveEntry | null => {
        const set = own[c];
        const ranges = livePrefixFaults.dlpmNoSweep ? undefined : swept[c];
        let s = set.after(from);
        while (s !== null) {
          if (s.stamp === step) {
            s = set.after(s);
            continue;
          }
          const r: Sweep | null = ranges === undefined ? null : covering(ranges, s, ord);
          if (r === null) break;
          s = r.to === null ? null : set.after(r.to);
        }
        return s;
      };
      /** The next request of client `c` (without credit) the reference has not acted on in this step. */
      const nextAny = (c: number): LiveEntry | null => {
        let s = anyCache[c];
        if (stale(s)) {
          s = anyAfter(c, at);
          anyCache[c] = s;
        }
        return s as LiveEntry | null;
      };
      // where each client's current stretch with credit began (undefined: it has none), and the
      // stretches that ended in this pass
      const open: (LiveEntry | null | undefined)[] = new Array(own.length);
      for (const c of this.list) if (deficits[c] > 0) open[c] = null;
      const ended: { c: number; sweep: Sweep }[] = [];
      /** Client `c`'s credit may have changed at request `x` (it had credit before when `had`). */
      const flip = (c: number, had: boolean, x: LiveEntry) => {
        const has = deficits[c] > 0;
        if (has === had) return;
        if (has) open[c] = x;
        else {
          ended.push({ c, sweep: { from: open[c] as LiveEntry | null, to: x } });
          open[c] = undefined;
        }
      };
      for (;;) {
        // the next request of a client with credit, and (when the scan must stop there) without
        let next: LiveEntry | null = null;
        let noCredit: LiveEntry | null = null;
        const needNoCredit =
          this.quantumPerRequest || (!creditKnown && !livePrefixFaults.dlpmNoCreditStop) || oneByOne;
        const reserve = reserveLimit();
        second = reserve !== null;
        bound = reserve ?? limit();
        for (const c of this.list) {
          const set = own[c];
          if (set.size === 0) continue;
          if (deficits[c] > 0) {
            const s = nextFit(c);
            if (s !== null && (next === null || ord.before(s, next))) next = s;
          } else if (needNoCredit) {
            const s = nextAny(c);
            if (s !== null && (noCredit === null || ord.before(s, noCredit))) noCredit = s;
          }
        }
        const stop = noCredit !== null && (next === null || ord.before(noCredit, next)) ? noCredit : null;
        // the requests of clients with credit before where the scan acts next were passed over by the
        // bound: the reference found each of them no room
        if (top !== null && room >= 0) this.markNoRoom(at, stop ?? next, ord, top);
        let x: LiveEntry;
        if (stop !== null) {
          x = stop;
          const c = x.req.client;
          if (this.quantumPerRequest) {
            // broken variant: this request brings its client a quantum of its own
            deficits[c] += this.quantum;
            flip(c, false, x);
            this.refills++;
            changed = true;
            if (rec) this.note('refills', { quantum: this.quantum, clients: [this.clients[c]] });
          } else if (!creditKnown) {
            const got = this.checkRefill();
            for (const y of got) flip(y, false, x);
            if (got.length > 0) changed = true;
            else creditKnown = true;
            if (rec && got.length > 0)
              this.note('refills', { quantum: this.quantum, clients: got.map((y) => this.clients[y]) });
          }
          const before = deficits[c];
          mark(x, SEEN_NO_DEFICIT, before);
          if (before <= 0) {
            if (rec && !this.notes.skipped.some((y) => y.client === this.clients[c]))
              this.note('skipped', { client: this.clients[c], deficit: before });
            at = x;
            continue;
          }
        } else {
          // the requests of clients without deficit before `next` are passed over, all at once
          if (rec && !needNoCredit) this.passOver(at, next, own, ord, top, nextAny);
          if (next === null) break;
          x = next;
          mark(x, SEEN_NO_DEFICIT, deficits[x.req.client]);
        }
        // x's client has credit
        const r = x.req;
        const c = r.client;
        const before = deficits[c];
        if (room >= 0 && this.cannotFitNow(x, ctx.worker, room)) {
          x.stamp = step;
          mark(x, SEEN_NO_ROOM, before);
          at = x;
          continue;
        }
        const outcome =
          top !== null
            ? ctx.tryAdmit(
                r,
                this.why(fallback ? 0 : x.match, before, fallback),
                this.liveDetail(top, x, all.rank(x), pass, n, fallback, ctx.worker),
              )
            : ctx.tryAdmit(r);
        if (outcome === 'admitted') {
          x.stamp = step;
          taken.push(x);
          mark(x, SEEN_ADMITTED, before);
          // the record just written holds the notes: the next one starts afresh
          if (rec) this.notes = { skipped: [], refills: [] };
          admitted++;
          changed = true;
          creditKnown = false;
          this.queued[c]--;
          deficits[c] -= this.we * (r.promptLen - r.cachedLen);
          flip(c, true, x);
          if (room >= 0) room -= r.privBlocks; // what this admission allocated
        } else if (outcome === 'no-kv') {
          x.stamp = step;
          mark(x, SEEN_NO_ROOM, before);
          if (rec && livePrefixFaults.dlpmTryClearsNotes) this.notes = { skipped: [], refills: [] };
          // everything evictable outside this request's path is gone now: take the bound afresh
          room = ctx.worker.kv.freeBlocks + ctx.worker.radix.evictableBlocks();
        } else {
          mark(x, SEEN_NONE, before);
          full = true; // no slot or token budget left: nothing else can be added this step
          break;
        }
        at = x;
      }
      if (!changed || full) break;
      // the stretches of this pass join the earlier ones (the next pass starts over from the top)
      for (const c of this.list)
        if (open[c] !== undefined) ended.push({ c, sweep: { from: open[c], to: null } });
      const grown = new Set<number>();
      for (const { c, sweep } of ended) {
        const ranges = swept[c];
        if (ranges === undefined) swept[c] = [sweep];
        else ranges.push(sweep);
        grown.add(c);
      }
      for (const c of grown) swept[c] = mergeSweeps(swept[c] as Sweep[], ord);
    }
    for (const e of taken) live.remove(e);
  }

  /**
   * Recording only: the reference, scanning from `at` to `to` (exclusive; null: the end) after a KV
   * failure, found every request of a client with credit it had not acted on yet no room (the live
   * scan passed over them by the bound): mark those among the first MAX_ORDER entries.
   */
  private markNoRoom(at: LiveEntry | null, to: LiveEntry | null, ord: Order<LiveEntry>, top: Top): void {
    const deficits = this.deficits;
    for (let k = 0; k < top.entries.length; k++) {
      if (top.seen[k] === SEEN_ADMITTED || top.seen[k] === SEEN_NO_ROOM) continue;
      const t = top.entries[k];
      if (at !== null && !ord.before(at, t)) continue;
      if (to !== null && !ord.before(t, to)) continue;
      const c = t.req.client;
      if (deficits[c] <= 0) continue;
      top.seen[k] = SEEN_NO_ROOM;
      top.deficit[k] = deficits[c];
    }
  }

  /**
   * The reference's scan passing over the requests of clients without deficit strictly between `at`
   * and `next` (null: the end), recording only: each such client noted once, in the order the scan
   * meets them, and the first MAX_ORDER entries among those requests marked.
   */
  private passOver(
    at: LiveEntry | null,
    next: LiveEntry | null,
    own: Treap<LiveEntry>[],
    ord: Order<LiveEntry>,
    top: Top | null,
    nextAny: (c: number) => LiveEntry | null,
  ): void {
    const deficits = this.deficits;
    const met: LiveEntry[] = [];
    for (const c of this.list) {
      if (deficits[c] > 0 || own[c].size === 0) continue;
      const s = nextAny(c);
      if (s !== null && (next === null || ord.before(s, next))) met.push(s);
    }
    met.sort((a, b) => (ord.before(a, b) ? -1 : 1));
    for (const s of met) {
      const c = s.req.client;
      if (!this.notes.skipped.some((y) => y.client === this.clients[c]))
        this.note('skipped', { client: this.clients[c], deficit: deficits[c] });
    }
    if (top === null) return;
    for (let k = 0; k < top.entries.length; k++) {
      const t = top.entries[k];
      if (top.seen[k] === SEEN_ADMITTED || top.seen[k] === SEEN_NO_ROOM) continue;
      if (at !== null && !ord.before(at, t)) continue;
      if (next !== null && !ord.before(t, next)) continue;
      const c = t.req.client;
      if (deficits[c] > 0) continue;
      top.seen[k] = SEEN_NO_DEFICIT;
      top.deficit[k] = deficits[c];
    }
  }

  /** `cannotFit` with the request's match re-read now (an admission this step may have evicted). */
  private cannotFitNow(e: LiveEntry, worker: WorkerView, room: number): boolean {
    this.roomChecks++;
    const radix = worker.radix;
    refreshMemo(e, e.req, radix);
    const end =
      e.part !== null
        ? { node: e.part, within: e.partWithin, length: e.fullDepth + e.partWithin }
        : (() => {
            const node = e.full ?? radix.root;
            return { node, within: node.len, length: e.fullDepth };
          })();
    return cannotFitAt(end, e.req, worker, room);
  }

  /** The reference's `detail`, from the first MAX_ORDER entries and the admitted one's rank. */
  private liveDetail(
    top: Top,
    x: LiveEntry,
    position: number,
    pass: number,
    waiting: number,
    fallback: boolean,
    worker: WorkerView,
  ): DlpmAdmitDetail {
    const entry = (e: LiveEntry, seen: number, deficitAt: number, admitted: boolean): DlpmOrderEntry => {
      const r = e.req;
      const out: DlpmOrderEntry = {
        request: r.id,
        client: this.clients[r.client],
        prefix_match: fallback ? 0 : e.match,
        deficit: seen === SEEN_NONE ? this.deficits[r.client] : deficitAt,
      };
      if (admitted) {
        out.prefix_match = cachedPrefix(r, worker);
        out.outcome = 'admitted';
        out.charge = this.we * (r.promptLen - out.prefix_match);
      } else if (seen === SEEN_NO_DEFICIT) out.outcome = 'no-deficit';
      else if (seen === SEEN_NO_ROOM) out.outcome = 'no-room';
      else if (seen === SEEN_NONE) out.outcome = 'not-reached';
      return out;
    };
    const entries: DlpmOrderEntry[] = [];
    for (let k = 0; k < top.entries.length; k++)
      entries.push(entry(top.entries[k], top.seen[k], top.deficit[k], k === position));
    if (position >= top.entries.length)
      entries.push(entry(x, SEEN_NO_DEFICIT, this.deficits[x.req.client], true));
    const notes = this.notes;
    const d: DlpmAdmitDetail = {
      algo: 'dlpm',
      worker: this.workerId,
      quantum: this.quantum,
      order: entries,
      skipped: notes.skipped,
      admitted: [x.req.id],
      scan_position: position,
      pass,
      waiting,
      fcfs_fallback: fallback,
    };
    if (notes.refills.length > 0) {
      d.refill = notes.refills[0];
      if (notes.refills.length > 1) d.refills = notes.refills;
    }
    return d;
  }

  override waiting(limit: number): SimRequest[] {
    this.live.sync();
    const all = this.fallback() ? (this.sets.allFifo as Treap<LiveEntry>) : this.sets.all;
    return all.first(limit).map((e) => e.req);
  }
}
