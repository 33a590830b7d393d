/**
 * Defensive readers: turn whatever snapshot arrives (cluster SimSnapshot, DRR sandbox snapshot, a
 * partial or older object) into the small, fully-typed models the views draw. Missing or malformed
 * fields become empty values, never exceptions.
 */
import type { ClassVisit, DrrPopRecord, VisitOutcome } from '../../core/drr/types';

export type Dict = Record<string, unknown>;

export function asObj(v: unknown): Dict | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Dict) : null;
}

export function asArr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A finite number or null (numeric strings are not accepted: snapshots carry real numbers). */
export function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
}

/** First field among `keys` that holds a finite number. */
export function pickNum(o: Dict | null, ...keys: string[]): number | null {
  if (!o) return null;
  for (const k of keys) {
    const v = num(o[k]);
    if (v !== null) return v;
  }
  return null;
}

function pickStr(o: Dict | null, ...keys: string[]): string | null {
  if (!o) return null;
  for (const k of keys) {
    const v = str(o[k]);
    if (v !== null) return v;
  }
  return null;
}

/** Numbers of an array, with non-numbers as NaN (keeps positions aligned with a time axis). */
export function numArray(v: unknown): number[] {
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<number>);
  return asArr(v).map((x) => (typeof x === 'number' ? x : Number.NaN));
}

/** The simulated time of the snapshot, if it has one. */
export function simTime(snapshot: Dict | null): number | null {
  return pickNum(snapshot, 'sim_time_s', 'now', 't');
}

// ---- DRR ring --------------------------------------------------------------------------------------

export interface DrrClassModel {
  name: string;
  quantum: number;
  deficit: number;
  queued: number;
  headCost: number | null;
  blocked: boolean;
}

export interface QueuedModel {
  id: string;
  cost: number | null;
  priority: number | null;
  strictPriority: number | null;
  arrivalS: number | null;
  rawIsl: number | null;
  cached: number | null;
  client: string | null;
}

export interface DrrModel {
  cursor: string | null;
  carry: string | null;
  variant: string | null;
  profile: string | null;
  classes: DrrClassModel[];
  /** Per class name, its waiting requests in leaving order (absent when the snapshot has none). */
  queues: Map<string, QueuedModel[]> | null;
  record: DrrPopRecord | null;
  /** Simulated time of that record (cluster runs), if known. */
  recordT: number | null;
}

/** Where the DRR state lives: `snapshot.drr` (cluster, UI contract) or the snapshot itself (sandbox). */
function drrSource(snapshot: Dict | null): Dict | null {
  if (!snapshot) return null;
  const nested = asObj(snapshot.drr);
  if (nested && Array.isArray(nested.classes)) return nested;
  if (Array.isArray(snapshot.classes) && 'cursor' in snapshot) return snapshot;
  return null;
}

export function readDrr(snapshot: Dict | null): DrrModel | null {
  const src = drrSource(snapshot);
  if (!src) return null;
  const blockedNow = new Set(
    asArr(src.blockedNow ?? snapshot?.blockedNow)
      .map(str)
      .filter((s): s is string => s !== null),
  );
  const classes: DrrClassModel[] = [];
  const seen = new Set<string>();
  for (const raw of asArr(src.classes)) {
    const c = asObj(raw);
    const name = pickStr(c, 'name');
    if (!c || name === null || seen.has(name)) continue;
    seen.add(name);
    const queued = Math.max(0, pickNum(c, 'queued') ?? 0);
    classes.push({
      name,
      quantum: Math.max(0, pickNum(c, 'quantum') ?? 0),
      deficit: pickNum(c, 'deficit') ?? 0,
      queued,
      headCost: pickNum(c, 'headCost', 'head_cost'),
      blocked: c.blocked === true || (queued > 0 && c.blocked === undefined && blockedNow.has(name)),
    });
  }
  const rawRecord = src.lastRecord ?? snapshot?.lastRecord ?? lastDrrDetail(snapshot);
  const known = (v: string | null) => (v !== null && seen.has(v) ? v : null);
  return {
    cursor: known(pickStr(src, 'cursor')),
    carry: known(pickStr(src, 'carry')),
    variant: pickStr(src, 'variant'),
    profile: pickStr(src, 'profile'),
    classes,
    queues: readQueues(src.queues ?? snapshot?.queues),
    record: readRecord(rawRecord),
    recordT: pickNum(asObj(rawRecord), 't'),
  };
}

function readQueues(v: unknown): Map<string, QueuedModel[]> | null {
  if (v === undefined || v === null) return null;
  const out = new Map<string, QueuedModel[]>();
  const add = (cls: string, reqs: unknown) => {
    if (out.has(cls)) return;
    const list: QueuedModel[] = [];
    for (const r of asArr(reqs)) {
      const o = asObj(r);
      const id = pickStr(o, 'id');
      if (!o || id === null) continue;
      list.push({
        id,
        cost: pickNum(o, 'cost'),
        priority: pickNum(o, 'priority'),
        strictPriority: pickNum(o, 'strictPriority', 'strict_priority'),
        arrivalS: pickNum(o, 'arrivalS', 'arrival_s', 'arrival'),
        rawIsl: pickNum(o, 'rawIsl', 'raw_isl', 'isl'),
        cached: pickNum(o, 'cached'),
        client: pickStr(o, 'client'),
      });
    }
    out.set(cls, list);
  };
  if (Array.isArray(v)) {
    for (const q of v) {
      const o = asObj(q);
      const cls = pickStr(o, 'class', 'name');
      if (o && cls !== null) add(cls, o.requests);
    }
  } else {
    const o = asObj(v);
    if (!o) return null;
    for (const [cls, reqs] of Object.entries(o)) add(cls, reqs);
  }
  return out;
}

/** In a cluster snapshot, the DRR record of the most recent router pop among the recent decisions. */
function lastDrrDetail(snapshot: Dict | null): unknown {
  if (!snapshot) return null;
  for (const key of ['recent', 'recentDecisions', 'recent_decisions', 'decisions']) {
    const list = asArr(snapshot[key]);
    for (let i = list.length - 1; i >= 0; i--) {
      const d = asObj(list[i]);
      if (d?.kind === 'drr-pop') {
        const detail = asObj(d.detail);
        if (!detail) return null;
        const inner = asObj(detail.record);
        if (inner) return inner;
        // The engine's detail: { cost, deficits, cursor, carry, bulk_rounds, visits } plus the record's own fields.
        const summary = (str(d.summary) ?? '').replace(/^t=\S+ s\s+(DRR pop:\s*)?/, '');
        return {
          ...detail,
          bulkRounds: detail.bulkRounds ?? detail.bulk_rounds ?? null,
          cursorAfter: detail.cursorAfter ?? detail.cursor ?? null,
          carryAfter: detail.carryAfter ?? detail.carry ?? null,
          chosen:
            detail.chosen ??
            (str(d.request) !== null ? { id: d.request, class: d.class, cost: detail.cost } : null),
          summary: detail.summary ?? summary,
          t: d.t,
        };
      }
    }
  }
  return null;
}

const OUTCOMES: readonly VisitOutcome[] = [
  'empty',
  'blocked',
  'affordable',
  'granted',
  'unaffordable',
  'chosen',
  'short',
];

/** A decision record, keeping only well-formed visits; null when it does not look like one. */
export function readRecord(v: unknown): DrrPopRecord | null {
  const o = asObj(v);
  if (!o || !Array.isArray(o.visits)) return null;
  const visits: ClassVisit[] = [];
  for (const raw of o.visits) {
    const x = asObj(raw);
    const cls = pickStr(x, 'class');
    const outcome = x?.outcome as VisitOutcome;
    if (!x || cls === null || !OUTCOMES.includes(outcome)) continue;
    const phase = x.phase === 'carry' || x.phase === 'final' ? x.phase : 'scan';
    visits.push({
      phase,
      class: cls,
      outcome,
      headId: pickStr(x, 'headId'),
      headCost: pickNum(x, 'headCost'),
      deficitBefore: pickNum(x, 'deficitBefore') ?? 0,
      deficitAfter: pickNum(x, 'deficitAfter') ?? 0,
    });
  }
  const chosenObj = asObj(o.chosen);
  const chosenId = pickStr(chosenObj, 'id');
  const chosenClass = pickStr(chosenObj, 'class');
  const deficits = asArr(o.deficits)
    .map(asObj)
    .filter((d): d is Dict => d !== null && str(d.class) !== null)
    .map((d) => ({ class: str(d.class) as string, before: num(d.before) ?? 0, after: num(d.after) ?? 0 }));
  return {
    variant: o.variant === 'v1' ? 'v1' : 'v2',
    profile: pickStr(o, 'profile') ?? '',
    visits,
    bulkRounds: pickNum(o, 'bulkRounds'),
    deficits,
    cursorBefore: pickStr(o, 'cursorBefore'),
    cursorAfter: pickStr(o, 'cursorAfter'),
    carryBefore: pickStr(o, 'carryBefore'),
    carryAfter: pickStr(o, 'carryAfter'),
    chosen:
      chosenId !== null && chosenClass !== null
        ? { id: chosenId, class: chosenClass, cost: pickNum(chosenObj, 'cost') ?? 0 }
        : null,
    headsTouched: pickNum(o, 'headsTouched') ?? 0,
    summary: pickStr(o, 'summary') ?? '',
  };
}

// ---- clients -----------------------------------------------------------------------------------------

export interface ClientModel {
  name: string;
  /** Position in the snapshot's client order: the palette index. */
  index: number;
  service: number | null;
  servicePerS: number | null;
  completed: number | null;
  queued: number | null;
  running: number | null;
  ttftP50: number | null;
  ttftP99: number | null;
  e2eP50: number | null;
  e2eP99: number | null;
  /** DLPM deficit (one number) or DoubleQ per-worker deficits. */
  deficit: number | null;
  deficitPerWorker: number[] | null;
  /** VTC virtual counter. */
  counter: number | null;
}

/** Clients in snapshot order (object key order, as the engine declares them), each with its colour index. */
export function readClients(snapshot: Dict | null): ClientModel[] {
  if (!snapshot) return [];
  const raw = snapshot.clients;
  const entries: [string, Dict][] = [];
  if (Array.isArray(raw)) {
    for (const c of raw) {
      const o = asObj(c);
      const name = pickStr(o, 'name', 'client');
      if (o && name !== null) entries.push([name, o]);
    }
  } else {
    const o = asObj(raw);
    if (o) for (const [name, v] of Object.entries(o)) entries.push([name, asObj(v) ?? {}]);
  }
  const routerState = asObj(asObj(snapshot.router)?.state);
  const perWorkerByClient = asObj(routerState?.deficits ?? routerState?.deficit);
  const perWorkerRows = Array.isArray(routerState?.deficits) ? (routerState.deficits as unknown[]) : null;
  const seen = new Set<string>();
  const out: ClientModel[] = [];
  for (const [name, c] of entries) {
    if (seen.has(name)) continue;
    seen.add(name);
    const d = c.deficit ?? c.deficits;
    const deficit: number | null = num(d);
    let perWorkerList: number[] | null = null;
    if (deficit === null && (Array.isArray(d) || asObj(d))) {
      perWorkerList = (Array.isArray(d) ? d : Object.values(d as Dict)).map((x) => num(x) ?? 0);
    }
    const fromRouter = perWorkerList ? null : (perWorkerByClient?.[name] ?? perWorkerRows?.[out.length]);
    if (Array.isArray(fromRouter)) perWorkerList = fromRouter.map((x) => num(x) ?? 0);
    out.push({
      name,
      index: out.length,
      service: pickNum(c, 'service'),
      servicePerS: pickNum(c, 'service_per_s'),
      completed: pickNum(c, 'completed'),
      queued: pickNum(c, 'queued'),
      running: pickNum(c, 'running'),
      ttftP50: pickNum(c, 'ttft_p50_s'),
      ttftP99: pickNum(c, 'ttft_p99_s'),
      e2eP50: pickNum(c, 'e2e_p50_s'),
      e2eP99: pickNum(c, 'e2e_p99_s'),
      deficit,
      deficitPerWorker: perWorkerList,
      counter: pickNum(c, 'counter'),
    });
  }
  return out;
}

/** The fairness bound the snapshot carries (e.g. 2·(U + Q^u) of DLPM's Theorem 4.1), if any. */
export function readFairnessBound(snapshot: Dict | null): { value: number; label: string } | null {
  if (!snapshot) return null;
  const fair = asObj(snapshot.fairness);
  const direct = pickNum(snapshot, 'fairness_bound', 'fairnessBound') ?? pickNum(fair, 'bound');
  if (direct !== null && direct > 0) {
    return { value: direct, label: pickStr(fair, 'label', 'formula') ?? 'fairness bound' };
  }
  const b = asObj(snapshot.fairness_bound ?? snapshot.bound ?? fair?.bound);
  const value = pickNum(b, 'value', 'bound');
  if (value === null || value <= 0) return null;
  return { value, label: pickStr(b, 'label', 'formula') ?? 'fairness bound' };
}

// ---- time series -------------------------------------------------------------------------------------

export interface SeriesModel {
  t: number[];
  /** Cumulative service per client, aligned with `readClients` order (NaN where unknown). */
  service: number[][];
  /** Queued requests per client over time, when recorded. */
  queued: number[][] | null;
  /** Throughput over time, when the engine records it, with its unit. */
  throughput: { values: number[]; unit: string } | null;
  jain: number[] | null;
  /** Prefix-cache hit rate so far (cached / prompt tokens of all admissions), when recorded. */
  cacheHit: number[] | null;
}

function perClient(v: unknown, clients: readonly ClientModel[], n: number): number[][] | null {
  if (v === undefined || v === null) return null;
  const o = asObj(v);
  const rows: number[][] = clients.map((c, i) => {
    const row = o ? numArray(o[c.name]) : Array.isArray(v) ? numArray(v[i]) : [];
    return Array.from({ length: n }, (_, k) => (k < row.length ? row[k] : Number.NaN));
  });
  return rows.some((r) => r.some(Number.isFinite)) ? rows : null;
}

export function readSeries(snapshot: Dict | null, clients: readonly ClientModel[]): SeriesModel | null {
  const s = asObj(snapshot?.series);
  if (!s) return null;
  const t = numArray(s.t ?? s.time ?? s.t_s);
  if (t.length === 0) return null;
  const n = t.length;
  // The engine's shape: `rows` keyed `service:<client>`, `queued:<client>`, `kv:<worker>`, ...
  const rows = asObj(s.rows);
  const prefixed = (prefix: string): Dict | null => {
    if (!rows) return null;
    const out: Dict = {};
    let any = false;
    for (const [k, v] of Object.entries(rows))
      if (k.startsWith(prefix)) {
        out[k.slice(prefix.length)] = v;
        any = true;
      }
    return any ? out : null;
  };
  const service =
    perClient(prefixed('service:') ?? s.service ?? s.service_cum ?? s.cumulative_service, clients, n) ??
    clients.map(() => new Array<number>(n).fill(Number.NaN));
  const queued = perClient(prefixed('queued:') ?? s.queued, clients, n);
  let throughput: SeriesModel['throughput'] = null;
  for (const [key, unit] of [
    ['throughput_tok_s', 'tokens/s'],
    ['throughput_tokens_per_s', 'tokens/s'],
    ['throughput_req_s', 'requests/s'],
    ['throughput', 'tokens/s'],
  ] as const) {
    const arr = numArray(s[key] ?? rows?.[key]);
    if (arr.some(Number.isFinite)) {
      throughput = { values: arr.slice(0, n), unit };
      break;
    }
  }
  const jainArr = numArray(s.jain ?? s.jain_index ?? rows?.jain);
  const cacheArr = numArray(rows?.cache_hit);
  return {
    t,
    service,
    queued,
    throughput,
    jain: jainArr.some(Number.isFinite) ? jainArr.slice(0, n) : null,
    cacheHit: cacheArr.some(Number.isFinite) ? cacheArr.slice(0, n) : null,
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
  runningCount: number;
  waiting: string[];
  waitingCount: number;
  kvUsed: number | null;
  kvTotal: number | null;
  hitRate: number | null;
  lastStepMs: number | null;
  radix: {
    nodeCount: number | null;
    cachedTokens: number | null;
    nodes: RadixNodeModel[];
  } | null;
}

function ids(v: unknown): string[] {
  return asArr(v)
    .map((x) => str(x) ?? pickStr(asObj(x), 'id'))
    .filter((x): x is string => x !== null);
}

function readRadix(v: unknown): WorkerModel['radix'] {
  const o = asObj(v);
  if (!o) return null;
  const nodes: RadixNodeModel[] = [];
  const list = Array.isArray(o.top) ? o.top : Array.isArray(o.nodes) ? o.nodes : [];
  for (const raw of list) {
    if (Array.isArray(raw)) {
      const [id, parent, tokens, lock] = raw.map(num);
      if (id === null) continue;
      nodes.push({
        id,
        parent: parent === null || parent < 0 || parent === id ? null : parent,
        tokens: tokens ?? 0,
        lock: lock ?? 0,
      });
    } else {
      const n = asObj(raw);
      const id = pickNum(n, 'id');
      if (id === null) continue;
      const parent = pickNum(n, 'parent', 'parentId');
      nodes.push({
        id,
        parent: parent === null || parent < 0 || parent === id ? null : parent,
        tokens: pickNum(n, 'tokens', 'len') ?? 0,
        lock: pickNum(n, 'lock') ?? 0,
      });
    }
  }
  return {
    nodeCount: num(o.nodes) ?? pickNum(o, 'nodeCount', 'node_count'),
    cachedTokens: pickNum(o, 'cachedTokens', 'cached_tokens'),
    nodes,
  };
}

export function readWorkers(snapshot: Dict | null): WorkerModel[] {
  const out: WorkerModel[] = [];
  for (const [i, raw] of asArr(snapshot?.workers).entries()) {
    const w = asObj(raw);
    if (!w) continue;
    const running = ids(w.running);
    const waiting = ids(w.waiting);
    out.push({
      id: pickNum(w, 'id') ?? i,
      running,
      runningCount: pickNum(w, 'runningCount', 'running_count') ?? num(w.running) ?? running.length,
      waiting,
      waitingCount: pickNum(w, 'waitingCount', 'waiting_count') ?? num(w.waiting) ?? waiting.length,
      kvUsed: pickNum(w, 'kvUsedBlocks', 'kv_used_blocks'),
      kvTotal: pickNum(w, 'kvTotalBlocks', 'kv_total_blocks'),
      hitRate: pickNum(w, 'cacheHitRate', 'cache_hit_rate'),
      lastStepMs: pickNum(w, 'lastStepMs', 'last_step_ms'),
      radix: readRadix(w.radix),
    });
  }
  return out;
}
