/**
 * Small typed projections of the snapshot (core/snapshot.ts) into what the views draw: a client's
 * row with its palette index, per-client series aligned with the client order, the DRR state of
 * either kind of session. Every field comes from a typed field of the snapshot; nothing is guessed.
 */
import type { QueuedRequestView } from '../../core/drr/queued-view';
import type { DrrPopRecord, DrrSnapshot, DynamoRelease } from '../../core/drr/types';
import { fmtCount } from './format';
import { jainMeaningful } from '../../core/metrics/jain';
import { drrRecordOf } from '../../core/explain';
import type { SessionDecision, SessionSnapshot, SimSnapshot } from '../../worker/session';

/** The cluster run's snapshot, or null (no snapshot yet, or the DRR sandbox). */
export function clusterOf(snapshot: SessionSnapshot | null): SimSnapshot | null {
  return snapshot?.kind === 'cluster' ? snapshot : null;
}

/** The simulated time of the snapshot (the sandbox's step count). */
export function simTime(snapshot: SessionSnapshot | null): number | null {
  return snapshot ? snapshot.sim_time_s : null;
}

// ---- DRR ring --------------------------------------------------------------------------------------

export type DrrClassModel = DrrSnapshot['classes'][number];

export interface DrrModel {
  cursor: string | null;
  carry: string | null;
  variant: DrrSnapshot['variant'];
  profile: string;
  /** The Dynamo release line whose class queue the run models. */
  release: DynamoRelease;
  classes: DrrClassModel[];
  /** Per class name, its waiting requests in leaving order. */
  queues: Map<string, QueuedRequestView[]>;
  record: DrrPopRecord | null;
  /** Simulated time of that record (cluster runs); null in the sandbox, whose clock is its steps. */
  recordT: number | null;
  /** The log number (#n) of that record's decision, when the log has handed it out; else null. */
  recordNo: number | null;
  /**
   * Cluster runs whose playhead stands inside one event: the decision count the snapshot's state is
   * after (`state_decisions`), ahead of the playhead (`decisions`); null when they are the same.
   */
  stateAfter: number | null;
  /**
   * Set when deficits, cursor, carry and the record are the playhead's own pop's (its decision record
   * carries the state right after it), not the snapshot's: that pop's log number (#n).
   */
  popNo: number | null;
  /**
   * What changed deficits and carry after the record: a pop that dispatched
   * nothing (a drain ends with one; the log lists only pops that dispatch) or a shed of expired
   * requests (a class that empties loses its credit). Read off the modelled state, the difference
   * between the record's state after and the snapshot's; the text names both causes, as the
   * snapshot does not say which it was. Null when none.
   */
  closing: string | null;
}

export function readDrr(snapshot: SessionSnapshot | null): DrrModel | null {
  const drr = snapshot?.drr;
  if (!snapshot || !drr) return null;
  const last = drr.last_pop;
  return {
    cursor: drr.cursor,
    carry: drr.carry,
    variant: drr.variant,
    profile: drr.profile,
    release: drr.release,
    classes: drr.classes,
    queues: new Map(drr.queues.map((q) => [q.class, q.requests])),
    record: last?.record ?? null,
    recordT: last && snapshot.kind === 'cluster' ? last.t : null,
    recordNo: null,
    stateAfter: snapshot.kind === 'cluster' ? (snapshot.state_decisions ?? null) : null,
    popNo: null,
    closing:
      last && last.record.profile === drr.profile ? closingText(last.record, drr.carry, drr.classes) : null,
  };
}

/** Differences between a record's state after and the ring's state now (empty pops or sheds made them). */
function closingText(
  rec: DrrPopRecord,
  carry: string | null,
  classes: readonly { name: string; deficit: number }[],
): string | null {
  const parts: string[] = [];
  if (rec.carry_after !== null && carry === null) parts.push(`carry ${rec.carry_after} cleared`);
  for (const c of classes) {
    const d = rec.deficits.find((x) => x.class === c.name);
    if (d && d.after !== c.deficit)
      parts.push(`${c.name}'s deficit ${fmtCount(d.after)} → ${fmtCount(c.deficit)}`);
  }
  if (parts.length === 0) return null;
  return `After that pop: ${parts.join(', ')}. A pop that finds nothing to dispatch does this (a drain ends with one; it is not a log line), and so does shedding a class's expired requests (logged as refusals).`;
}

/**
 * The log number (#n) of the snapshot's last pop among the log's decisions (the one at its time that
 * dispatched its request), or null when the log does not show it.
 */
export function popNumber(
  snapshot: SessionSnapshot | null,
  logged: readonly SessionDecision[],
): number | null {
  const last = snapshot?.kind === 'cluster' ? snapshot.drr?.last_pop : undefined;
  if (!last) return null;
  const chosen = last.record.chosen?.id;
  for (let i = logged.length - 1; i >= 0; i--) {
    const d = logged[i];
    if (d.t < last.t) break;
    if (d.kind === 'drr-pop' && d.t === last.t && d.request === chosen) return d.seq + 1;
  }
  return null;
}

/** A drr-pop log line's summary without its "t=… s  DRR pop…: " lead (the record's own summary). */
function popSummary(summary: string): string {
  return summary.replace(/^t=\S+ s\s+DRR pop[^:]*:\s*/, '');
}

/**
 * The DRR state at the playhead of a cluster run. The snapshot's state is after the whole event the
 * playhead stands in (`state_decisions`); when the decision at the playhead (`atPlayhead`, #n = the
 * snapshot's `decisions`) is a DRR pop, its record carries every class's deficit, the cursor and the
 * carry right after it: those replace the snapshot's, and the record becomes the one described.
 * Queue lengths and heads stay the snapshot's (no record carries them): `stateAfter` says whose.
 * `recordNo`: the snapshot's last pop's log number when the log shows it (`popNumber`).
 */
export function readDrrAt(
  snapshot: SessionSnapshot | null,
  atPlayhead: SessionDecision | null,
  recordNo: number | null = null,
): DrrModel | null {
  const m = readDrr(snapshot);
  if (!m || snapshot?.kind !== 'cluster') return m;
  m.recordNo = recordNo;
  if (m.stateAfter === null || !atPlayhead || atPlayhead.seq + 1 !== snapshot.decisions) return m;
  const pop = drrRecordOf(atPlayhead);
  if (!pop) return m;
  const after = new Map(pop.deficits.map((d) => [d.class, d.after]));
  // a pop of another profile's ring (one ring per model) says nothing about this one
  if (m.classes.some((c) => !after.has(c.name))) return m;
  // the snapshot's last pop is this one: what the empty pops after it changed is in the snapshot
  const same = m.record !== null && m.recordT === atPlayhead.t && m.record.chosen?.id === atPlayhead.request;
  return {
    ...m,
    cursor: pop.cursor_after,
    carry: pop.carry_after,
    classes: m.classes.map((c) => ({ ...c, deficit: after.get(c.name) ?? c.deficit })),
    record: { ...pop, variant: m.variant, profile: m.profile, summary: popSummary(pop.summary) },
    recordT: atPlayhead.t,
    recordNo: atPlayhead.seq + 1,
    popNo: atPlayhead.seq + 1,
    closing: same ? m.closing : null,
  };
}

// ---- clients -----------------------------------------------------------------------------------------

export interface ClientModel {
  name: string;
  /** Position in the snapshot's client order: the palette index. */
  index: number;
  service: number;
  servicePerS: number;
  completed: number;
  queued: number;
  running: number;
  ttftP50: number | null;
  ttftP99: number | null;
  e2eP50: number | null;
  e2eP99: number | null;
  /** DLPM deficit summed over workers (local policies that keep one). */
  deficit: number | null;
  /** DoubleQ's per-worker deficits (the router keeps one per client and worker). */
  deficitPerWorker: number[] | null;
  /** VTC virtual counter. */
  counter: number | null;
  /** VTC fair weight (scheduler.client_weights), when some client's is not 1. */
  weight: number | null;
}

/** Clients in snapshot order (the order the scenario declares them), each with its colour index. */
export function readClients(snapshot: SessionSnapshot | null): ClientModel[] {
  if (!snapshot) return [];
  return Object.entries(snapshot.clients).map(([name, c], index) => ({
    name,
    index,
    service: c.service,
    servicePerS: c.service_per_s,
    completed: c.completed,
    queued: c.queued,
    running: c.running,
    ttftP50: c.ttft_p50_s,
    ttftP99: c.ttft_p99_s,
    e2eP50: c.e2e_p50_s,
    e2eP99: c.e2e_p99_s,
    deficit: c.deficit ?? null,
    deficitPerWorker: c.deficit_per_worker ?? null,
    counter: c.counter ?? null,
    weight: c.weight ?? null,
  }));
}

// ---- time series -------------------------------------------------------------------------------------

export interface SeriesModel {
  t: number[];
  /** Cumulative service per client, aligned with `readClients` order. */
  service: number[][];
  /** Queued requests per client over time. */
  queued: number[][];
  /**
   * Jain's index of client service since all clients were active (core/metrics), NaN at the samples
   * where it is not meaningful (core/metrics/jain.ts jainMeaningful: fewer than two active clients,
   * or none served yet), which every view shows as JAIN_NA.
   */
  jain: number[] | null;
  /** Prefix-cache hit rate so far (cached / prompt tokens of all admissions). */
  cacheHit: number[] | null;
}

function meaningfulJain(
  jain: number[] | null,
  clients: number[] | null,
  served: number[] | null,
): number[] | null {
  if (!jain || !clients || !served) return jain;
  return jain.map((v, i) =>
    jainMeaningful({ clients: clients[i] ?? 0, served: served[i] ?? 0 }) ? v : Number.NaN,
  );
}

export function readSeries(
  snapshot: SessionSnapshot | null,
  clients: readonly ClientModel[],
): SeriesModel | null {
  const s = clusterOf(snapshot)?.series;
  if (!s || s.t.length === 0) return null;
  const n = s.t.length;
  // The engine's rows are keyed `service:<client>`, `queued:<client>`, `kv:<worker>`, `jain`, ...
  const row = (key: string): number[] | null => s.rows[key] ?? null;
  const aligned = (key: string) => row(key) ?? new Array<number>(n).fill(Number.NaN);
  return {
    t: s.t,
    service: clients.map((c) => aligned(`service:${c.name}`)),
    queued: clients.map((c) => aligned(`queued:${c.name}`)),
    jain: meaningfulJain(row('jain'), row('jain_clients'), row('jain_served')),
    cacheHit: row('cache_hit'),
  };
}

// ---- workers -----------------------------------------------------------------------------------------

export interface RadixNodeModel {
  id: number;
  parent: number | null;
  tokens: number;
  lock: number;
}

export interface WorkerModel {
  id: number;
  running: string[];
  /** The client of each listed request (running and waiting), by request id. */
  clientOf: ReadonlyMap<string, string>;
  runningCount: number;
  waiting: string[];
  waitingCount: number;
  kvUsed: number;
  kvTotal: number;
  hitRate: number;
  lastStepMs: number;
  radix: {
    nodeCount: number;
    cachedTokens: number;
    nodes: RadixNodeModel[];
  };
}

export function readWorkers(snapshot: SessionSnapshot | null): WorkerModel[] {
  const cluster = clusterOf(snapshot);
  if (!cluster) return [];
  const names = Object.keys(cluster.clients);
  const clientOf = (ids: readonly string[], clients: readonly number[]) =>
    ids.map((id, i): [string, string] => [id, names[clients[i]] ?? '?']);
  return cluster.workers.map((w) => ({
    id: w.id,
    running: w.running,
    clientOf: new Map([...clientOf(w.running, w.running_clients), ...clientOf(w.waiting, w.waiting_clients)]),
    runningCount: w.running.length,
    waiting: w.waiting,
    waitingCount: w.waiting_count,
    kvUsed: w.kv_used_blocks,
    kvTotal: w.kv_total_blocks,
    hitRate: w.cache_hit_rate,
    lastStepMs: w.last_step_ms,
    radix: {
      nodeCount: w.radix.nodes,
      cachedTokens: w.radix.cached_tokens,
      // [id, parentId, tokens, lock]; the root's parent is itself or negative
      nodes: w.radix.top.map(([id, parent, tokens, lock]) => ({
        id,
        parent: parent < 0 || parent === id ? null : parent,
        tokens,
        lock,
      })),
    },
  }));
}
