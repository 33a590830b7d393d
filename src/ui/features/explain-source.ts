/**
 * The plain-words account of a line of the decision log. Every decision carries its record: cluster
 * decisions their algorithm's `detail`, the DRR sandbox's pops their arbitration record (`drr`).
 */
import {
  type DecisionLike,
  type ExplanationStep,
  explainDecision,
  quantaFromSnapshot,
  stepsToText,
} from '../../core/explain';
import { useUi } from '../../state/store';
import type { SessionDecision, SessionSnapshot } from '../../worker/session';

function asDecisionLike(d: SessionDecision, sandbox: boolean): DecisionLike {
  const out: DecisionLike = { kind: d.kind, summary: d.summary };
  if (!sandbox) out.t = d.t;
  if (d.request !== undefined) out.request = d.request;
  if (d.client !== undefined) out.client = d.client;
  if (d.worker !== undefined && d.worker !== null) out.worker = d.worker;
  if (d.class !== undefined) out.class = d.class;
  if (d.detail !== undefined) out.detail = d.detail;
  return out;
}

/** Quantum per class from a snapshot's `drr`, when it has one. */
export function quantaOf(snapshot: SessionSnapshot | null): Record<string, number> | undefined {
  const drr = snapshot?.drr;
  return drr ? quantaFromSnapshot(drr) : undefined;
}

/** The step-by-step account of one decision of the log, with what the playground holds right now. */
export function explainSessionDecision(d: SessionDecision): ExplanationStep[] {
  const ui = useUi.getState();
  const sandbox = ui.kind === 'arbitration';
  const quanta = quantaOf(ui.snapshot);
  const opts = quanta ? { quanta } : {};
  if (d.drr) return explainDecision(d.drr, opts);
  return explainDecision(asDecisionLike(d, sandbox), opts);
}

/** `window.fairground.explain()`: the account of the newest decision as numbered lines. */
export async function explainLast(): Promise<string> {
  const { decisions } = useUi.getState();
  const last = decisions[decisions.length - 1];
  if (!last) return 'No decision has been taken yet: press Step or Play first.';
  return stepsToText(explainSessionDecision(last));
}
