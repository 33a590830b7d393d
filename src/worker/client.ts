/** The UI's handle on the simulation worker. */
import { type Remote, wrap } from 'comlink';
import type { FairgroundApi } from './api';

export type WorkerApi = Remote<FairgroundApi>;

export function startWorker(): WorkerApi {
  const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' });
  return wrap<FairgroundApi>(worker);
}

/** A worker that can also be stopped (compare mode's second run, dropped when the comparison ends). */
export function startWorkerHandle(): { api: WorkerApi; terminate(): void } {
  const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' });
  return { api: wrap<FairgroundApi>(worker), terminate: () => worker.terminate() };
}
