/**
 * "Explain this decision": turns a decision record into a step-by-step account in plain words.
 * Pure functions over plain data (no DOM): the UI shows the steps and links each to the YAML line
 * of the class, parameter or client it names.
 */
import type { DrrPopRecord as DrrDecisionRecord } from '../drr/types';
import { type DrrExplainOptions, explainDrrDecision } from './drr';
import { explainDlpmAdmit } from './dlpm';
import { explainDoubleQDispatch } from './doubleq';
import { explainPreblePlacement } from './preble';
import {
  type DecisionLike,
  drrRecordOf,
  isDlpmAdmitDetail,
  isDoubleQDispatchDetail,
  isDrrDecisionRecord,
  isPreblePlacementDetail,
  isVtcAdmitDetail,
} from './records';
import { explainSimRecord } from './sim-record';
import { type ExplanationStep, stepsToText } from './types';
import { explainVtcAdmit } from './vtc';

export type ExplainOptions = DrrExplainOptions;

/**
 * Pick the explainer by what the record carries: a DRR record (also accepted bare, as the DRR
 * sandbox's `lastRecord`), an algorithm's detail, or neither (the simulator's summary and facts).
 */
export function explainDecision(
  record: DecisionLike | DrrDecisionRecord,
  opts: ExplainOptions = {},
): ExplanationStep[] {
  if (isDrrDecisionRecord(record)) return explainDrrDecision(record, opts);
  const drr = drrRecordOf(record);
  if (drr) return explainDrrDecision(drr, opts);
  const d = record.detail;
  if (isDlpmAdmitDetail(d)) return explainDlpmAdmit(d);
  if (isDoubleQDispatchDetail(d)) return explainDoubleQDispatch(d);
  if (isVtcAdmitDetail(d)) return explainVtcAdmit(d);
  if (isPreblePlacementDetail(d)) return explainPreblePlacement(d);
  return explainSimRecord(record);
}

/** The account as numbered lines (what the playground test hook `explain()` returns). */
export function explainDecisionText(
  record: DecisionLike | DrrDecisionRecord,
  opts: ExplainOptions = {},
): string {
  return stepsToText(explainDecision(record, opts));
}

export { explainDrrDecision, explainDrrText, quantaFromSnapshot, type DrrExplainOptions } from './drr';
export { explainDlpmAdmit } from './dlpm';
export { explainDoubleQDispatch } from './doubleq';
export { explainVtcAdmit } from './vtc';
export { explainPreblePlacement } from './preble';
export { explainSimRecord, detailFacts } from './sim-record';
export { stepsToText, type ExplanationStep, type ExplanationRef } from './types';
export type {
  DecisionLike,
  DlpmAdmitDetail,
  DlpmOrderEntry,
  DoubleQDispatchDetail,
  VtcAdmitDetail,
  PreblePlacementDetail,
} from './records';
export {
  isDrrDecisionRecord,
  isDlpmAdmitDetail,
  isDoubleQDispatchDetail,
  isVtcAdmitDetail,
  isPreblePlacementDetail,
  drrRecordOf,
} from './records';
