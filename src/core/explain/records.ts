/**
 * What the explainers read: a decision as the simulator records it (src/core/sim/decision.ts), whose
 * `detail` is typed per kind and, for admissions and dispatches, carries the algorithm's own typed
 * detail tagged by `algo` (owned by its folder under src/core/algorithms). An algorithm's detail may
 * also be given alone (without the replica's or router's facts): that is all its explainer reads.
 *
 * Worker indexes are 0-based; client and request values are their names/ids as in the scenario.
 */
import type { AlgorithmDetail } from '../algorithms/details';
import type { DrrPopRecord } from '../drr/types';
import type { DecisionDetail, DrrPopDetail } from '../sim/decision';
import type { SessionDecisionKind } from '../snapshot';

/** A decision to explain: a simulator record, or the same with fewer facts (`seq` and `t` optional). */
export interface ExplainableDecision {
  kind: SessionDecisionKind;
  summary: string;
  t?: number;
  request?: string;
  client?: string;
  worker?: number;
  class?: string;
  detail?: DecisionDetail | AlgorithmDetail;
}

/** The algorithm's detail inside a decision's detail, when it carries one. */
export function algorithmDetail(d: DecisionDetail | AlgorithmDetail | undefined): AlgorithmDetail | null {
  return d !== undefined && 'algo' in d && d.algo !== undefined ? d : null;
}

/**
 * The DRR record of a simulator `drr-pop` decision, rebuilt from its flattened detail (`visits`,
 * `deficits`, `cursor`, `carry`, `bulk_rounds`, `cost`) plus the record's own `request` and `class`;
 * null for any other decision.
 */
export function drrRecordOf(record: ExplainableDecision): DrrPopRecord | null {
  const d = record.detail;
  if (record.kind !== 'drr-pop' || d === undefined || !('visits' in d)) return null;
  return rebuildDrrRecord(record, d);
}

function rebuildDrrRecord(record: ExplainableDecision, d: DrrPopDetail): DrrPopRecord {
  const visits = d.visits;
  const carryVisit = visits.find((v) => v.phase === 'carry');
  const firstScan = visits.find((v) => v.phase === 'scan' || v.phase === 'final');
  const chosen =
    record.request !== undefined && record.class !== undefined
      ? { id: record.request, class: record.class, cost: d.cost }
      : null;
  return {
    variant: 'v2',
    profile: '(root)',
    visits,
    bulk_rounds: d.bulk_rounds,
    deficits: d.deficits,
    // The ring scan starts at the cursor, so its first visit names the cursor the pop started from.
    cursor_before: firstScan?.class ?? null,
    cursor_after: d.cursor,
    carry_before: carryVisit?.class ?? null,
    carry_after: d.carry,
    chosen,
    heads_touched: visits.length,
    summary: record.summary,
  };
}
