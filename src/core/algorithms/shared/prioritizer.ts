/**
 * Vajra's request prioritizers as an order on a shared queue: under pull replica-set scheduling
 * (`router.routing: pull`) every replica pulls from one queue that Vajra keeps as a priority queue
 * ordered by the configured prioritizer (its `SequencePriorityQueue`), so the held requests are
 * taken in the order the scenario's scheduler (`scheduler.policy`) would take them: arrival for
 * FCFS, deadline for EDF, slack for LRS, SLO priority or prompt length for BLIS's fixed-key orders.
 *
 * A request's priority at time `now` is `key` (smaller first), or `(key − now) / scale` when the
 * prioritizer has a scale (LRS: slack = (arrival + D − R − now) / D, which re-orders as time passes).
 * Ties: earlier arrival, then the smaller id. Classes, not closures: the engine's state is copied
 * for restore points, and a copy must not share state through functions.
 */
import { type GpuProfile, type ModelProfile, prefillTimeS } from '../../cost';
import type { SimRequest } from '../../sim/request';
import { type DeadlineParams, deadlineBudgetS } from './deadline';

export interface Prioritizer {
  /** How texts name the order. */
  readonly label: string;
  /** Fixed part of the priority (computed once when the request is held). */
  key(req: SimRequest): number;
  /** When present, the priority at `now` is (key − now) / scale. */
  scale?(req: SimRequest): number;
}

/** The cost model a deadline prioritizer predicts prefill times with. */
export interface PrioritizerCost {
  gpu: GpuProfile;
  model: ModelProfile;
}

export class ArrivalPrioritizer implements Prioritizer {
  readonly label = 'arrival (FCFS)';
  key(req: SimRequest): number {
    return req.arrivalT;
  }
}

/** A fixed key per request (BLIS's priority-fcfs, sjf, reverse-priority). */
export class FieldPrioritizer implements Prioritizer {
  constructor(
    readonly label: string,
    private readonly field: 'priority' | 'promptLen',
    private readonly sign: 1 | -1 = 1,
  ) {}
  key(req: SimRequest): number {
    return this.sign * req[this.field];
  }
}

/** Predicted prefill time of a held request's whole prompt (nothing prefilled yet), seconds. */
function heldPrefillS(c: PrioritizerCost, req: SimRequest): number {
  return prefillTimeS(c.gpu, c.model, req.promptLen - req.prefilled, req.prefilled);
}

/** EDF: deadline = arrival + D. */
export class EdfPrioritizer implements Prioritizer {
  readonly label = 'deadline (EDF)';
  constructor(
    private readonly p: DeadlineParams,
    private readonly c: PrioritizerCost,
  ) {}
  key(req: SimRequest): number {
    return req.arrivalT + deadlineBudgetS(this.p, heldPrefillS(this.c, req));
  }
}

/** LRS: slack = (arrival + D − now − R) / D. */
export class LrsPrioritizer implements Prioritizer {
  readonly label = 'remaining slack (LRS)';
  constructor(
    private readonly p: DeadlineParams,
    private readonly c: PrioritizerCost,
  ) {}
  key(req: SimRequest): number {
    const r = heldPrefillS(this.c, req);
    return req.arrivalT + deadlineBudgetS(this.p, r) - r;
  }
  scale(req: SimRequest): number {
    return deadlineBudgetS(this.p, heldPrefillS(this.c, req));
  }
}
