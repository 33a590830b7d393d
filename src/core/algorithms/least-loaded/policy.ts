/**
 * Least-loaded: the worker with the fewest requests waiting (plus running ones, unless
 * `router.count_running: false`, which is Vidur's "least outstanding requests" on queued only).
 * Ties go to the lowest worker id.
 */
import type { ClusterView, RouteChoice, RouterPolicy, RouterWorkerView } from '../../router/router-policy';

/** What a least-loaded dispatch records. */
export interface LeastLoadedDetail {
  algo: 'least-loaded';
  /** Per worker: queued (+ running) requests. */
  loads: number[];
  count_running: boolean;
}

/** What a snapshot shows of least-loaded routing: whether running requests count as load. */
export interface LeastLoadedState {
  count_running: boolean;
}

export class LeastLoadedRouter implements RouterPolicy {
  readonly name = 'least-loaded';

  constructor(private readonly countRunning: boolean) {}

  load(w: RouterWorkerView): number {
    return w.waitingCount + (this.countRunning ? w.runningCount : 0);
  }

  route(_req: unknown, view: ClusterView): RouteChoice {
    const ws = view.workers;
    let best = 0;
    let bestLoad = this.load(ws[0]);
    for (let i = 1; i < ws.length; i++) {
      const l = this.load(ws[i]);
      if (l < bestLoad) {
        best = i;
        bestLoad = l;
      }
    }
    if (!view.recording) return { worker: best };
    return {
      worker: best,
      why: `fewest ${this.countRunning ? 'queued + running' : 'queued'} requests (${bestLoad})`,
      detail: {
        algo: 'least-loaded',
        loads: ws.map((w) => this.load(w)),
        count_running: this.countRunning,
      } satisfies LeastLoadedDetail,
    };
  }

  describe(): LeastLoadedState {
    return { count_running: this.countRunning };
  }
}
