/**
 * Vajra's deadline budget, shared by EDF and LRS: a request may take
 * D = max(deadline_multiplier × predicted prefill time, min_deadline_s) seconds from its arrival to
 * the end of its prefill. The prediction is the cost model's time of a step that prefills the whole
 * prompt alone (as Vajra predicts from the prompt length, ignoring the prefix cache).
 */
import { prefillTimeS } from '../../cost';
import type { SimRequest } from '../../sim/request';
import type { WorkerView } from '../local-policy';

export interface DeadlineParams {
  multiplier: number;
  minDeadlineS: number;
}

/** Reads `deadline_multiplier` and `min_deadline_s` from the scheduler section (defaults 1.5, 0.5). */
export function deadlineParams(scheduler: Readonly<Record<string, unknown>>): DeadlineParams {
  const m = scheduler.deadline_multiplier;
  const d = scheduler.min_deadline_s;
  return {
    multiplier: typeof m === 'number' ? m : 1.5,
    minDeadlineS: typeof d === 'number' ? d : 0.5,
  };
}

/** Predicted prefill time of the request's remaining prompt (all of it while it waits), seconds. */
export function predictedPrefillS(req: SimRequest, worker: WorkerView): number {
  return prefillTimeS(worker.gpu, worker.model, req.promptLen - req.prefilled, req.prefilled);
}

/** The deadline budget D of a request with predicted prefill time `prefillS`. */
export function deadlineBudgetS(p: DeadlineParams, prefillS: number): number {
  return Math.max(p.multiplier * prefillS, p.minDeadlineS);
}
