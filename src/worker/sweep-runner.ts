/**
 * Parameter sweeps, headless: one point is the scenario with a few `key.path=value` overrides run to
 * its end on the core's Simulation; a sweep runs many points with bounded concurrency and reports
 * progress. Pure TypeScript (no DOM): the browser runs points in Web Workers (sweep.worker.ts), the
 * tests run the very same functions in Node.
 *
 * The module also replays a run up to a playhead for export (the per-request records and the
 * result are not kept by the playground's own worker).
 */
import { exp, log } from '../core/det-math';
import { type ArbitrationSnapshot, playgroundSession } from '../core/drr';
import type { DynamoRelease, ScriptOutputLine } from '../core/drr/types';
import type { RequestRecord } from '../core/export';
import { requestRecord, traceInfoKeys } from '../core/export';
import type { RunResult, SimRequest, SimSnapshot } from '../core/sim';
import { SimConfigError, Simulation } from '../core/sim';
import { formatProblems, parseYaml } from '../format/yaml';
import { isArbitrationScript, scriptWithPolicy } from '../policy';
import { applyOverrides, parseScenarioText } from '../scenario';
import { pageTraceSource } from './page-traces';
import { adoptTrace } from './trace-upload';
import type { TraceTable } from '../core/trace';

/** The policy's own keys, when the policy text is given apart from the scenario. */
const POLICY_PREFIX = 'router.policy.';

export interface SweepPointInput {
  /** The scenario file's text. */
  scenario: string;
  /** A policy that replaces the scenario's own (the playground's Policy tab), when edited. */
  policy?: string;
  /** `key.path=value` assignments (`router.policy.…` ones go to `policy` when it is given). */
  sets: readonly string[];
}

export type SweepPointOutcome = { ok: true; result: RunResult } | { ok: false; message: string };

/** The scenario text and policy text with the overrides applied, or a readable problem. */
export function applyPointOverrides(
  input: SweepPointInput,
): { ok: true; scenario: string; policy?: string } | { ok: false; message: string } {
  let scenario = input.scenario;
  let policy = input.policy;
  for (const set of input.sets) {
    if (policy !== undefined && set.startsWith(POLICY_PREFIX)) {
      const res = applyOverrides(policy, [set.slice(POLICY_PREFIX.length)]);
      if (!res.ok) return { ok: false, message: formatProblems(res.problems, 'policy') };
      policy = res.value;
    } else {
      const res = applyOverrides(scenario, [set]);
      if (!res.ok) return { ok: false, message: formatProblems(res.problems, 'scenario') };
      scenario = res.value;
    }
  }
  return policy === undefined ? { ok: true, scenario } : { ok: true, scenario, policy };
}

/** Run one point to the end of its scenario (decision records off: the fast path). */
export function runSweepPoint(input: SweepPointInput): SweepPointOutcome {
  const prepared = applyPointOverrides(input);
  if (!prepared.ok) return prepared;
  const parsed = parseScenarioText(prepared.scenario, {
    ...(prepared.policy !== undefined ? { policy: { text: prepared.policy, file: 'policy' } } : {}),
    ...pageTraceSource(),
  });
  if (!parsed.ok) return { ok: false, message: formatProblems(parsed.problems, 'scenario') };
  try {
    const sim = new Simulation(parsed.value, { record: false });
    sim.runToEnd();
    return { ok: true, result: sim.result() };
  } catch (err) {
    if (err instanceof SimConfigError) return { ok: false, message: `${err.path.join('.')}: ${err.message}` };
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

export interface SweepProgress {
  done: number;
  total: number;
}

export interface SweepOptions {
  /** Points run at the same time (at least 1). */
  concurrency: number;
  onProgress?: (p: SweepProgress) => void;
  /** Called with each finished point (its index in `points`). */
  onPoint?: (index: number, outcome: SweepPointOutcome) => void;
  /** Stop handing out points once this returns true. */
  cancelled?: () => boolean;
}

/**
 * Run every point through `run` (a worker or the in-process runner), at most `concurrency` at a
 * time. The outcomes come back in the points' order whatever order they finish in; a cancelled
 * sweep leaves null for the points it never ran.
 */
export async function runSweep(
  points: readonly SweepPointInput[],
  run: (p: SweepPointInput) => Promise<SweepPointOutcome>,
  opts: SweepOptions,
): Promise<(SweepPointOutcome | null)[]> {
  const out: (SweepPointOutcome | null)[] = points.map(() => null);
  let next = 0;
  let done = 0;
  const lane = async (): Promise<void> => {
    while (next < points.length && !opts.cancelled?.()) {
      const i = next++;
      let outcome: SweepPointOutcome;
      try {
        outcome = await run(points[i]);
      } catch (err) {
        outcome = { ok: false, message: err instanceof Error ? err.message : String(err) };
      }
      if (opts.cancelled?.()) return;
      out[i] = outcome;
      done++;
      opts.onPoint?.(i, outcome);
      opts.onProgress?.({ done, total: points.length });
    }
  };
  const lanes = Math.max(1, Math.min(Math.floor(opts.concurrency), points.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return out;
}

/**
 * Sweep values from `from` to `to`: evenly spaced, or evenly spaced in log scale (both > 0).
 *
 * The ends are the values asked for, exactly (rounded to whole numbers only when `integer` is set).
 * The points in between are rounded so they read well: to 3 significant digits (1000, 2150, 4640, …),
 * or more when the steps are narrow, so that rounding moves a point by a tenth of its step at most
 * (100.25 stays 100.25 between 100 and 101). Integer values are then rounded to whole numbers (never
 * below 1) and repeats are dropped, so a range with fewer whole numbers than points gives fewer points.
 */
export function sweepValues(spec: {
  from: number;
  to: number;
  points: number;
  scale: 'linear' | 'log';
  integer?: boolean;
}): number[] {
  const n = Math.max(1, Math.floor(spec.points));
  const { from, to } = spec;
  if (!Number.isFinite(from) || !Number.isFinite(to)) return [];
  if (spec.scale === 'log' && !(from > 0 && to > 0)) return [];
  const raw: number[] = [];
  for (let i = 0; i < n; i++) {
    const f = n === 1 ? 0 : i / (n - 1);
    if (i === 0) raw.push(from);
    else if (i === n - 1) raw.push(to);
    else if (spec.scale === 'log') raw.push(exp(log(from) + f * (log(to) - log(from))));
    else raw.push(from + f * (to - from));
  }
  const rounded = raw.map((v, i) => {
    const r =
      i === 0 || i === n - 1
        ? v
        : roundForStep(v, Math.min(Math.abs(v - raw[i - 1]), Math.abs(raw[i + 1] - v)));
    return spec.integer ? Math.max(1, Math.round(r)) : r;
  });
  return rounded.filter((v, i) => rounded.indexOf(v) === i);
}

/**
 * `v` to 3 significant digits, or to as many more as keep the rounding within a tenth of `step`
 * (the distance to the nearer neighbour), so evenly spaced points still look evenly spaced.
 */
function roundForStep(v: number, step: number): number {
  if (v === 0) return 0;
  // floor(log10 |v|) and powers of ten from the number's decimal form, which the language defines
  // exactly (Math.log10 and negative powers are engine-dependent: points must be the same everywhere)
  const exponent = v.toExponential();
  const magnitude = Number(exponent.slice(exponent.indexOf('e') + 1));
  const limit = step / 10;
  let digits = 3;
  while (digits < 17 && Number(`1e${magnitude - digits + 1}`) > limit) digits++;
  return Number(v.toPrecision(digits));
}

// ---- replay for export ------------------------------------------------------------------------------

export interface ReplayInput {
  scenario: string;
  policy?: string;
  /** Decisions to replay (the playhead). */
  decisions: number;
}

/** A sandbox replay's result: the steps run (preloaded enqueues included) and their output lines. */
export interface ScriptReplayResult {
  steps: number;
  total_steps: number;
  /** The Dynamo release line whose queue the script modelled (its `release`, else the newest). */
  dynamo_release: DynamoRelease;
  log: ScriptOutputLine[];
}

export type ReplayOutcome =
  | {
      ok: true;
      kind: 'cluster';
      /** The run's figures, and the traces it replayed (`trace_replay`, `client_traces`) as run --json adds them. */
      result: RunResult & ReturnType<typeof traceInfoKeys>;
      /** The engine's snapshot without its recent-decisions list (the requests travel beside it). */
      snapshot: Omit<SimSnapshot, 'recent'>;
      requests: RequestRecord[];
    }
  | {
      ok: true;
      kind: 'arbitration';
      result: ScriptReplayResult;
      snapshot: ArbitrationSnapshot;
      requests: RequestRecord[];
    }
  | { ok: false; message: string };

/**
 * The run as the playground shows it at `decisions`: replayed deterministically from the texts.
 * Cluster runs give the result, the snapshot and one record per request: those that left the system
 * (in the order they left), then those still in flight at `decisions` (in the order they arrived,
 * with their state: router-queued, waiting or running); arbitration scripts give their output lines
 * as the result.
 */
export function replayRun(input: ReplayInput): ReplayOutcome {
  const parsed = parseYaml(input.scenario);
  if (!parsed.ok) return { ok: false, message: formatProblems(parsed.problems, 'scenario') };
  const value = parsed.value.value;
  const override = input.policy !== undefined && input.policy.trim() !== '' ? input.policy : undefined;
  if (isArbitrationScript(value)) {
    const script = scriptWithPolicy(parsed.value, override);
    if (!script.ok) return { ok: false, message: formatProblems(script.problems, script.source) };
    // decisions count as the playground's steps: after a preloading script's enqueues
    const { session } = playgroundSession(script.value);
    for (let i = 0; i < input.decisions && session.step(); i++) {
      /* one op per decision */
    }
    const snap = session.snapshot();
    return {
      ok: true,
      kind: 'arbitration',
      result: {
        steps: snap.steps_done,
        total_steps: snap.total_steps,
        dynamo_release: script.value.release ?? 'v1.6',
        log: snap.log,
      },
      snapshot: snap,
      requests: [],
    };
  }
  const scenario = parseScenarioText(input.scenario, {
    ...(override !== undefined ? { policy: { text: override, file: 'policy' } } : {}),
    ...pageTraceSource(),
  });
  if (!scenario.ok) return { ok: false, message: formatProblems(scenario.problems, 'scenario') };
  try {
    const sim = new Simulation(scenario.value);
    const requests: RequestRecord[] = [];
    // in flight: submitted and not yet done, in submission order
    const live = new Map<number, SimRequest>();
    sim.onRequestArrived = (r) => live.set(r.serial, r);
    sim.onRequestDone = (r) => {
      live.delete(r.serial);
      requests.push(requestRecord(r, sim.clients));
    };
    for (let i = 0; i < input.decisions && sim.stepDecision(); i++) {
      /* the playground's step is one decision record */
    }
    for (const r of live.values()) requests.push(requestRecord(r, sim.clients));
    const { recent: _recent, ...snapshot } = sim.snapshot();
    // the traces replayed and their clocks, after the figures, as run --json gives them
    const result = { ...sim.result(), ...traceInfoKeys(scenario.value) };
    return { ok: true, kind: 'cluster', result, snapshot, requests };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

/** The part of a sweep worker's API (remote or local) that one-off runs use. */
export interface OneOffRunner {
  adoptTrace(table: TraceTable): unknown;
  runPoint(input: SweepPointInput): SweepPointOutcome | Promise<SweepPointOutcome>;
  replay(input: ReplayInput): ReplayOutcome | Promise<ReplayOutcome>;
}

/**
 * One-off runs on a fresh sweep worker (Export's replay, the test hook's runResult): like each sweep
 * worker, it is first handed the page worker's tables of the dropped traces the scenario replays
 * (`traces`; empty when it replays none), since a dropped file lives only in the page's worker.
 */
export async function replayOn(
  w: OneOffRunner,
  input: ReplayInput,
  traces: readonly TraceTable[],
): Promise<ReplayOutcome> {
  for (const t of traces) await w.adoptTrace(t);
  return await w.replay(input);
}

export async function runPointOn(
  w: OneOffRunner,
  input: SweepPointInput,
  traces: readonly TraceTable[],
): Promise<SweepPointOutcome> {
  for (const t of traces) await w.adoptTrace(t);
  return await w.runPoint(input);
}

/** What sweep.worker.ts exposes (the same object runs in Node tests over a MessageChannel). */
export const sweepWorkerApi = {
  /** Hold one of the page worker's dropped traces, so points whose trace files name it replay it. */
  adoptTrace: (table: TraceTable): void => adoptTrace(table),
  runPoint: (input: SweepPointInput): SweepPointOutcome => runSweepPoint(input),
  replay: (input: ReplayInput): ReplayOutcome => replayRun(input),
};

export type SweepWorkerApi = typeof sweepWorkerApi;
