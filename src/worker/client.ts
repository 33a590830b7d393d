/**
 * The one place the UI starts simulators. Every Web Worker that runs the engine is created here:
 * the playground's run (the Driver), Compare's second run, the sweep pool and Export's replay. Each
 * simulation follows the tab's visibility: while the page is hidden it takes no restore points, so
 * the memory of many open tabs goes to the ones being looked at.
 */
import { type Remote, wrap } from 'comlink';
import type { FairgroundApi } from './api';
import type { TraceTable } from '../core/trace';
import { type ReplayInput, type ReplayOutcome, replayOn, type SweepWorkerApi } from './sweep-runner';

export type WorkerApi = Remote<FairgroundApi>;
export type SweepApi = Remote<SweepWorkerApi>;

/** A started worker and the way to stop it. */
export interface WorkerHandle<A> {
  api: A;
  terminate(): void;
}

/** A simulation worker (the playground's run, or Compare's run B). */
export function startSimulation(): WorkerHandle<WorkerApi> {
  const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' });
  const api = wrap<FairgroundApi>(worker);
  const follow = () => void api.setBackground(document.hidden);
  document.addEventListener('visibilitychange', follow);
  if (document.hidden) follow();
  return {
    api,
    terminate: () => {
      document.removeEventListener('visibilitychange', follow);
      worker.terminate();
    },
  };
}

/** A sweep worker: runs sweep points and replays (one at a time). */
export function startSweepWorker(): WorkerHandle<SweepApi> {
  const worker = new Worker(new URL('./sweep.worker.ts', import.meta.url), { type: 'module' });
  return { api: wrap<SweepWorkerApi>(worker), terminate: () => worker.terminate() };
}

/**
 * Replay a run in a fresh worker (Export), then let the worker go. `traces`: the page worker's
 * tables of the dropped traces the scenario replays, handed over first (empty when it replays none).
 */
export async function replayInWorker(
  input: ReplayInput,
  traces: readonly TraceTable[] = [],
): Promise<ReplayOutcome> {
  const { api, terminate } = startSweepWorker();
  try {
    return await replayOn(api, input, traces);
  } finally {
    terminate();
  }
}
