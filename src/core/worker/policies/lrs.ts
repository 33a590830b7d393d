/**
 * LRS (Vajra): least remaining slack first, recomputed at every decision. For a waiting request with
 * deadline budget D (./deadline.ts) and predicted remaining prefill time R,
 *   slack = (arrival + D − now − R) / D,
 * lower first; ties go to the earlier arrival, then the smaller id. Because the slack divides by a
 * per-request D, the order between two requests can change as time passes, so the whole queue is
 * re-keyed and sorted at the start of every admission pass: O(n log n) per batch step for n waiting
 * requests (the price of a truly dynamic priority; within one pass `now` is fixed, so the order is
 * too). Admission is head-of-line: it stops at the first request that does not fit.
 *
 * D and R are computed once at enqueue (a waiting request has no prefill progress: preemption
 * resets it) and kept in `policyAux` and `policyKey`.
 */
import type { SimRequest } from '../../sim/request';
import type { AdmissionContext, LocalPolicy, LocalPolicyFactory, WorkerView } from '../local-policy';
import { type DeadlineParams, deadlineBudgetS, deadlineParams, predictedPrefillS } from './deadline';
import { arrivalThenId } from './request-order';

interface Keyed {
  req: SimRequest;
  slack: number;
}

export class LrsPolicy implements LocalPolicy {
  readonly name = 'lrs';
  private queue: SimRequest[] = [];
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
    const keyed = this.sorted(now);
    let taken = 0;
    for (const k of keyed) {
      const r = k.req;
      const outcome = ctx.recording
        ? ctx.tryAdmit(r, `least slack (${k.slack.toFixed(3)} of budget ${r.policyAux.toFixed(3)} s)`, {
            algo: 'lrs',
            slack: k.slack,
            deadline_budget_s: r.policyAux,
            remaining_prefill_s: r.policyKey,
            rank: taken,
          })
        : ctx.tryAdmit(r);
      if (outcome !== 'admitted') break;
      taken++;
    }
    if (taken === 0) return;
    // the rest, still in the queue's own order
    const admitted = new Set<SimRequest>();
    for (let i = 0; i < taken; i++) admitted.add(keyed[i].req);
    this.queue = this.queue.filter((r) => !admitted.has(r));
  }

  waiting(limit: number): SimRequest[] {
    return this.sorted(this.now)
      .slice(0, limit)
      .map((k) => k.req);
  }
}

export const createLrs: LocalPolicyFactory = (cfg) => new LrsPolicy(deadlineParams(cfg.scheduler));
