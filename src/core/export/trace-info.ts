/**
 * The request traces a run replayed and how their clocks were applied, as `run --json` and the
 * page's Export → Run as JSON both give them beside the run's figures (`trace_replay` for the
 * scenario's own trace or `--replay`, `client_traces` for trace clients): without them a trace run
 * twice as fast could not be told from the scenario's `trace.time_scale: 0.5`.
 */
import { isTraceClient, type SimScenario } from '../input';

export interface TraceReplayInfo {
  /** The trace file as named (the scenario's `trace.file`, or `--replay`). */
  file: string;
  /** Simulated seconds per trace second (the scenario's `trace.time_scale`, default 1). */
  time_scale: number;
  start_s: number;
  stop_s: number | null;
  max_requests: number | null;
  /** A trace client's `select_client`: only the rows whose client column holds this name. */
  select_client?: string;
}

/** The trace the run replayed (its own `trace:` or `--replay`) and the clock applied; null without one. */
export function traceReplayInfo(scenario: SimScenario): TraceReplayInfo | null {
  const t = scenario.trace;
  if (t === null || t === undefined) return null;
  return {
    file: t.file ?? '(trace)',
    time_scale: t.time_scale,
    start_s: t.start_s,
    stop_s: t.stop_s ?? null,
    max_requests: t.max_requests ?? null,
  };
}

/** Each trace client's trace and clock (`client_traces`); null without trace clients. */
export function clientTraceInfo(scenario: SimScenario): Record<string, TraceReplayInfo> | null {
  const out: Record<string, TraceReplayInfo> = {};
  let any = false;
  for (const c of scenario.clients)
    if (isTraceClient(c)) {
      any = true;
      out[c.name] = {
        file: c.trace.file,
        time_scale: c.trace.time_scale,
        start_s: c.trace.start_s,
        stop_s: c.trace.stop_s ?? null,
        max_requests: c.trace.max_requests ?? null,
        ...(c.trace.select_client !== undefined ? { select_client: c.trace.select_client } : {}),
      };
    }
  return any ? out : null;
}

/** Both, as the keys a run's JSON adds after its figures (absent when the run replayed no trace). */
export function traceInfoKeys(scenario: SimScenario): {
  trace_replay?: TraceReplayInfo;
  client_traces?: Record<string, TraceReplayInfo>;
} {
  const replay = traceReplayInfo(scenario);
  const clients = clientTraceInfo(scenario);
  return {
    ...(replay !== null ? { trace_replay: replay } : {}),
    ...(clients !== null ? { client_traces: clients } : {}),
  };
}
