/**
 * The snapshot as the run export (`fairground-run`, version 1) has always written it. The engine's
 * snapshot fields are snake_case now; the export keeps the names (and key order) its version 1
 * files were written with, so a file exported today reads like one exported before: the renamed
 * fields are mapped back here, explicitly, one record type at a time.
 */
import type { DrrPopRecord } from '../drr/types';
import type { DrrStateSnapshot, QueuedRequestView } from '../drr/queued-view';
import type { ArbitrationSnapshot } from '../drr/script-runner';
import type { GuaranteePair, GuaranteeSnapshot } from '../metrics/guarantee';
import type { RadixSummary } from '../replica/radix-cache';
import type { SimSnapshot, WorkerSnapshot } from '../sim/snapshot';
import { visitV1 } from './trace-v1';

/** What a replay hands to the export: a cluster run's snapshot (without its decision list) or a sandbox's. */
export type ExportedRunSnapshot =
  | { kind: 'cluster'; snapshot: Omit<SimSnapshot, 'recent'> }
  | { kind: 'arbitration'; snapshot: ArbitrationSnapshot };

function queuedV1(r: QueuedRequestView) {
  return {
    id: r.id,
    cost: r.cost,
    rawIsl: r.raw_isl,
    cached: r.cached,
    priority: r.priority,
    strictPriority: r.strict_priority,
    arrivalS: r.arrival_s,
    seq: r.seq,
    score: r.score,
    worker: r.worker,
    dueS: r.due_s,
    client: r.client,
  };
}

function popRecordV1(r: DrrPopRecord) {
  return {
    variant: r.variant,
    profile: r.profile,
    visits: r.visits.map(visitV1),
    bulkRounds: r.bulk_rounds,
    deficits: r.deficits,
    cursorBefore: r.cursor_before,
    cursorAfter: r.cursor_after,
    carryBefore: r.carry_before,
    carryAfter: r.carry_after,
    chosen: r.chosen,
    headsTouched: r.heads_touched,
    summary: r.summary,
    ...(r.expired !== undefined ? { expired: r.expired } : {}),
  };
}

function classesV1(classes: DrrStateSnapshot['classes']) {
  return classes.map((c) => ({
    name: c.name,
    quantum: c.quantum,
    deficit: c.deficit,
    queued: c.queued,
    headCost: c.head_cost,
    ...(c.deficit_exact !== undefined ? { deficitExact: c.deficit_exact } : {}),
    ...(c.blocked !== undefined ? { blocked: c.blocked } : {}),
  }));
}

function queuesV1(queues: DrrStateSnapshot['queues']) {
  return queues.map((q) => ({ class: q.class, requests: q.requests.map(queuedV1) }));
}

function drrV1(d: DrrStateSnapshot) {
  return {
    cursor: d.cursor,
    carry: d.carry,
    classes: classesV1(d.classes),
    variant: d.variant,
    profile: d.profile,
    queues: queuesV1(d.queues),
    last_pop: d.last_pop === null ? null : { t: d.last_pop.t, record: popRecordV1(d.last_pop.record) },
  };
}

function radixV1(r: RadixSummary) {
  return {
    nodes: r.nodes,
    cachedTokens: r.cached_tokens,
    lockedNodes: r.locked_nodes,
    evictableLeaves: r.evictable_leaves,
    top: r.top,
  };
}

function workerV1(w: WorkerSnapshot) {
  return {
    id: w.id,
    busy: w.busy,
    running: w.running,
    waiting: w.waiting,
    running_clients: w.running_clients,
    waiting_clients: w.waiting_clients,
    waitingCount: w.waiting_count,
    kvUsedBlocks: w.kv_used_blocks,
    kvTotalBlocks: w.kv_total_blocks,
    kvCachedBlocks: w.kv_cached_blocks,
    cacheHitRate: w.cache_hit_rate,
    lastStepMs: w.last_step_ms,
    steps: w.steps,
    activePrefillTokens: w.active_prefill_tokens,
    radix: radixV1(w.radix),
    policy: w.policy,
    ...(w.policy_state !== undefined ? { policyState: w.policy_state } : {}),
  };
}

function pairV1(p: GuaranteePair) {
  return {
    a: p.a,
    b: p.b,
    maxGap: p.max_gap,
    maxGapAt: p.max_gap_at,
    currentGap: p.current_gap,
    violatedAt: p.violated_at,
  };
}

function guaranteeV1(g: GuaranteeSnapshot) {
  return {
    algorithm: g.algorithm,
    theorem: g.theorem,
    bound: g.bound,
    boundLabel: g.bound_label,
    formula: g.formula,
    reason: g.reason,
    broken: g.broken,
    warning: g.warning,
    inputs: g.inputs,
    pairs: g.pairs.map(pairV1),
    pairCount: g.pair_count,
    worst: g.worst === null ? null : pairV1(g.worst),
    violations: g.violations,
    violationCount: g.violation_count,
    series: g.series,
  };
}

function arbitrationV1(s: ArbitrationSnapshot) {
  return {
    cursor: s.cursor,
    carry: s.carry,
    classes: classesV1(s.classes),
    variant: s.variant,
    profile: s.profile,
    queues: queuesV1(s.queues),
    log: s.log,
    nextOp: s.next_op,
    stepsDone: s.steps_done,
    totalSteps: s.total_steps,
    lastRecord: s.last_record === null ? null : popRecordV1(s.last_record),
    blockedNow: s.blocked_now,
  };
}

function clusterV1(s: Omit<SimSnapshot, 'recent'>) {
  // the spread keeps every key where it was; only the renamed records are replaced in place
  const out = { ...s, workers: s.workers.map(workerV1), guarantee: guaranteeV1(s.guarantee) };
  return s.drr === undefined ? out : { ...out, drr: drrV1(s.drr) };
}

/** The run's snapshot with the field names of the version 1 export. */
export function snapshotV1(run: ExportedRunSnapshot) {
  return run.kind === 'cluster' ? clusterV1(run.snapshot) : arbitrationV1(run.snapshot);
}
