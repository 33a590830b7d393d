/**
 * Pull (Vajra's pull replica-set scheduler): one shared queue, no early binding. A request stays in
 * the router (`hold`) until some worker has room for it — nothing waiting locally, a free running
 * slot and less than one step's worth of prefill pending — and then goes to the worker among those
 * with the fewest running requests (ties: lowest id). The engine offers held requests again after
 * every batch step, so a worker that frees room takes the next one: next in the order of the
 * scenario's request prioritizer (Vajra's shared queue is a priority queue under it: EDF's deadline,
 * LRS's slack, FCFS's arrival, …; see ../shared/prioritizer.ts), arrival order for a scheduler
 * without one.
 */
import type { ClusterView, RouteChoice, RouterPolicy, RouterWorkerView } from '../../router/router-policy';

/** What a pull dispatch records. */
export interface PullDetail {
  algo: 'pull';
  /** Per worker: whether it has room now. */
  room: boolean[];
  running: number[];
}

/** A worker can take one more request now without it queueing behind others. */
export function hasRoom(w: RouterWorkerView): boolean {
  return w.waitingCount === 0 && w.runningCount < w.maxRunning && w.activePrefillTokens < w.maxBatchTokens;
}

/** What a snapshot shows of the pull router: how many routes it held back (late binding). */
export interface PullState {
  holds: number;
}

export class PullRouter implements RouterPolicy {
  readonly name = 'pull';
  private holds = 0;

  route(_req: unknown, view: ClusterView): RouteChoice {
    const ws = view.workers;
    let best = -1;
    for (let i = 0; i < ws.length; i++)
      if (hasRoom(ws[i]) && (best < 0 || ws[i].runningCount < ws[best].runningCount)) best = i;
    if (best < 0) {
      this.holds++;
      return { hold: true, why: 'no worker has room: stays in the shared queue' };
    }
    if (!view.recording) return { worker: best };
    return {
      worker: best,
      why: `worker ${best} has room (${ws[best].runningCount} running)`,
      detail: {
        algo: 'pull',
        room: ws.map((w) => hasRoom(w)),
        running: ws.map((w) => w.runningCount),
      } satisfies PullDetail,
    };
  }

  describe(): PullState {
    return { holds: this.holds };
  }
}
