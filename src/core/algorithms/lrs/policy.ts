/**
 * LRS (Vajra): least remaining slack first. For a waiting request with deadline budget D
 * (../shared/deadline.ts) and predicted remaining prefill time R,
 *   slack = (arrival + D − now − R) / D,
 * lower first; ties go to the earlier arrival, then the smaller id. Admission is head-of-line: it
 * stops at the first request that does not fit. D and R are computed once at enqueue (a waiting
 * request has no prefill progress: preemption resets it) and kept in `policyAux` and `policyKey`.
 * Vajra's LrsReplicaScheduler computes the same (deadline − now − remaining prefill) / deadline_time
 * for every waiting sequence and re-sorts its queue before each batch.
 *
 * Why not a static key: the slack divides by a per-request D, so two requests whose D differ swap
 * order at a time that depends on both ((arrival + D − R)/D − now/D is a line in `now` with slope
 * −1/D), and even among requests sharing D the slack is rounded after subtracting `now`, so equal
 * rounded slacks fall back to arrival/id at times no key fixed at enqueue predicts.
 *
 * How it stays O(log² n) per operation (#15.3): `now` only moves forward and each slack is a line in
 * it, so the queue is a kinetic tournament tree (../shared/kinetic-tournament.ts). Every node is
 * decided by the comparator above, evaluated exactly as written here at the current time (the same
 * floating-point operations as the per-pass re-key this replaces), and re-checked when its two
 * lines come within a rounding band of crossing; so the tree admits exactly the sequence a re-key and
 * heap of every waiting request at every pass would (property-tested against that O(n) reference,
 * tests/unit/policies/lrs-kinetic.test.ts). Insert and admission are O(log² n) amortized, an
 * admission pass O((k + 1) log² n) for k admitted, instead of O(n + k log n) with n waiting.
 * A request with a zero budget (min_deadline_s 0 and a zero predicted prefill) has no line: while one
 * waits, admission falls back to that O(n) re-key (`admitByScan`), which decides as it always did.
 */
import type { SimRequest } from '../../sim/request';
import type { AdmissionContext, LocalPolicy, WorkerView } from '../../replica/local-policy';
import { type DeadlineParams, deadlineBudgetS, predictedPrefillS } from '../shared/deadline';
import { type KineticOrder, KineticTournament, ROUNDOFF } from '../shared/kinetic-tournament';
import { arrivalThenId } from '../shared/request-order';

/** What an admission under LRS records. */
export interface LrsDetail {
  algo: 'lrs';
  slack: number;
  deadline_budget_s: number;
  remaining_prefill_s: number;
  rank: number;
}

/** The slack of a waiting request at `now` (R in `policyKey`, D in `policyAux`). */
export function lrsSlack(req: SimRequest, now: number): number {
  const d = req.policyAux;
  return (req.arrivalT + d - now - req.policyKey) / d;
}

/** LRS's order: smaller slack at `now`, then earlier arrival, then smaller id (a total order for finite slacks). */
export function lrsCompare(x: SimRequest, y: SimRequest, now: number): number {
  const sx = lrsSlack(x, now);
  const sy = lrsSlack(y, now);
  if (sx !== sy) return sx < sy ? -1 : 1;
  return arrivalThenId(x, y);
}

/** A slack as a line in time for the kinetic tree: (arrival + D − R)/D − now/D. */
export class LrsMotion implements KineticOrder<SimRequest> {
  compare(x: SimRequest, y: SimRequest, now: number): number {
    return lrsCompare(x, y, now);
  }

  line(x: SimRequest, out: Float64Array): void {
    const d = x.policyAux;
    const r = x.policyKey;
    const a = x.arrivalT;
    out[0] = (a + d - r) / d;
    out[1] = 1 / d;
    // four roundings of magnitude ≤ (|arrival| + D + now + R)/D in the slack, as many in the line:
    // 32 unit roundoffs per unit of that magnitude bound both with room to spare
    out[2] = (32 * ROUNDOFF * (Math.abs(a) + d + Math.abs(r))) / d;
    out[3] = (32 * ROUNDOFF) / d;
  }

  sameMotion(x: SimRequest, y: SimRequest): boolean {
    return x.arrivalT === y.arrivalT && x.policyAux === y.policyAux && x.policyKey === y.policyKey;
  }
}

export class LrsPolicy implements LocalPolicy {
  readonly name = 'lrs';
  private readonly tree = new KineticTournament<SimRequest>(new LrsMotion());
  private now = 0;
  /**
   * Requests admitted in the pass under way: they leave the tree at once but are counted as
   * waiting until the pass ends, as the re-key did (it compacted its queue after the pass), so the
   * worker's decision records keep their `waiting` figures.
   */
  private admittedInPass = 0;

  constructor(private readonly params: DeadlineParams) {}

  size(): number {
    return this.tree.size + this.admittedInPass;
  }

  enqueue(req: SimRequest, worker: WorkerView): void {
    const remaining = predictedPrefillS(req, worker);
    req.policyKey = remaining;
    req.policyAux = deadlineBudgetS(this.params, remaining);
    this.now = worker.now;
    this.tree.insert(req, worker.now);
  }

  /** The slack of a waiting request at `now`. */
  slack(req: SimRequest, now: number): number {
    return lrsSlack(req, now);
  }

  /** Certificates the tree has recomputed so far (the benchmark's count of work). */
  get recomputes(): number {
    return this.tree.recomputes;
  }

  private offer(ctx: AdmissionContext, r: SimRequest, slack: number, rank: number) {
    return ctx.recording
      ? ctx.tryAdmit(r, `least slack (${slack.toFixed(3)} of budget ${r.policyAux.toFixed(3)} s)`, {
          algo: 'lrs' as const,
          slack,
          deadline_budget_s: r.policyAux,
          remaining_prefill_s: r.policyKey,
          rank,
        })
      : ctx.tryAdmit(r);
  }

  admit(ctx: AdmissionContext): void {
    const now = ctx.worker.now;
    this.now = now;
    const tree = this.tree;
    if (tree.size === 0) return;
    try {
      if (tree.degenerate > 0) this.admitByScan(ctx, now);
      else
        for (let r = tree.peek(now); r !== undefined; r = tree.peek(now)) {
          const slack = ctx.recording ? lrsSlack(r, now) : 0;
          if (this.offer(ctx, r, slack, this.admittedInPass) !== 'admitted') break; // head-of-line
          tree.popFirst();
          this.admittedInPass++;
        }
    } finally {
      this.admittedInPass = 0;
    }
  }

  /**
   * The O(n) pass: every waiting request re-keyed at `now` and heaped, in the queue's insertion
   * order (as before the kinetic tree; used only while a request without a line waits, whose NaN
   * slack makes the order depend on that layout).
   */
  private admitByScan(ctx: AdmissionContext, now: number): void {
    const q = this.tree.inserted();
    const n = q.length;
    const slack = new Float64Array(n);
    for (let i = 0; i < n; i++) slack[i] = lrsSlack(q[i], now);
    const before = (x: number, y: number) =>
      slack[x] !== slack[y] ? slack[x] < slack[y] : arrivalThenId(q[x], q[y]) < 0;
    const heap = new Int32Array(n);
    for (let i = 0; i < n; i++) heap[i] = i;
    let size = n;
    const down = (at: number) => {
      let i = at;
      const v = heap[i];
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        const c = r < size && before(heap[r], heap[l]) ? r : l;
        if (!before(heap[c], v)) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = v;
    };
    for (let i = (n >> 1) - 1; i >= 0; i--) down(i);
    while (size > 0) {
      const i = heap[0];
      if (this.offer(ctx, q[i], slack[i], this.admittedInPass) !== 'admitted') break; // head-of-line
      this.tree.remove(q[i]);
      this.admittedInPass++;
      heap[0] = heap[--size];
      down(0);
    }
  }

  waiting(limit: number): SimRequest[] {
    if (this.tree.degenerate > 0) {
      const now = this.now;
      const keyed = this.tree.inserted().map((req) => ({ req, slack: lrsSlack(req, now) }));
      keyed.sort((a, b) =>
        a.slack !== b.slack ? (a.slack < b.slack ? -1 : 1) : arrivalThenId(a.req, b.req),
      );
      return keyed.slice(0, limit).map((k) => k.req);
    }
    return this.tree.ordered(this.now, limit);
  }
}
