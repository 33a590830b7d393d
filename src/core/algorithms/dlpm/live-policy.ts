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
 * Cost per step: O((1 + c) log n) to re-key (c as for LPM) plus O(clients · log n) per request the
 * scan acts on (tried, or passed over by `cannotFit`) and per refill; the requests of clients without
 * deficit cost nothing. With more than MAX_NOTES clients, a recording scan visits those requests one
 * by one (the note list's eviction order then depends on every visit).
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
import { type Order, Treap } from '../shared/treap';
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

/** The ordered sets: everyone and each client, in LPM order and (with a fallback) queue order. */
class Sets implements KeyListener {
  readonly all: Treap<LiveEntry>;
  readonly byClient: Treap<LiveEntry>[];
  readonly allFifo: Treap<LiveEntry> | null;
  readonly byClientFifo: Treap<LiveEntry>[] | null;

  constructor(clients: number, fifo: boolean) {
    const lpm = new LpmOrder();
    const queue = new QueueOrder();
    this.all = new Treap(lpm);
    this.byClient = Array.from({ length: clients }, () => new Treap(lpm));
    this.allFifo = fifo ? new Treap(queue) : null;
    this.byClientFifo = fifo ? Array.from({ length: clients }, () => new Treap(queue)) : null;
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

/** This step's record facts about the first MAX_ORDER entries of the order. */
interface Top {
  entries: LiveEntry[];
  index: Map<LiveEntry, number>;
  seen: Uint8Array;
  deficit: Float64Array;
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
    this.live = new LivePrefixOrder(false, this.sets);
  }

  override size(): number {
    return this.live.size;
  }

  override enqueue(req: SimRequest, worker: WorkerView, front: boolean): void {
    if (!this.attached) {
      this.live.attach(worker.radix, worker.deferSharedPrefixes === true);
      this.attached = true;
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
    // the next request of `set` after `at` that this step has not admitted nor found no room for
    const after = (set: Treap<LiveEntry>, at: LiveEntry | null): LiveEntry | null => {
      let s = set.after(at);
      while (s !== null && s.stamp === step) s = set.after(s);
      return s;
    };
    const fallback = this.fallback();
    const all = fallback ? (this.sets.allFifo as Treap<LiveEntry>) : this.sets.all;
    const own = fallback ? (this.sets.byClientFifo as Treap<LiveEntry>[]) : this.sets.byClient;
    const ord: Order<LiveEntry> = fallback ? new QueueOrder() : new LpmOrder();
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
    for (let pass = 0; !full && admitted < n; pass++) {
      let changed = false;
      let at: LiveEntry | null = null;
      // each client's next request after `at` (kept while `at` is before it: the scan only moves on,
      // so a stamped request is stepped over once per pass)
      const cache: (LiveEntry | null | undefined)[] = new Array(own.length);
      const nextOf = (c: number): LiveEntry | null => {
        let s = cache[c];
        if (s === undefined || (s !== null && at !== null && !ord.before(at, s))) {
          s = after(own[c], at);
          cache[c] = s;
        }
        return s;
      };
      for (;;) {
        // the next request of a client with credit, and (when the scan must stop there) without
        let next: LiveEntry | null = null;
        let noCredit: LiveEntry | null = null;
        const needNoCredit =
          this.quantumPerRequest || (!creditKnown && !livePrefixFaults.dlpmNoCreditStop) || oneByOne;
        for (const c of this.list) {
          const set = own[c];
          if (set.size === 0) continue;
          if (deficits[c] > 0) {
            const s = nextOf(c);
            if (s !== null && (next === null || ord.before(s, next))) next = s;
          } else if (needNoCredit) {
            const s = nextOf(c);
            if (s !== null && (noCredit === null || ord.before(s, noCredit))) noCredit = s;
          }
        }
        let x: LiveEntry;
        if (noCredit !== null && (next === null || ord.before(noCredit, next))) {
          x = noCredit;
          const c = x.req.client;
          if (this.quantumPerRequest) {
            // broken variant: this request brings its client a quantum of its own
            deficits[c] += this.quantum;
            this.refills++;
            changed = true;
            if (rec) this.note('refills', { quantum: this.quantum, clients: [this.clients[c]] });
          } else if (!creditKnown) {
            const got = this.checkRefill();
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
          if (rec && !needNoCredit) this.passOver(at, next, own, ord, top, nextOf);
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
          admitted++;
          changed = true;
          creditKnown = false;
          this.queued[c]--;
          deficits[c] -= this.we * (r.promptLen - r.cachedLen);
          if (room >= 0) room -= r.privBlocks; // what this admission allocated
        } else if (outcome === 'no-kv') {
          x.stamp = step;
          mark(x, SEEN_NO_ROOM, before);
          // everything evictable outside this request's path is gone now: take the bound afresh
          room = ctx.worker.kv.freeBlocks + ctx.worker.radix.evictableBlocks();
        } else {
          mark(x, SEEN_NONE, before);
          full = true; // no slot or token budget left: nothing else can be added this step
          break;
        }
        at = x;
      }
      if (!changed) break;
    }
    for (const e of taken) live.remove(e);
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
    nextOf: (c: number) => LiveEntry | null,
  ): void {
    const deficits = this.deficits;
    const met: LiveEntry[] = [];
    for (const c of this.list) {
      if (deficits[c] > 0 || own[c].size === 0) continue;
      const s = nextOf(c);
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
    this.notes = { skipped: [], refills: [] };
    return d;
  }

  override waiting(limit: number): SimRequest[] {
    this.live.sync();
    const all = this.fallback() ? (this.sets.allFifo as Treap<LiveEntry>) : this.sets.all;
    return all.first(limit).map((e) => e.req);
  }
}
