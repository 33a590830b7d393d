/**
 * Vajra's deadline budget, shared by EDF and LRS: a request may take
 * D = max(deadline_multiplier × predicted prefill time, min_deadline_s) seconds from its arrival to
 * the end of its prefill. The prediction is the cost model's time of a step that prefills the whole
 * prompt alone (as Vajra predicts from the prompt length, ignoring the prefix cache).
 */
import { prefillTimeS } from '../../cost';
import type { WorkerView } from '../../replica/local-policy';
import type { SimRequest } from '../../sim/request';
import { num } from '../../zod-fields';
import type { ParamsOf } from '../descriptor';

/** The scheduler keys EDF and LRS share. */
export const deadlineShape = {
  deadline_multiplier: num('deadline_multiplier', 0, 1000, true).default(1.5).meta({
    description:
      'edf/lrs: deadline budget = max(multiplier × predicted prefill time, min_deadline_s) (default 1.5).',
  }),
  min_deadline_s: num('min_deadline_s', 0, 86_400)
    .default(0.5)
    .meta({ description: 'edf/lrs: smallest deadline budget, seconds (default 0.5).' }),
};

export interface DeadlineParams {
  multiplier: number;
  minDeadlineS: number;
}

/** The deadline parameters from the scheduler section's keys. */
export function deadlineParams(p: ParamsOf<typeof deadlineShape>): DeadlineParams {
  return { multiplier: p.deadline_multiplier, minDeadlineS: p.min_deadline_s };
}

/** Predicted prefill time of the request's remaining prompt (all of it while it waits), seconds. */
export function predictedPrefillS(req: SimRequest, worker: WorkerView): number {
  return prefillTimeS(worker.gpu, worker.model, req.promptLen - req.prefilled, req.prefilled);
}

/** The deadline budget D of a request with predicted prefill time `prefillS`. */
export function deadlineBudgetS(p: DeadlineParams, prefillS: number): number {
  return Math.max(p.multiplier * prefillS, p.minDeadlineS);
}
