/**
 * The decision record behind a line of the decision log, and its plain-words account. Cluster
 * decisions carry their record (`detail`); the DRR sandbox's log lines do not, so the script is
 * replayed here (on the core's ArbitrationSession, from the texts in the editors) up to that step.
 * The replay is cached per text and grows as later steps are asked for.
 */
import type { DrrPopRecord as DrrRecord } from '../../core/drr';
import { type ArbitrationSession, playgroundSession } from '../../core/drr';
import {
  type DecisionLike,
  type ExplanationStep,
  explainDecision,
  quantaFromSnapshot,
  stepsToText,
} from '../../core/explain';
import { parseYaml } from '../../format/yaml';
import { scriptWithPolicy } from '../../policy';
import { policyOverride, useEdits } from '../../state/edits';
import { useUi } from '../../state/store';
import type { SessionDecision } from '../../worker/session';

interface Replay {
  key: string;
  session: ArbitrationSession;
  /** Record of each step so far (null for enqueues). */
  records: (DrrRecord | null)[];
}

let cache: Replay | null = null;

function replayFor(scenario: string, policy: string | undefined): Replay | null {
  const key = `${scenario}\u0000${policy ?? ''}`;
  if (cache?.key === key) return cache;
  const parsed = parseYaml(scenario);
  if (!parsed.ok) return null;
  const script = scriptWithPolicy(parsed.value, policy);
  if (!script.ok) return null;
  // seq counts the playground's steps, which start after a preloading script's enqueues
  const { session } = playgroundSession(script.value);
  cache = { key, session, records: [] };
  return cache;
}

/** The DRR record of sandbox step `seq` (0-based), by replaying the script; null when unknown. */
export function sandboxRecord(scenario: string, policy: string | undefined, seq: number): DrrRecord | null {
  const replay = replayFor(scenario, policy);
  if (!replay) return null;
  while (replay.records.length <= seq) {
    const step = replay.session.step();
    if (!step) return null;
    replay.records.push(step.record);
  }
  return replay.records[seq];
}

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
export function quantaOf(snapshot: Record<string, unknown> | null): Record<string, number> | undefined {
  const drr = snapshot?.drr as { classes?: unknown } | undefined;
  if (!drr || !Array.isArray(drr.classes)) return undefined;
  const classes = drr.classes.filter(
    (c): c is { name: string; quantum: number } =>
      typeof c === 'object' && c !== null && typeof c.name === 'string' && typeof c.quantum === 'number',
  );
  return quantaFromSnapshot({ classes });
}

/** The step-by-step account of one decision of the log, with what the playground holds right now. */
export function explainSessionDecision(d: SessionDecision): ExplanationStep[] {
  const ui = useUi.getState();
  const sandbox = ui.kind === 'arbitration';
  const quanta = quantaOf(ui.snapshot);
  const opts = quanta ? { quanta } : {};
  if (sandbox && d.detail === undefined && d.kind === 'pop') {
    const { texts, original } = useEdits.getState();
    const record = sandboxRecord(texts.scenario, policyOverride(texts, original), d.seq);
    if (record) return explainDecision(record, opts);
  }
  return explainDecision(asDecisionLike(d, sandbox), opts);
}

/** `window.fairground.explain()`: the account of the newest decision as numbered lines. */
export async function explainLast(): Promise<string> {
  const { decisions } = useUi.getState();
  const last = decisions[decisions.length - 1];
  if (!last) return 'No decision has been taken yet: press Step or Play first.';
  return stepsToText(explainSessionDecision(last));
}
