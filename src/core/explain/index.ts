/**
 * "Explain this decision": turns a decision record into a step-by-step account in plain words.
 * Pure functions over plain data (no DOM): the UI shows the steps and links each to the YAML line
 * of the class, parameter or client it names. An algorithm's detail goes to the explainer its
 * descriptor names (src/core/algorithms); a DRR pop to the DRR explainer; anything else gets the
 * simulator's summary and facts.
 */
import { ROUTING_ALGORITHMS, SCHEDULER_ALGORITHMS } from '../algorithms/index';
import { ROUTER_QUEUE_RECHECK_S } from '../drr/release';
import type { DrrPopRecord } from '../drr/types';
import { type DrrExplainOptions, explainDrrDecision } from './drr';
import { algorithmDetail, drrRecordOf, type ExplainableDecision } from './records';
import { explainSimRecord } from './sim-record';
import { type ExplanationStep, stepsToText } from './types';

export type ExplainOptions = DrrExplainOptions;

const EXPLAINERS = [...SCHEDULER_ALGORITHMS, ...ROUTING_ALGORITHMS].flatMap((d) =>
  'explain' in d && d.explain ? [d.explain] : [],
);

/**
 * Pick the explainer by what the record carries: a DRR record (also accepted bare, as the DRR
 * sandbox's `last_record`), an algorithm's detail, or neither (the simulator's summary and facts).
 */
export function explainDecision(
  record: ExplainableDecision | DrrPopRecord,
  opts: ExplainOptions = {},
): ExplanationStep[] {
  if ('visits' in record) return explainDrrDecision(record, opts);
  const drr = drrRecordOf(record);
  if (drr) {
    const steps = explainDrrDecision(drr, opts);
    if (record.detail !== undefined && 'drain' in record.detail && record.detail.drain === 'periodic_update')
      steps.unshift({
        text: `Why a pop now: no request arrived and no worker reported. This is the router scheduler's periodic queue update (every ${ROUTER_QUEUE_RECHECK_S} s from its start), which drains the queue as a worker update does. Up to v1.5 an arrival is stored without a drain, so a stored request that could already leave waits for a worker update or for this tick.`,
      });
    return steps;
  }
  const algo = algorithmDetail(record.detail);
  if (algo)
    for (const explain of EXPLAINERS) {
      const steps = explain(algo);
      if (steps) return steps;
    }
  return explainSimRecord(record);
}

/** The account as numbered lines (what the playground test hook `explain()` returns). */
export function explainDecisionText(
  record: ExplainableDecision | DrrPopRecord,
  opts: ExplainOptions = {},
): string {
  return stepsToText(explainDecision(record, opts));
}

export { explainDrrDecision, explainDrrText, quantaFromSnapshot, type DrrExplainOptions } from './drr';
export { explainDlpmAdmit } from '../algorithms/dlpm/explain';
export { explainDoubleQDispatch } from '../algorithms/doubleq/explain';
export { explainVtcAdmit } from '../algorithms/vtc/explain';
export { explainPreblePlacement } from '../algorithms/preble/explain';
export { explainSimRecord, detailFacts } from './sim-record';
export { stepsToText, type ExplanationStep, type ExplanationRef } from './types';
export type {
  DlpmAdmitDetail,
  DoubleQDispatchDetail,
  VtcAdmitDetail,
  PreblePlacementDetail,
} from '../algorithms/details';
export type { DlpmOrderEntry } from '../algorithms/dlpm/detail';
export { algorithmDetail, drrRecordOf, type ExplainableDecision } from './records';
/** A decision to explain (the name the UI uses). */
export type DecisionLike = ExplainableDecision;
