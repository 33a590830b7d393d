/**
 * The `detail` shapes the explainers read from the simulator's decision records, one per algorithm
 * (the DRR pop carries the router's own DecisionRecord from src/core/drr). Algorithms fill these in
 * when they decide; everything is plain JSON-friendly data. An optional `algo` tag makes the
 * dispatch explicit; without it the shape is recognised by its fields.
 *
 * Worker indexes are 0-based; client and request values are their names/ids as in the scenario.
 */
import type { DrrPopRecord as DrrDecisionRecord } from '../drr/types';

/** One waiting request as DLPM's scan met it, in scan (prefix-match) order. */
export interface DlpmOrderEntry {
  request: string;
  client: string;
  /** Prompt tokens already in this worker's radix cache. */
  prefixMatch: number;
  /** The client's deficit q_i when the scan reached this request. */
  deficit: number;
  /**
   * What happened to it: admitted; skipped because its client's deficit was ≤ 0; no room left in
   * this step (token budget, running limit or KV memory); or the scan stopped before it.
   */
  outcome?: 'admitted' | 'no-deficit' | 'no-room' | 'not-reached';
  /** Deficit charged at admission (w_e · uncached tokens), when admitted. */
  charge?: number;
}

/** DLPM (seed 002, Algorithm 1) admitting waiting requests on one worker. */
export interface DlpmAdmitDetail {
  algo?: 'dlpm';
  worker?: number;
  /** Q^u, the per-client quantum. */
  quantum?: number;
  /** The waiting queue in prefix-match order, longest match first (ties keep queue order). */
  order: DlpmOrderEntry[];
  /** Clients the scan passed over because their deficit was ≤ 0 (deficit at that moment). */
  skipped: { client: string; deficit: number }[];
  /** CHECKREFILL fired: no backlogged client had a positive deficit, so these clients got `quantum`. */
  refill?: { quantum: number; clients: string[] };
  /** Request ids admitted, in admission order. */
  admitted: string[];
}

/** DoubleQ (seed 002, Algorithm 2) choosing a worker for one arriving request. */
export interface DoubleQDispatchDetail {
  algo?: 'doubleq';
  request?: string;
  client?: string;
  /** Prompt tokens matched in the global radix tree (the longest match). */
  matchedTokens?: number;
  /** Workers holding the longest prefix match. */
  G: number[];
  /** Workers where the client's deficit q_{i,w} is positive (after any refills). */
  Gavail: number[];
  /** How many times Q^w was added to all of the client's worker deficits because G_avail was empty. */
  refills: number;
  /** Q^w, the worker quantum. */
  workerQuantum?: number;
  /** The chosen worker. */
  chosen: number;
  /** Queue length of every worker (index = worker). */
  queueLens: number[];
  /** The client's deficit per worker after refills, before this request is charged. */
  deficits: Record<number, number>;
}

/** VTC (OSDI'24) picking the next client to admit from on one worker. */
export interface VtcAdmitDetail {
  algo?: 'vtc';
  worker?: number;
  /** Virtual token counter of every client with waiting requests (after any lift). */
  counters: Record<string, number>;
  /** The client with the smallest counter (ties: first seen), or null when nobody waits. */
  chosenClient: string | null;
  /** The chosen client's head request. */
  head?: string;
  /** Whether that head fits in this step; when it does not, admission stops (head-of-line). */
  headFits: boolean;
  /** Counters lifted because a client's queue went from empty to non-empty. */
  lifts?: { client: string; from: number; to: number }[];
  /** Counter increase charged at admission (w_e · input tokens), when admitted. */
  charge?: number;
}

/** Preble (E2) placing one request. */
export interface PreblePlacementDetail {
  algo?: 'preble';
  request?: string;
  /** exploit: more than half of the prompt matched, so only workers holding the prefix compete. */
  mode: 'exploit' | 'explore';
  /** Matched prefix / prompt length, in [0, 1]. */
  matchedFraction: number;
  matchedTokens?: number;
  promptTokens?: number;
  /** Workers holding the matched prefix (the exploit candidates). */
  holders?: number[];
  /** Load of every worker (index = worker) as Preble estimates it. */
  loads: number[];
  chosen: number;
  /** The choice moved work off the heaviest worker (load imbalance rebalancing). */
  rebalanced?: boolean;
}

/** What `explainDecision` accepts: the simulator's DecisionRecord (src/core/sim/decision.ts) or alike. */
export interface DecisionLike {
  kind: string;
  summary: string;
  detail?: unknown;
  t?: number;
  request?: string;
  client?: string;
  worker?: number;
  class?: string;
}

// ---- recognising the shapes ----------------------------------------------------------------------------

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function tagged(x: Record<string, unknown>, algo: string): boolean | null {
  return typeof x.algo === 'string' ? x.algo === algo : null;
}

export function isDrrDecisionRecord(x: unknown): x is DrrDecisionRecord {
  return (
    isObject(x) &&
    Array.isArray(x.visits) &&
    (x.variant === 'v1' || x.variant === 'v2') &&
    Array.isArray(x.deficits) &&
    'chosen' in x
  );
}

export function isDlpmAdmitDetail(x: unknown): x is DlpmAdmitDetail {
  if (!isObject(x)) return false;
  return (
    tagged(x, 'dlpm') ?? (Array.isArray(x.order) && Array.isArray(x.skipped) && Array.isArray(x.admitted))
  );
}

export function isDoubleQDispatchDetail(x: unknown): x is DoubleQDispatchDetail {
  if (!isObject(x)) return false;
  return (
    tagged(x, 'doubleq') ??
    (Array.isArray(x.G) &&
      Array.isArray(x.Gavail) &&
      typeof x.chosen === 'number' &&
      Array.isArray(x.queueLens))
  );
}

export function isVtcAdmitDetail(x: unknown): x is VtcAdmitDetail {
  if (!isObject(x)) return false;
  return tagged(x, 'vtc') ?? (isObject(x.counters) && typeof x.headFits === 'boolean' && 'chosenClient' in x);
}

export function isPreblePlacementDetail(x: unknown): x is PreblePlacementDetail {
  if (!isObject(x)) return false;
  return (
    tagged(x, 'preble') ??
    ((x.mode === 'exploit' || x.mode === 'explore') &&
      typeof x.matchedFraction === 'number' &&
      Array.isArray(x.loads) &&
      typeof x.chosen === 'number')
  );
}

/**
 * The DRR record inside a decision: the detail itself, under `detail.record` / `detail.drr`, or
 * rebuilt from the simulator's `drr-pop` detail (`visits`, `deficits`, `cursor`, `carry`,
 * `bulk_rounds`, `cost`, and optionally `variant`, `profile`, `cursor_before`, `carry_before`) plus
 * the record's own `request` and `class`.
 */
export function drrRecordOf(record: DecisionLike): DrrDecisionRecord | null {
  const d = record.detail;
  if (isDrrDecisionRecord(d)) return d;
  if (!isObject(d)) return null;
  if (isDrrDecisionRecord(d.record)) return d.record;
  if (isDrrDecisionRecord(d.drr)) return d.drr;
  if (!Array.isArray(d.visits) || !Array.isArray(d.deficits)) return null;
  return rebuildDrrRecord(record, d);
}

function str(x: unknown): string | null {
  return typeof x === 'string' ? x : null;
}

/** A DecisionRecord from the simulator's flattened drr-pop detail (see drrRecordOf). */
function rebuildDrrRecord(record: DecisionLike, d: Record<string, unknown>): DrrDecisionRecord {
  const visits = d.visits as DrrDecisionRecord['visits'];
  const carryVisit = visits.find((v) => v.phase === 'carry');
  const firstScan = visits.find((v) => v.phase === 'scan' || v.phase === 'final');
  const cost = typeof d.cost === 'number' ? d.cost : null;
  const chosen =
    record.request !== undefined && record.class !== undefined && cost !== null
      ? { id: record.request, class: record.class, cost }
      : null;
  return {
    variant: d.variant === 'v1' ? 'v1' : 'v2',
    profile: str(d.profile) ?? '(root)',
    visits,
    bulkRounds: typeof d.bulk_rounds === 'number' ? d.bulk_rounds : null,
    deficits: d.deficits as DrrDecisionRecord['deficits'],
    // The ring scan starts at the cursor, so its first visit names the cursor the pop started from.
    cursorBefore: str(d.cursor_before) ?? firstScan?.class ?? null,
    cursorAfter: str(d.cursor),
    carryBefore: str(d.carry_before) ?? carryVisit?.class ?? null,
    carryAfter: str(d.carry),
    chosen,
    headsTouched: typeof d.heads_touched === 'number' ? d.heads_touched : visits.length,
    summary: record.summary,
  };
}
