/**
 * The snapshot as the run export (`fairground-run`, version 1) has always written it. The engine's
 * snapshot fields are snake_case now; the export keeps the names (and key order) its version 1
 * files were written with, so a file exported today reads like one exported before: the renamed
 * fields are mapped back here, one record type at a time, in place (key order and bytes unchanged).
 */
import type { DrrPopRecord } from '../drr/types';
import type { DrrStateSnapshot, QueuedRequestView } from '../drr/queued-view';
import type { ArbitrationSnapshot } from '../drr/script-runner';
import type { GuaranteePair, GuaranteeSnapshot } from '../metrics/guarantee';
import { formulaText, groupNumber } from '../metrics/theorem-bound';
import type { SimSnapshot, WorkerSnapshot } from '../sim/snapshot';
import { renamed } from './rename';
import { visitV1 } from './trace-v1';

/** What a replay hands to the export: a cluster run's snapshot (without its decision list) or a sandbox's. */
export type ExportedRunSnapshot =
  | { kind: 'cluster'; snapshot: Omit<SimSnapshot, 'recent'> }
  | { kind: 'arbitration'; snapshot: ArbitrationSnapshot };

const queuedV1 = (r: QueuedRequestView) =>
  renamed(r, { raw_isl: 'rawIsl', strict_priority: 'strictPriority', arrival_s: 'arrivalS', due_s: 'dueS' });

const popRecordV1 = (r: DrrPopRecord) =>
  renamed(
    { ...r, visits: r.visits.map(visitV1) },
    {
      bulk_rounds: 'bulkRounds',
      cursor_before: 'cursorBefore',
      cursor_after: 'cursorAfter',
      carry_before: 'carryBefore',
      carry_after: 'carryAfter',
      heads_touched: 'headsTouched',
    },
  );

/** The classes and queues both kinds of session carry. */
const queueStateV1 = <S extends Pick<DrrStateSnapshot, 'classes' | 'queues'>>(s: S) => ({
  ...s,
  classes: s.classes.map((c) => renamed(c, { head_cost: 'headCost', deficit_exact: 'deficitExact' })),
  queues: s.queues.map((q) => ({ ...q, requests: q.requests.map(queuedV1) })),
});

// (the release is the run's config.dynamo_release in the export, not repeated per snapshot)
const drrV1 = ({ release: _release, ...d }: DrrStateSnapshot) => ({
  ...queueStateV1(d),
  last_pop: d.last_pop === null ? null : { ...d.last_pop, record: popRecordV1(d.last_pop.record) },
});

const workerV1 = (w: WorkerSnapshot) =>
  renamed(
    {
      ...w,
      radix: renamed(w.radix, {
        cached_tokens: 'cachedTokens',
        locked_nodes: 'lockedNodes',
        evictable_leaves: 'evictableLeaves',
      }),
    },
    {
      waiting_count: 'waitingCount',
      kv_used_blocks: 'kvUsedBlocks',
      kv_total_blocks: 'kvTotalBlocks',
      kv_cached_blocks: 'kvCachedBlocks',
      cache_hit_rate: 'cacheHitRate',
      last_step_ms: 'lastStepMs',
      active_prefill_tokens: 'activePrefillTokens',
      policy_state: 'policyState',
    },
  );

const pairV1 = (p: GuaranteePair) =>
  renamed(p, {
    max_gap: 'maxGap',
    max_gap_at: 'maxGapAt',
    current_gap: 'currentGap',
    violated_at: 'violatedAt',
  });

// the formula as the text version 1 files hold, in the run JSON's plain style (thousands with commas)
const guaranteeV1 = (g: GuaranteeSnapshot) =>
  renamed(
    {
      ...g,
      formula: formulaText(g.formula, groupNumber),
      pairs: g.pairs.map(pairV1),
      worst: g.worst === null ? null : pairV1(g.worst),
    },
    { bound_label: 'boundLabel', pair_count: 'pairCount', violation_count: 'violationCount' },
  );

const arbitrationV1 = (s: ArbitrationSnapshot) =>
  renamed(
    { ...queueStateV1(s), last_record: s.last_record === null ? null : popRecordV1(s.last_record) },
    {
      next_op: 'nextOp',
      steps_done: 'stepsDone',
      total_steps: 'totalSteps',
      last_record: 'lastRecord',
      blocked_now: 'blockedNow',
    },
  );

// (latest_algorithm is the page's panel's lookup, not part of the v1 export)
function clusterV1({ latest_algorithm: _latest, ...s }: Omit<SimSnapshot, 'recent'>) {
  // the spread keeps every key where it was; only the renamed records are replaced in place
  const out = { ...s, workers: s.workers.map(workerV1), guarantee: guaranteeV1(s.guarantee) };
  return s.drr === undefined ? out : { ...out, drr: drrV1(s.drr) };
}

/** The run's snapshot with the field names of the version 1 export. */
export function snapshotV1(run: ExportedRunSnapshot) {
  return run.kind === 'cluster' ? clusterV1(run.snapshot) : arbitrationV1(run.snapshot);
}
