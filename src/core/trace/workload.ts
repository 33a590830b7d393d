/**
 * Replays a request trace as (part of) a scenario's workload. Each trace row becomes one request at
 * its (scaled, windowed) arrival time, from the row's client (or the scenario's `trace.client`).
 * Rows are handed to the engine lazily, one arrival event per row per client, so a long trace never
 * has all its prompts in memory at once.
 *
 * Prefix sharing: a Mooncake row's `hash_ids` name its prompt's 512-token blocks; the tokens of a
 * block depend only on its hash id, so two requests whose lists start alike share exactly those
 * leading tokens, and the radix caches and the router's `cached_tokens` see the reuse. The last block
 * may be partial (it is the first tokens of its block); tokens past the listed blocks, and every token
 * of a trace without blocks, are the request's own. A request's prompt is described, not held
 * (./prompt.ts): its ids are never materialised unless a policy reads them.
 */
import type { Workload, WorkloadEvent, RequestSpec } from '../workload/types';
import type { TraceClientSpec, TraceInput } from '../input';
import { type BlockSpace, TraceRequestSpec } from './prompt';

export type { BlockSpace } from './prompt';
import type { TraceReplayOptions, TraceTable } from './types';

/** Trace request ids contain '@' (generated and scripted ids never do). */
export function isTraceRequestId(id: string): boolean {
  return id.includes('@');
}

/** A scenario's `trace:` section as replay options (absent keys become null). */
export function replayOptionsOf(tr: Omit<TraceInput, 'data' | 'file'>): TraceReplayOptions {
  return {
    timeScale: tr.time_scale,
    startS: tr.start_s,
    stopS: tr.stop_s ?? null,
    maxRequests: tr.max_requests ?? null,
    selectClient: null,
    client: tr.client,
    sloClass: tr.slo_class,
    policyClass: tr.policy_class ?? null,
    model: tr.model ?? null,
  };
}

/** Rows the window keeps, in arrival order (ties: file order), with their simulated times. */
export function selectRows(
  table: TraceTable,
  opts: TraceReplayOptions,
  durationS: number,
): { rows: Int32Array; times: Float64Array } {
  const keep: number[] = [];
  const stop = opts.stopS ?? Number.POSITIVE_INFINITY;
  const only = opts.selectClient === null ? -2 : table.names.indexOf(opts.selectClient);
  for (let i = 0; i < table.count; i++) {
    const t = table.arrivalS[i];
    if (only !== -2 && (table.client === null || table.client[i] !== only)) continue;
    if (t >= opts.startS && t < stop && (t - opts.startS) * opts.timeScale < durationS) keep.push(i);
  }
  keep.sort((a, b) => table.arrivalS[a] - table.arrivalS[b] || a - b);
  const n = opts.maxRequests === null ? keep.length : Math.min(keep.length, opts.maxRequests);
  const rows = new Int32Array(n);
  const times = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    rows[k] = keep[k];
    times[k] = (table.arrivalS[keep[k]] - opts.startS) * opts.timeScale;
  }
  return { rows, times };
}

/** The names in a trace's client column, in order of first appearance (none without the column). */
export function traceClientNames(table: TraceTable): string[] {
  if (table.client === null) return [];
  const seen = new Set<number>();
  for (let i = 0; i < table.count; i++) if (table.client[i] >= 0) seen.add(table.client[i]);
  return [...seen].map((k) => table.names[k]);
}

/**
 * Why a client's `select_client` picks nothing from `table` (no client column, or no row with that
 * name), naming at most five of the names the column holds; null when some row has it.
 */
export function selectClientProblem(table: TraceTable, file: string, only: string): string | null {
  if (table.client === null) return `'${file}' has no client column to pick rows by`;
  const names = traceClientNames(table);
  if (names.includes(only)) return null;
  const cut = (n: string) => `'${n.length > 40 ? `${n.slice(0, 40)}…` : n}'`;
  const has =
    names.length === 0
      ? 'the column is empty'
      : `it has ${names.slice(0, 5).map(cut).join(', ')}${names.length > 5 ? ` and ${names.length - 5} more` : ''}`;
  return `no row of '${file}' has client ${cut(only)} in its client column (${has})`;
}

/** Simulated seconds from the first to the last replayed arrival (before duration_s cuts). */
export function traceSpanS(table: TraceTable, opts: TraceReplayOptions): number {
  const { times } = selectRows(table, opts, Number.POSITIVE_INFINITY);
  return times.length === 0 ? 0 : times[times.length - 1];
}

/** Which rows of which table one trace client replays, and as whom. */
interface TraceClient {
  name: string;
  source: TraceSource;
  /** Replayed rows of this client in arrival order, and their simulated arrival times. */
  rows: Int32Array;
  times: Float64Array;
  next: number;
}

/**
 * One trace a run replays: the top-level `trace:` (rows go to the client column's client, else
 * `opts.client`) or a client's own `trace:` (`fixed`: every row is that client's, and carries its
 * router fields).
 */
export interface TraceSource {
  table: TraceTable;
  opts: TraceReplayOptions;
  /** A trace client's router fields (its every row is `opts.client`'s), or null for the top-level trace. */
  fixed: Pick<RequestSpec, 'priority' | 'strictPriority' | 'worker' | 'dueInS'> | null;
}

/** A client's own `trace:` as a trace source (its name, SLO class and router fields on every row). */
export function clientTraceSource(c: TraceClientSpec, table: TraceTable): TraceSource {
  const fixed: TraceSource['fixed'] = {};
  if (c.priority !== 0) fixed.priority = c.priority;
  if (c.strict_priority !== 0) fixed.strictPriority = c.strict_priority;
  if (c.worker !== undefined) fixed.worker = c.worker;
  if (c.due_in_s !== undefined) fixed.dueInS = c.due_in_s;
  return {
    table,
    opts: {
      timeScale: c.trace.time_scale,
      startS: c.trace.start_s,
      stopS: c.trace.stop_s ?? null,
      maxRequests: c.trace.max_requests ?? null,
      selectClient: c.trace.select_client ?? null,
      client: c.name,
      sloClass: c.slo_class,
      policyClass: c.policy_class ?? null,
      model: c.model ?? null,
    },
    fixed,
  };
}

/**
 * The scenario's synthetic workload (`inner`) plus its traces' clients. A client's own trace keeps
 * its place in the scenario's client list (`inner` lists it); the top-level trace's clients come
 * after every other client, in order of their first replayed request.
 *
 * Prefix blocks: hash ids name blocks within one file; two different files' ids are unrelated, so
 * when a run replays several tables, table k of n (in order of `sources`) uses block ids
 * `hash · n + k` (one table: the ids themselves), and only rows of the same table share blocks.
 */
export class TraceWorkload implements Workload {
  readonly clients: readonly string[];
  private readonly byName = new Map<string, TraceClient>();
  private readonly spaces = new Map<TraceTable, BlockSpace>();

  constructor(
    private readonly inner: Workload,
    sources: readonly TraceSource[],
    durationS: number,
  ) {
    for (const src of sources)
      if (!this.spaces.has(src.table)) this.spaces.set(src.table, { stride: 0, offset: this.spaces.size });
    for (const space of this.spaces.values()) space.stride = this.spaces.size;
    const names = [...inner.clients];
    for (const src of sources) {
      const { rows, times } = selectRows(src.table, src.opts, durationS);
      const lists = new Map<string, number[]>();
      for (let k = 0; k < rows.length; k++) {
        const name = src.fixed !== null ? src.opts.client : clientOf(src.table, src.opts, rows[k]);
        let l = lists.get(name);
        if (l === undefined) {
          l = [];
          lists.set(name, l);
        }
        l.push(k);
      }
      if (src.fixed !== null && !lists.has(src.opts.client)) lists.set(src.opts.client, []);
      for (const [name, ks] of lists) {
        if (this.byName.has(name) || (src.fixed === null && names.includes(name)))
          throw new Error(
            `trace client '${name}' is also a client of the scenario; rename one (trace.client or the trace's client column)`,
          );
        if (!names.includes(name)) names.push(name);
        this.byName.set(name, {
          name,
          source: src,
          rows: Int32Array.from(ks, (k) => rows[k]),
          times: Float64Array.from(ks, (k) => times[k]),
          next: 0,
        });
      }
    }
    this.clients = names;
  }

  /** Requests the traces will replay in this run. */
  get replayed(): number {
    let n = 0;
    for (const c of this.byName.values()) n += c.rows.length;
    return n;
  }

  initialEvents(): WorkloadEvent[] {
    const events = this.inner.initialEvents();
    for (const c of this.byName.values())
      if (c.rows.length > 0) events.push({ t: c.times[0], kind: 'arrival', client: c.name });
    return events;
  }

  private request(c: TraceClient, row: number): RequestSpec {
    const { table, opts, fixed } = c.source;
    const id = `${c.name}@L${table.line[row]}`;
    const spec = new TraceRequestSpec(
      id,
      c.name,
      table,
      row,
      `${table.source}/${id}`,
      table.output[row],
      opts.sloClass,
      id,
      `trace line ${table.line[row]}`,
      this.spaces.get(table),
    );
    const cls = table.policyClass === null ? -1 : table.policyClass[row];
    const policyClass = cls >= 0 ? table.names[cls] : opts.policyClass;
    if (policyClass !== null) spec.policyClass = policyClass;
    const m = table.model === null ? -1 : table.model[row];
    const model = m >= 0 ? table.names[m] : opts.model;
    if (model !== null) spec.model = model;
    if (fixed !== null) Object.assign(spec, fixed);
    return spec;
  }

  onArrival(client: string, t: number): { submit: RequestSpec[]; next: WorkloadEvent | null } {
    const c = this.byName.get(client);
    if (c === undefined) return this.inner.onArrival(client, t);
    if (c.next >= c.rows.length) return { submit: [], next: null };
    const k = c.next++;
    const submit = [this.request(c, c.rows[k])];
    const next: WorkloadEvent | null =
      c.next < c.rows.length ? { t: c.times[c.next], kind: 'arrival', client } : null;
    return { submit, next };
  }

  onComplete(requestId: string, t: number): WorkloadEvent[] {
    return isTraceRequestId(requestId) ? [] : this.inner.onComplete(requestId, t);
  }

  onReject(requestId: string, t: number): WorkloadEvent[] {
    return isTraceRequestId(requestId) ? [] : this.inner.onReject(requestId, t);
  }
}

/** The client of row `row` of the top-level trace: its client column's value, else `opts.client`. */
function clientOf(table: TraceTable, opts: TraceReplayOptions, row: number): string {
  const c = table.client;
  const idx = c === null ? -1 : c[row];
  return idx < 0 ? opts.client : table.names[idx];
}
