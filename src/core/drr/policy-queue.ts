/**
 * The router's policy-class queue: classify requests into physical classes, keep one FCFS/WSPT heap
 * per class, check queue limits before adding, and arbitrate between class heads with DRR.
 *
 * Each profile (root, model profiles, or the synthetic default) has its own ring, as each model has
 * its own queue in the router. `pop` arbitrates one ring: the one named in the options, else the
 * next profile with backlog in a fixed rotation (root first, then models in declaration order).
 */
import { lateText } from '../explain/words';
import { hasBusyThreshold } from './busy';
import {
  type ClassResolution,
  explainResolution,
  indexProfile,
  type ProfileIndex,
  profileIndexFor,
  profileList,
  resolveClassIndex,
} from './classify';
import { requestCost } from './cost';
import { DecisionRecorder } from './decision-record';
import { arbitrate } from './big-pop';
import { type Dispatchable, DrrRing } from './drr-ring';
import { policyScore } from './order';
import { checkQueueLimits } from './queue-limits';
import type {
  ClassRef,
  CompiledPolicy,
  DrrSnapshot,
  DrrVariant,
  EnqueueResult,
  PopOptions,
  PopResult,
  Profile,
  QueuedRequest,
  QueueRequestInput,
  RequestFacts,
} from './types';

export interface PolicyQueueOptions {
  /** Worker count that scales the per-worker queue limits (default 1). */
  workers?: number;
  variant?: DrrVariant;
  /**
   * Exact-worker lanes per class (Dynamo v1.4+, default true): a pinned request waits in its worker's
   * lane, so a pinned head whose worker is busy does not block the rest of its class. False models
   * v1.3, where every request of a class waits in one heap.
   */
  lanes?: boolean;
  /** Arbitrate on exact BigInt arithmetic every time, not only where numbers could lose digits (tests). */
  exact?: boolean;
}

export class PolicyQueue<T = unknown> {
  readonly variant: DrrVariant;
  /** Whether classes keep exact-worker lanes (Dynamo v1.4+) or one heap each (v1.3). */
  readonly lanes: boolean;
  private workers: number;
  private readonly profileDefs: Profile[];
  private readonly indexes: ProfileIndex[];
  private readonly rings: DrrRing<T>[];
  private seq = 0;
  private rotation = 0;
  private readonly queueing: boolean;

  constructor(policy: CompiledPolicy | null, opts: PolicyQueueOptions = {}) {
    this.variant = opts.variant ?? 'v2';
    this.workers = Math.max(1, Math.floor(opts.workers ?? 1));
    this.profileDefs = profileList(policy);
    this.indexes = this.profileDefs.map(indexProfile);
    const lanes = opts.lanes !== false;
    this.lanes = lanes;
    this.rings = this.profileDefs.map((p) => new DrrRing<T>(p, lanes, opts.exact === true));
    this.queueing = this.profileDefs.some((p) => p.classes.some(hasBusyThreshold));
  }

  /** The profiles in ring order: index 0 is the root (or synthetic default), then model profiles. */
  profiles(): readonly Profile[] {
    return this.profileDefs;
  }

  setWorkers(workers: number): void {
    this.workers = Math.max(1, Math.floor(workers));
  }

  /** Profile, class and cost snapshot for a request (nothing is queued). */
  resolve(req: RequestFacts): ClassRef {
    const profileIndex = profileIndexFor(this.profileDefs, req.model);
    const index = this.indexes[profileIndex];
    const c = requestCost(req.rawIsl, req.cachedTokens);
    const classIndex = resolveClassIndex(index, req.requestedClass, c.uncached);
    // Built field by field: object spread is markedly slower on this hot path.
    return {
      rawIsl: c.rawIsl,
      cached: c.cached,
      uncached: c.uncached,
      cost: c.cost,
      profileIndex,
      profile: index.profile.name,
      classIndex,
      className: index.profile.classes[classIndex].name,
    };
  }

  /** Why a request lands in its class: profile, requested name, bucket floors, class (nothing is queued). */
  explainResolve(req: RequestFacts): ClassResolution {
    const profileIndex = profileIndexFor(this.profileDefs, req.model);
    const c = requestCost(req.rawIsl, req.cachedTokens);
    return explainResolution(this.indexes[profileIndex], req.model, req.requestedClass, c.uncached);
  }

  /** Classify and add a request, unless a queue limit of its class is already reached. */
  enqueue(req: QueueRequestInput<T>): EnqueueResult {
    const ref = this.resolve(req);
    const ring = this.rings[ref.profileIndex];
    const slot = ring.slots[ref.classIndex];
    const verdict = checkQueueLimits(slot.config, slot.load, this.workers);
    if (!verdict.ok)
      return { accepted: false, ref, reason: verdict.reason, current: verdict.current, limit: verdict.limit };
    const priority = req.priority ?? 0;
    const arrivalS = req.arrivalS ?? 0;
    const queued: QueuedRequest<T> = {
      id: req.id,
      ref,
      priority,
      strictPriority: req.strictPriority ?? 0,
      arrivalS,
      seq: this.seq++,
      worker: req.worker ?? -1,
      score: policyScore(slot.config.queuePolicy, priority, arrivalS, ref.cost),
      payload: req.payload,
    };
    if (req.dueS !== undefined && req.dueS !== null) queued.due = req.dueS;
    ring.push(queued);
    return { accepted: true, ref };
  }

  /** One arbitration. `isDispatchable` is asked about class heads only. */
  pop(isDispatchable: Dispatchable<T>, opts: PopOptions = {}): PopResult<T> {
    const p = opts.profileIndex ?? this.nextProfileWithBacklog();
    const ring = this.rings[p];
    ring.expired.length = 0;
    ring.now = opts.now ?? Number.NEGATIVE_INFINITY;
    const rec = opts.record !== false ? new DecisionRecorder<T>(ring, this.variant) : null;
    const request = arbitrate(ring, isDispatchable, this.variant, rec);
    if (request && opts.profileIndex === undefined) this.rotation = (p + 1) % this.rings.length;
    const headsTouched = ring.lastHeadsTouched;
    const expired = ring.expired.length > 0 ? ring.expired.splice(0) : [];
    const record = rec ? rec.finish(request, headsTouched) : null;
    if (record && expired.length > 0) {
      const now = ring.now;
      record.expired = expired.map((e) => ({
        id: e.id,
        class: e.ref.className,
        overdue_ms: overdueMs(now, e.due ?? now),
      }));
      record.summary += `; shed past their due time, unserved and uncharged: ${record.expired.map((e) => `${e.id} (${e.class}, ${lateText(e.overdue_ms)})`).join(', ')}`;
    }
    return { request, expired, record, headsTouched };
  }

  /**
   * The allocation-free hot path: one arbitration without a decision record or result object.
   * Same decision as `pop(isDispatchable, { record: false })`.
   */
  popRequest(isDispatchable: Dispatchable<T>, profileIndex?: number): QueuedRequest<T> | null {
    const p = profileIndex ?? this.nextProfileWithBacklog();
    const ring = this.rings[p];
    ring.now = Number.NEGATIVE_INFINITY;
    const request = arbitrate(ring, isDispatchable, this.variant, null);
    if (request && profileIndex === undefined) this.rotation = (p + 1) % this.rings.length;
    return request;
  }

  /**
   * Dynamo v1.6's sweep of expired due times: every queued request of every profile whose due time is
   * at or before `now` leaves its class unserved and uncharged (see `DrrRing.takeExpired`), profile by
   * profile in ring order. Cheap when nothing has expired.
   */
  takeExpired(now: number): QueuedRequest<T>[] {
    let out: QueuedRequest<T>[] = [];
    for (const ring of this.rings) {
      const e = ring.takeExpired(now);
      if (e.length > 0) out = out.length === 0 ? e : out.concat(e);
    }
    return out;
  }

  /** The earliest due time of any queued request, or null when none carries one. */
  nextDue(): number | null {
    let next: number | null = null;
    for (const ring of this.rings) {
      const d = ring.nextDue();
      if (d !== null && (next === null || d < next)) next = d;
    }
    return next;
  }

  /** Class heads examined by the most recent pop of a profile's ring. */
  lastHeadsTouched(profileIndex = 0): number {
    return this.rings[profileIndex].lastHeadsTouched;
  }

  private nextProfileWithBacklog(): number {
    const n = this.rings.length;
    for (let k = 0; k < n; k++) {
      const p = (this.rotation + k) % n;
      if (this.rings[p].total > 0) return p;
    }
    return this.rotation % n;
  }

  /** Some class has a busy threshold, so requests may have to wait in the queue at all. */
  queueingEnabled(): boolean {
    return this.queueing;
  }

  /** The class already holds waiting requests (new arrivals must then queue behind them). */
  hasBacklog(ref: Pick<ClassRef, 'profileIndex' | 'classIndex'>): boolean {
    return this.rings[ref.profileIndex].slots[ref.classIndex].size > 0;
  }

  /** Requests queued in one profile's ring. */
  profileSize(profileIndex: number): number {
    return this.rings[profileIndex].total;
  }

  size(): number {
    let s = 0;
    for (const r of this.rings) s += r.total;
    return s;
  }

  /** Index of the profile a snapshot shows by default: the first one holding work, else 0. */
  primaryProfile(): number {
    for (let i = 0; i < this.rings.length; i++) if (this.rings[i].total > 0) return i;
    return 0;
  }

  /** DRR state of one profile (default: `primaryProfile()`); `blocked` is filled when a test is given. */
  snapshot(profileIndex = this.primaryProfile(), isDispatchable?: Dispatchable<T>): DrrSnapshot {
    const ring = this.rings[profileIndex];
    return {
      cursor: ring.nameOf(ring.cursor),
      carry: ring.nameOf(ring.carry),
      classes: ring.slots.map((s) => {
        const head = s.first();
        const row: DrrSnapshot['classes'][number] = {
          name: s.config.name,
          quantum: s.config.quantum,
          deficit: s.deficit,
          queued: s.size,
          head_cost: head ? head.ref.cost : null,
        };
        if (s.bigDeficit !== null) row.deficit_exact = s.bigDeficit.toString();
        if (isDispatchable && head) row.blocked = !isDispatchable(head, s);
        return row;
      }),
      variant: this.variant,
      profile: ring.profile.name,
    };
  }

  /** A class's waiting requests in the order they would leave (profile default: `primaryProfile()`). */
  classQueue(name: string, profileIndex = this.primaryProfile(), limit?: number): QueuedRequest<T>[] {
    const slot = this.rings[profileIndex].slots.find((s) => s.config.name === name);
    return slot ? slot.ordered(limit) : [];
  }
}

/**
 * Milliseconds a request shed at `now` was past its due time, truncated (what Dynamo reports as
 * `overdue_ms`; a due time equal to now is still live, so a shed request is at least 0 late).
 */
export function overdueMs(now: number, due: number): number {
  return Math.trunc((now - due) * 1000);
}
