/**
 * Per-request records of a run, for export: one flat row per request that left the system
 * (completed or rejected), with its timestamps in simulated seconds and the latencies derived from
 * them. `requestRecord` turns the engine's request object into such a row.
 */
import { type CsvValue, toCsv } from './csv';

export interface RequestRecord {
  id: string;
  client: string;
  slo_class?: string;
  /** Program instance and node within it (e.g. "alice#3", "turn 2"). */
  program?: string;
  node?: string;
  /** Router policy class, when the policy-class queue is on. */
  policy_class?: string | null;
  /** Worker that served it last (-1 / null: never placed). */
  worker?: number | null;
  /** done | rejected | ... */
  state?: string;
  arrival_s: number;
  enqueue_s?: number | null;
  first_schedule_s?: number | null;
  first_token_s?: number | null;
  completion_s?: number | null;
  ttft_s?: number | null;
  e2e_s?: number | null;
  prompt_tokens?: number;
  cached_tokens?: number;
  output_tokens?: number;
  preemptions?: number;
  /** When the router handed it to a worker, and the prefix overlap it classified it with (`cached_tokens`). */
  dispatch_s?: number | null;
  router_cached_tokens?: number;
  /** Anything else a caller adds becomes an extra column after these. */
  [extra: string]: CsvValue;
}

/** Columns of the requests CSV, in this order; extra keys follow in first-seen order. */
export const REQUEST_COLUMNS = [
  'id',
  'client',
  'slo_class',
  'program',
  'node',
  'policy_class',
  'worker',
  'state',
  'arrival_s',
  'enqueue_s',
  'first_schedule_s',
  'first_token_s',
  'completion_s',
  'ttft_s',
  'e2e_s',
  'prompt_tokens',
  'cached_tokens',
  'output_tokens',
  'preemptions',
  'dispatch_s',
  'router_cached_tokens',
] as const;

export function requestsCsv(records: readonly RequestRecord[]): string {
  const known = new Set<string>(REQUEST_COLUMNS);
  const extra: string[] = [];
  for (const r of records)
    for (const k of Object.keys(r))
      if (!known.has(k)) {
        known.add(k);
        extra.push(k);
      }
  return toCsv(records, [...REQUEST_COLUMNS, ...extra]);
}

/** The fields of the engine's request (src/core/sim/request.ts) a record is made from. */
export interface SimRequestLike {
  readonly id: string;
  readonly client: number;
  readonly spec: { readonly sloClass: string; readonly program: string; readonly node: string };
  readonly promptLen: number;
  readonly outputLen: number;
  state: number;
  worker: number;
  arrivalT: number;
  enqueueT: number;
  dispatchT: number;
  routerCached: number;
  firstScheduleT: number;
  firstTokenT: number;
  completionT: number;
  cachedLen: number;
  generated: number;
  preemptions: number;
  routerClass: string;
}

/** Names of the engine's request states, by their numeric value. */
const STATES = ['new', 'router-queued', 'waiting', 'running', 'done', 'rejected'];

function time(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/** A flat record of one engine request; `clients` maps its client index to the client's name. */
export function requestRecord(r: SimRequestLike, clients: readonly string[]): RequestRecord {
  const arrival = r.arrivalT;
  const firstToken = time(r.firstTokenT);
  const completion = time(r.completionT);
  return {
    id: r.id,
    client: clients[r.client] ?? String(r.client),
    slo_class: r.spec.sloClass,
    program: r.spec.program,
    node: r.spec.node,
    policy_class: r.routerClass === '' ? null : r.routerClass,
    worker: r.worker >= 0 ? r.worker : null,
    state: STATES[r.state] ?? String(r.state),
    arrival_s: arrival,
    enqueue_s: time(r.enqueueT),
    first_schedule_s: time(r.firstScheduleT),
    first_token_s: firstToken,
    completion_s: completion,
    ttft_s: firstToken === null ? null : firstToken - arrival,
    e2e_s: completion === null ? null : completion - arrival,
    prompt_tokens: r.promptLen,
    cached_tokens: r.cachedLen,
    output_tokens: r.state === 4 ? r.outputLen : r.generated,
    preemptions: r.preemptions,
    dispatch_s: time(r.dispatchT),
    router_cached_tokens: r.routerCached,
  };
}
