/**
 * Preble's fcfs-mpq at O(log n) per request it files, admits or tries (#15): the same groups, round
 * robin, decisions and records as ./policy.ts's FcfsMpqPolicy (the reference the tests compare it
 * with), without scanning the served group request by request.
 *
 * Each group is an ordered set by arrival (../shared/treap.ts, weighted by refusal key), so filing a request is
 * O(log n). Every filed request carries its worker's refusal key (WorkerView.refusalKey): a request
 * whose key is above the worker's refusal room now would get 'no-kv' from `tryAdmit`, which would
 * then change nothing. The reference tries every request of the group in turn; within one admission
 * step the room never grows and a cached prefix never grows (admissions only lock, allocate and
 * evict), so a request whose key is above the room now would still be refused untouched when the
 * reference reached it. The scan jumps over all such requests up to the next one with a key within
 * the room (one query of the set's subtree minimum of the keys, `firstAtMost`), tries that one as
 * the reference would, and counts the ones passed over from ranks. The keys must follow each
 * request's cached prefix while it waits: ../shared/live-prefix-order.ts keeps those matches live
 * under the radix cache's evictions, new leaves and splits, and a request whose match moved is
 * re-keyed here (a grown match lowers its key; a shrunk one raises it, and a key left too low is
 * still safe, only slower).
 *
 * What stays per request: each one tried costs O(log n) — admitted, or refused after the first
 * check (under either admission, a request whose own cached path is unlocked may pass the first
 * check and fail once its path is locked), because such a try locks and unlocks the request's path,
 * which re-times it for LRU eviction (and may split an edge): skipping it would change later
 * evictions. Such a refusal ends the group's scan for the step, as in Preble (see ./policy.ts); a
 * try refused at the first check (its key was left too low) is passed over. Both admissions make the first check before touching the tree (sglang: uncached
 * prompt + own output estimate in tokens; optimistic: the uncached prompt's blocks), so under
 * either a request with a cached prefix that surely does not fit is jumped over like any other.
 *
 * Preble's prefill cap passes requests over too, untouched: each filed request also carries its
 * uncached prompt under its live match (the set's second weight), and the scan jumps over the ones
 * whose uncached prompt reaches what the cap leaves in the step, as it does by key (`nextToTry`).
 *
 * Cost per step: O((1 + c) log n) to re-key (c as for LPM: waiting requests whose match the step's
 * tree changes reached) plus O(log n) per request tried and per jump over capped requests;
 * O(log n) per arrival.
 */
import type { SimRequest } from '../../sim/request';
import type { AdmissionContext, AdmitOutcome, WorkerView } from '../../replica/local-policy';
import { type KeyListener, type LiveEntry, LivePrefixOrder } from '../shared/live-prefix-order';
import { cachedPrefix } from '../shared/prefix-order';
import { type Order, Treap, type Weights } from '../shared/treap';
import type { FcfsMpqDetail } from './detail';
import {
  arrivalBefore,
  FcfsMpqPolicy,
  failedOnceLocked,
  MPQ_GROUPS,
  MPQ_K,
  mpqGroup,
  uncachedNow,
} from './policy';

/**
 * Deliberately broken variants, for tests only: each must make the equivalence tests fail (they are
 * never set outside tests).
 */
export const mpqFaults = {
  /** Keys from the whole prompt, as if nothing were cached: the bound is not a lower bound. */
  ignoreMatch: false,
  /** Keep each request's key from when it was filed (no re-key when its cached prefix moves). */
  staleKeys: false,
  /** Leave Preble's prefill cap out of the scan (requests over it are tried as any other). */
  ignoreCap: false,
};

/** A request filed in a group. */
interface Filed {
  readonly e: LiveEntry;
  readonly group: number;
  /** Hit ratio when it was filed. */
  readonly ratio: number;
}

class ByArrival implements Order<Filed> {
  before(a: Filed, b: Filed): boolean {
    return arrivalBefore(a.e.req, b.e.req);
  }
}

/**
 * The groups' ordered sets, re-keyed when a filed request's cached prefix moves; a request's weight
 * in its set is its refusal key (read when it is inserted).
 */
class Groups implements KeyListener, Weights<Filed> {
  readonly sets: Treap<Filed>[];
  readonly filed = new Map<SimRequest, Filed>();
  worker: WorkerView | null = null;

  constructor() {
    const order = new ByArrival();
    this.sets = Array.from({ length: MPQ_GROUPS }, () => new Treap<Filed>(order, this));
  }

  keyOf(e: LiveEntry): number {
    return (this.worker as WorkerView).refusalKey(e.req, mpqFaults.ignoreMatch ? 0 : e.match);
  }

  weight(f: Filed): number {
    return this.keyOf(f.e);
  }

  /** The request's uncached prompt under its live match (Preble's prefill cap reads it). */
  weight2(f: Filed): number {
    return f.e.req.promptLen - f.e.match;
  }

  file(f: Filed): void {
    this.filed.set(f.e.req, f);
    this.sets[f.group].insert(f);
  }

  unfile(f: Filed): void {
    this.sets[f.group].remove(f);
    this.filed.delete(f.e.req);
  }

  joining(e: LiveEntry): void {
    const f = this.filed.get(e.req);
    if (f === undefined || e.gone || mpqFaults.staleKeys) return;
    this.sets[f.group].insert(f);
  }

  leaving(e: LiveEntry): void {
    const f = this.filed.get(e.req);
    if (f === undefined || e.gone || mpqFaults.staleKeys) return;
    this.sets[f.group].remove(f);
  }
}

export class LiveFcfsMpqPolicy extends FcfsMpqPolicy {
  private readonly byGroup = new Groups();
  private readonly live = new LivePrefixOrder(this.byGroup);
  /** Joined since the last step, not yet filed in a group. */
  private unfiled: LiveEntry[] = [];

  constructor(workerId: number, k: number = MPQ_K, maxPrefill: number | null = null) {
    super(workerId, k, maxPrefill);
  }

  override size(): number {
    return this.live.size;
  }

  override enqueue(req: SimRequest, worker: WorkerView, _front: boolean): void {
    if (this.byGroup.worker === null) {
      // no in-batch deferral: the matches only serve the keys and the hit ratios
      this.live.attach(worker.radix, false);
      this.byGroup.worker = worker;
    }
    this.unfiled.push(this.live.add(req, false));
  }

  override groupOf(req: SimRequest): number {
    return this.byGroup.filed.get(req)?.group ?? -1;
  }

  protected override groupSize(g: number): number {
    return this.byGroup.sets[g].size;
  }

  override admit(ctx: AdmissionContext): void {
    const live = this.live;
    live.sync();
    const groups = this.byGroup;
    for (const e of this.unfiled) {
      const r = e.req;
      const ratio = r.promptLen > 0 ? e.match / r.promptLen : 0;
      groups.file({ e, group: mpqGroup(ratio), ratio });
    }
    this.unfiled = [];
    const rec = ctx.recording;
    const skipped: number[] | null = rec ? [] : null;
    const sizes = rec ? groups.sets.map((s) => s.size) : null;
    const g = this.pick(skipped);
    if (g < 0) return;
    const set = groups.sets[g];
    const limit = (g + 1) * this.k;
    const worker = ctx.worker;
    const cap = mpqFaults.ignoreCap ? Number.POSITIVE_INFINITY : this.prefillCap(worker);
    let admitted = 0;
    let stepPrefill = 0;
    let at: Filed | null = null;
    const taken: Filed[] = [];
    while (admitted < limit && ctx.budgetLeft > 0) {
      // the next request the reference would act on: the ones before it would be refused untouched
      // or passed over by the prefill cap
      const x = this.nextToTry(
        set,
        at,
        worker,
        stepPrefill > 0 ? cap - stepPrefill : Number.POSITIVE_INFINITY,
      );
      if (x === null) break;
      const r = x.e.req;
      let outcome: AdmitOutcome;
      if (rec) {
        // admitted requests stay in the set until the scan ends: ranks are the group's at its start
        const rank = set.rank(x);
        outcome = ctx.tryAdmit(r, `group ${g} (hit ratio ${(x.ratio * 100).toFixed(0)}%), oldest first`, {
          algo: 'fcfs-mpq',
          worker: this.workerId,
          group: g,
          group_sizes: sizes as number[],
          skipped_empty: skipped as number[],
          limit,
          hit_ratio: x.ratio,
          cached: cachedPrefix(r, worker),
          rank,
          admitted_before: admitted,
          passed_over: rank - admitted,
        } satisfies FcfsMpqDetail);
      } else outcome = ctx.tryAdmit(r);
      if (outcome === 'admitted') {
        taken.push(x);
        admitted++;
        stepPrefill += r.chunk;
      } else if (outcome !== 'no-kv' || failedOnceLocked(r, worker)) break; // as the reference
      at = x;
    }
    for (const f of taken) {
      groups.unfile(f);
      live.remove(f.e);
    }
  }

  /**
   * The first request after `at` that the reference would try: its refusal key within the room and
   * its uncached prompt below `capLeft` (the prefill cap less this step's admitted prefill). Stored
   * keys and uncached lengths are lower bounds within a step (matches only shrink while it admits),
   * so a jump by either passes over only requests the reference passes over too; the one found is
   * checked against its exact uncached length, and against its exact key before a jump by length
   * hands over to one by key. O(log n) per jump; the jumps alternate at most once per request that
   * fits one condition and not the other.
   */
  private nextToTry(set: Treap<Filed>, at: Filed | null, worker: WorkerView, capLeft: number): Filed | null {
    let x = set.firstAtMost(at, worker.refusalRoom());
    while (x !== null && uncachedNow(x.e.req, worker) >= capLeft) {
      const y = set.firstAtMost(x, capLeft - 1, true);
      if (y === null) return null;
      const room = worker.refusalRoom();
      x = worker.refusalKey(y.e.req, cachedPrefix(y.e.req, worker)) <= room ? y : set.firstAtMost(y, room);
    }
    return x;
  }

  override waiting(limit: number): SimRequest[] {
    const out: SimRequest[] = [];
    for (let i = 0; i < MPQ_GROUPS && out.length < limit; i++) {
      const g = (this.cursor + MPQ_GROUPS - i) % MPQ_GROUPS;
      for (const f of this.byGroup.sets[g].first(limit - out.length)) out.push(f.e.req);
    }
    for (const e of this.unfiled) {
      if (out.length >= limit) break;
      out.push(e.req);
    }
    return out;
  }
}
