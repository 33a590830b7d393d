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
 * of a trace without blocks, are the request's own.
 */
import type { Workload, WorkloadEvent, RequestSpec } from '../workload/types';
import { markImmutable } from '../clone';
import { streamKey, writeStream } from '../workload/tokens';
import type { TraceInput } from '../input';
import type { TraceReplayOptions, TraceTable } from './types';

/**
 * Token id at position `pos` of prefix block `hash`: an odd multiple of (hash · blockTokens + pos + 1)
 * modulo 2^31, a bijection, so two different (block, position) pairs never share an id (for
 * hash · blockTokens < 2^31) and equal blocks give equal tokens. One multiply per token: a trace's
 * prompts hold ~10^8 tokens.
 */
function fillBlock(out: Int32Array, at: number, hash: number, blockTokens: number, count: number): void {
  const base = hash * blockTokens + 1;
  for (let p = 0; p < count; p++) out[at + p] = Math.imul((base + p) | 0, 0x2545f491) & 0x7fffffff;
}

/** Trace request ids contain '@' (generated and scripted ids never do). */
export function isTraceRequestId(id: string): boolean {
  return id.includes('@');
}

/** The prompt of trace row `i`: its prefix blocks, then tokens of its own. */
export function traceTokens(table: TraceTable, i: number, ownLabel: string): Int32Array {
  const n = table.input[i];
  const out = new Int32Array(n);
  let at = 0;
  const bs = table.blockStart;
  const blocks = table.blocks;
  if (bs !== null && blocks !== null) {
    const per = table.blockTokens;
    for (let j = bs[i]; j < bs[i + 1] && at < n; j++) {
      const count = Math.min(per, n - at);
      fillBlock(out, at, blocks[j], per, count);
      at += count;
    }
  }
  if (at < n) writeStream(out, at, streamKey(ownLabel), 0, n - at);
  return markImmutable(out);
}

interface TraceClient {
  name: string;
  /** Replayed rows of this client in arrival order, and their simulated arrival times. */
  rows: Int32Array;
  times: Float64Array;
  next: number;
}

/** A scenario's `trace:` section as replay options (absent keys become null). */
export function replayOptionsOf(tr: Omit<TraceInput, 'data' | 'file'>): TraceReplayOptions {
  return {
    timeScale: tr.time_scale,
    startS: tr.start_s,
    stopS: tr.stop_s ?? null,
    maxRequests: tr.max_requests ?? null,
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
  for (let i = 0; i < table.count; i++) {
    const t = table.arrivalS[i];
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

/** Simulated seconds from the first to the last replayed arrival (before duration_s cuts). */
export function traceSpanS(table: TraceTable, opts: TraceReplayOptions): number {
  const { times } = selectRows(table, opts, Number.POSITIVE_INFINITY);
  return times.length === 0 ? 0 : times[times.length - 1];
}

/**
 * The scenario's synthetic workload (`inner`) plus the trace's clients. Trace clients come after the
 * synthetic ones in the client list, in order of their first replayed request.
 */
export class TraceWorkload implements Workload {
  readonly clients: readonly string[];
  private readonly byName = new Map<string, TraceClient>();

  constructor(
    private readonly inner: Workload,
    private readonly table: TraceTable,
    private readonly opts: TraceReplayOptions,
    durationS: number,
  ) {
    const { rows, times } = selectRows(table, opts, durationS);
    const lists = new Map<string, number[]>();
    for (let k = 0; k < rows.length; k++) {
      const name = this.clientOf(rows[k]);
      let l = lists.get(name);
      if (l === undefined) {
        l = [];
        lists.set(name, l);
      }
      l.push(k);
    }
    const names = [...inner.clients];
    for (const [name, ks] of lists) {
      if (names.includes(name))
        throw new Error(
          `trace client '${name}' is also a client of the scenario; rename one (trace.client or the trace's client column)`,
        );
      names.push(name);
      this.byName.set(name, {
        name,
        rows: Int32Array.from(ks, (k) => rows[k]),
        times: Float64Array.from(ks, (k) => times[k]),
        next: 0,
      });
    }
    this.clients = names;
  }

  private clientOf(row: number): string {
    const c = this.table.client;
    const idx = c === null ? -1 : c[row];
    return idx < 0 ? this.opts.client : this.table.names[idx];
  }

  /** Requests the trace will replay in this run. */
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
    const table = this.table;
    const id = `${c.name}@L${table.line[row]}`;
    const spec: RequestSpec = {
      id,
      client: c.name,
      tokens: traceTokens(table, row, `${table.source}/${id}`),
      outputTokens: table.output[row],
      sloClass: this.opts.sloClass,
      program: id,
      node: `trace line ${table.line[row]}`,
    };
    const cls = table.policyClass === null ? -1 : table.policyClass[row];
    const policyClass = cls >= 0 ? table.names[cls] : this.opts.policyClass;
    if (policyClass !== null) spec.policyClass = policyClass;
    const m = table.model === null ? -1 : table.model[row];
    const model = m >= 0 ? table.names[m] : this.opts.model;
    if (model !== null) spec.model = model;
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
