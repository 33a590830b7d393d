/**
 * LRS (Vajra): least remaining slack first, recomputed at every decision. For a waiting request with
 * deadline budget D (./deadline.ts) and predicted remaining prefill time R,
 *   slack = (arrival + D − now − R) / D,
 * lower first; ties go to the earlier arrival, then the smaller id. Because the slack divides by a
 * per-request D, the order between two requests can change as time passes, so every waiting request
 * is re-keyed at the start of every admission pass and heaped: O(n + k log n) per batch step for n
 * waiting and k admitted requests (the price of a truly dynamic priority; within one pass `now` is
 * fixed, so the order is too). Admission is head-of-line: it stops at the first request that does
 * not fit.
 *
 * D and R are computed once at enqueue (a waiting request has no prefill progress: preemption
 * resets it) and kept in `policyAux` and `policyKey`.
 *
 * Why no cheaper structure (#15.3, checked against Vajra's LrsReplicaScheduler, which computes
 * (deadline − now − remaining prefill) / deadline_time for every waiting sequence and re-sorts its
 * queue before each batch): with D = max(multiplier · R, min_deadline), two requests whose D differ
 * swap order at a time that depends on both (slack is (arrival + D − R)/D − now/D), so no key fixed at
 * enqueue orders them; exactly tracking the swaps needs a kinetic heap, and even requests sharing
 * D = min_deadline cannot use the static key arrival + D − R, because the slack is rounded after
 * subtracting `now` and equal rounded slacks fall back to arrival/id: a static key would reorder
 * near-ties and change runs. The per-pass re-key stays; it is O(n) per batch step, not per admission.
 */
import type { SimRequest } from '../../sim/request';
import type { AdmissionContext, LocalPolicy, WorkerView } from '../../replica/local-policy';
import { type DeadlineParams, deadlineBudgetS, predictedPrefillS } from '../shared/deadline';
import { arrivalThenId } from '../shared/request-order';

/** What an admission under LRS records. */
export interface LrsDetail {
  algo: 'lrs';
  slack: number;
  deadline_budget_s: number;
  remaining_prefill_s: number;
  rank: number;
}

interface Keyed {
  req: SimRequest;
  slack: number;
}

export class LrsPolicy implements LocalPolicy {
  readonly name = 'lrs';
  private readonly queue: SimRequest[] = [];
  private now = 0;

  constructor(private readonly params: DeadlineParams) {}

  size(): number {
    return this.queue.length;
  }

  enqueue(req: SimRequest, worker: WorkerView): void {
    const remaining = predictedPrefillS(req, worker);
    req.policyKey = remaining;
    req.policyAux = deadlineBudgetS(this.params, remaining);
    this.queue.push(req);
    this.now = worker.now;
  }

  /** The slack of a waiting request at `now`. */
  slack(req: SimRequest, now: number): number {
    const d = req.policyAux;
    return (req.arrivalT + d - now - req.policyKey) / d;
  }

  private sorted(now: number): Keyed[] {
    const keyed = this.queue.map((req) => ({ req, slack: this.slack(req, now) }));
    keyed.sort((a, b) => (a.slack !== b.slack ? (a.slack < b.slack ? -1 : 1) : arrivalThenId(a.req, b.req)));
    return keyed;
  }

  admit(ctx: AdmissionContext): void {
    const now = ctx.worker.now;
    this.now = now;
    const q = this.queue;
    const n = q.length;
    if (n === 0) return;
    // slack of every waiting request now, then a heap of indexes: O(n) to build, O(log n) per pop,
    // so a step that admits k requests costs O(n + k log n) instead of a full sort
    const slack = new Float64Array(n);
    for (let i = 0; i < n; i++) slack[i] = this.slack(q[i], now);
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
    const gone = new Uint8Array(n);
    let taken = 0;
    while (size > 0) {
      const i = heap[0];
      const r = q[i];
      const outcome = ctx.recording
        ? ctx.tryAdmit(r, `least slack (${slack[i].toFixed(3)} of budget ${r.policyAux.toFixed(3)} s)`, {
            algo: 'lrs' as const,
            slack: slack[i],
            deadline_budget_s: r.policyAux,
            remaining_prefill_s: r.policyKey,
            rank: taken,
          })
        : ctx.tryAdmit(r);
      if (outcome !== 'admitted') break; // head-of-line
      gone[i] = 1;
      taken++;
      heap[0] = heap[--size];
      down(0);
    }
    if (taken === 0) return;
    // the rest, still in the queue's own order
    let k = 0;
    for (let i = 0; i < n; i++) if (gone[i] === 0) q[k++] = q[i];
    q.length = k;
  }

  waiting(limit: number): SimRequest[] {
    return this.sorted(this.now)
      .slice(0, limit)
      .map((k) => k.req);
  }
}
