/**
 * Small typed projections of the snapshot (core/snapshot.ts) into what the views draw: a client's
 * row with its palette index, per-client series aligned with the client order, the DRR state of
 * either kind of session. Every field comes from a typed field of the snapshot; nothing is guessed.
 */
import type { QueuedRequestView } from '../../core/drr/queued-view';
import type { DrrPopRecord, DrrSnapshot, DynamoRelease } from '../../core/drr/types';
import { jainMeaningful } from '../../core/metrics/jain';
import type { SessionSnapshot, SimSnapshot } from '../../worker/session';

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
