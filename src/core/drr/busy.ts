/**
 * Busy tests that decide whether a class head may leave the queue now.
 * A worker is busy for a class when its active prefill tokens exceed the class's absolute threshold
 * or its fraction of the worker's max batched tokens. The pool is busy when all eligible workers are
 * (or, with `busyWorkerRatio`, when enough of them are); no eligible worker means not busy.
 */
import type { ClassConfig } from './types';

export interface WorkerLoad {
  activePrefillTokens: number;
  maxBatchedTokens: number;
}

/** Queueing is only ever needed for a class that has a busy threshold. */
export function hasBusyThreshold(cls: ClassConfig): boolean {
  return cls.prefillBusyThreshold !== undefined || cls.prefillBusyThresholdFrac !== undefined;
}

export function workerBusy(cls: ClassConfig, w: WorkerLoad): boolean {
  if (cls.prefillBusyThreshold !== undefined && w.activePrefillTokens > cls.prefillBusyThreshold) return true;
  if (
    cls.prefillBusyThresholdFrac !== undefined &&
    w.activePrefillTokens > cls.prefillBusyThresholdFrac * w.maxBatchedTokens
  )
    return true;
  return false;
}

/**
 * Pool busy test over the eligible workers (for a pinned request pass just its worker).
 * Empty -> false: the request proceeds and fails later in worker selection.
 */
export function poolBusy(cls: ClassConfig, workers: readonly WorkerLoad[]): boolean {
  const n = workers.length;
  if (n === 0) return false;
  let busy = 0;
  for (const w of workers) if (workerBusy(cls, w)) busy++;
  if (cls.busyWorkerRatio !== undefined) return busy >= cls.busyWorkerRatio * n;
  return busy === n;
}
