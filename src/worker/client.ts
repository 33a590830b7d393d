/** The UI's handle on the simulation worker. */
import { type Remote, wrap } from 'comlink';
import type { FairgroundApi } from './api';

export type WorkerApi = Remote<FairgroundApi>;

export function startWorker(): WorkerApi {
  const worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module' });
  return wrap<FairgroundApi>(worker);
}
