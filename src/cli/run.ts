/**
 * `run <scenario.yaml> [--seed N] [--json] [--trace out.jsonl] [--policy policy.yaml] [--set key.path=value ...]`
 *
 * Simulates a scenario on the cluster model. Default output is a readable summary; `--json` prints one
 * JSON object (spec/cli.md keys first, then more); `--trace` writes one JSON line per decision record
 * (in the field names the trace has always written, core/export/trace-v1.ts) with the simulated time
 * and a little cluster state. Invalid input is reported as
 * `file:line:col: message` (exit 1); a bug is exit 2. Progress goes to stderr only on a terminal.
 *
 * Guards (so nothing hangs): FAIRGROUND_MAX_WALL_S (default 900 s of wall time) and
 * FAIRGROUND_MAX_EVENTS (default 2e9 events); a run cut short by one exits 1 with a clear message.
 */
import { appendFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type DecisionRecord, SimConfigError, Simulation } from '../core/sim';
import { traceInfoKeys, traceRecordV1 } from '../core/export';
import { nameList, parseYaml, type Problem, problem, quote } from '../format/yaml';
import {
  applyOverrides,
  CLI_BUDGET,
  budgetProblem,
  estimateRun,
  formatProblem,
  type Override,
  overrideOf,
  parseScenarioText,
  policyClassCount,
  type RunBudget,
} from '../scenario/index';
import { parsePolicyText } from '../policy/index';
import { traceReadOptions } from '../scenario/parse';
import { type CliIO, EXIT } from './io';
import { readFailure } from './read-limited';
import { formatSummary } from './run-summary';
import { wrongKindProblem } from './validate';
import { defaultTraceSpec, readTraceFile, streamTraceFile } from './trace-file';
import { replayOptionsOf, traceSpanS } from '../core/trace';

interface RunArgs {
  file: string;
  seed: number | null;
  json: boolean;
  trace: string | null;
  policy: string | null;
  /** A trace file that replaces the scenario's clients (`--replay`). */
  replay: string | null;
  sets: string[];
  /** Raise the memory budget (MB) the scenario's estimate is held to (`--max-memory-mb`). */
  maxMemoryMb: number | null;
  /** Raise the event budget (`--max-events`); also stops a run that passes it. */
  maxEvents: number | null;
}

export const USAGE =
  'usage: run <scenario.yaml> [--seed N] [--json] [--trace <out.jsonl>] [--policy <policy.yaml>] [--replay <trace file>] [--set key.path=value ...] [--max-memory-mb N] [--max-events N]';

/** Parse the command line; a string is an error message. */
export function parseRunArgs(args: string[]): RunArgs | string {
  const out: RunArgs = {
    file: '',
    seed: null,
    json: false,
    trace: null,
    policy: null,
    replay: null,
    sets: [],
    maxMemoryMb: null,
    maxEvents: null,
  };
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = (flag: string): string | null => {
      const eq = a.indexOf('=');
      if (a.startsWith(`${flag}=`)) return a.slice(eq + 1);
      const v = args[i + 1];
      if (v === undefined || v.startsWith('--')) return null;
      i++;
      return v;
    };
    if (a === '--json') out.json = true;
    else if (a === '--seed' || a.startsWith('--seed=')) {
      const v = value('--seed');
      if (v === null || !/^\d+$/.test(v) || Number(v) > 4294967295)
        return `--seed needs a whole number from 0 to 4294967295, got ${v === null ? 'nothing' : `'${v}'`}`;
      out.seed = Number(v);
    } else if (a === '--trace' || a.startsWith('--trace=')) {
      const v = value('--trace');
      if (v === null) return '--trace needs an output file, e.g. --trace out.jsonl';
      out.trace = v;
    } else if (a === '--policy' || a.startsWith('--policy=')) {
      const v = value('--policy');
      if (v === null) return '--policy needs a policy file, e.g. --policy policies/sample.yaml';
      out.policy = v;
    } else if (a === '--replay' || a.startsWith('--replay=')) {
      const v = value('--replay');
      if (v === null)
        return '--replay needs a trace file, e.g. --replay trace.jsonl (Mooncake JSONL, Azure or BurstGPT CSV)';
      out.replay = v;
    } else if (a === '--set' || a.startsWith('--set=')) {
      const v = value('--set');
      if (v === null || !v.includes('='))
        return `--set needs key.path=value, got ${v === null ? 'nothing' : `'${v}'`}`;
      out.sets.push(v);
      // further key=value words right after one --set belong to it
      while (i + 1 < args.length && !args[i + 1].startsWith('--') && args[i + 1].includes('='))
        out.sets.push(args[++i]);
    } else if (a === '--max-memory-mb' || a.startsWith('--max-memory-mb=')) {
      const v = value('--max-memory-mb');
      if (v === null || !/^\d+$/.test(v) || Number(v) < 1)
        return `--max-memory-mb needs a whole number of megabytes, got ${v === null ? 'nothing' : `'${quote(v)}'`}`;
      out.maxMemoryMb = Number(v);
    } else if (a === '--max-events' || a.startsWith('--max-events=')) {
      const v = value('--max-events');
      if (v === null || !/^\d+$/.test(v) || Number(v) < 1)
        return `--max-events needs a whole number, got ${v === null ? 'nothing' : `'${quote(v)}'`}`;
      out.maxEvents = Number(v);
    } else if (a.startsWith('--')) return `unknown option '${quote(a)}'`;
    else files.push(a);
  }
  if (files.length !== 1)
    return files.length === 0 ? 'name a scenario file' : `one scenario file only, got ${nameList(files)}`;
  out.file = files[0];
  return out;
}

function envNumber(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

function report(io: CliIO, problems: Problem[], file: string, sets: readonly Override[] = []): number {
  io.err(problems.map((p) => formatProblem(p, file, sets)).join('\n'));
  return EXIT.invalid;
}

/**
 * A trace given with --replay is read in the format the scenario's `trace.format` names. When that
 * is not `auto` and the file's first line already fails, the file is likely another layout (a CSV
 * replayed on a scenario written for Mooncake JSONL): say so at that key, and what to add.
 */
function replayFormatHint(
  file: string,
  text: string,
  format: string,
  replay: string,
  firstLineBad: boolean,
): string | null {
  if (format === 'auto' || !firstLineBad) return null;
  const doc = parseYaml(text);
  const at = doc.ok ? doc.value.locate(['trace', 'format']) : { line: 1, col: 1 };
  return `${file}:${at.line}:${at.col}: --replay reads ${replay} as ${format}, the format this scenario's trace.format names; if the file has another layout, add --set trace.format=auto (or its format: mooncake, azure, burstgpt, csv)`;
}

export async function runCommand(args: string[], io: CliIO): Promise<number> {
  const parsedArgs = parseRunArgs(args);
  if (typeof parsedArgs === 'string') {
    io.err(`run: ${parsedArgs}\n${USAGE}`);
    return EXIT.invalid;
  }
  const a = parsedArgs;
  let text: string;
  try {
    text = io.readFile(a.file);
  } catch (err) {
    io.err(`${a.file}:1:1: cannot read the file: ${readFailure(err)}`);
    return EXIT.invalid;
  }
  const wrongKind = wrongKindProblem(text, a.file, 'scenario');
  if (wrongKind !== null) return report(io, [wrongKind], a.file);
  let policy: { text: string; file: string } | undefined;
  if (a.policy !== null) {
    try {
      policy = { text: io.readFile(a.policy), file: a.policy };
    } catch (err) {
      io.err(`${a.policy}:1:1: cannot read the policy file: ${readFailure(err)}`);
      return EXIT.invalid;
    }
    // the policy file's own problems are reported against it alone: the scenario has no line for them
    const checked = parsePolicyText(policy.text);
    if (!checked.ok) return report(io, checked.problems, a.policy);
  }
  let overrides: Override[] = [];
  if (a.sets.length > 0) {
    const o = applyOverrides(text, a.sets);
    // these messages already name the override (`--set key: …`): no file position to blame
    if (!o.ok) {
      io.err(o.problems.map((p) => p.message).join('\n'));
      return EXIT.invalid;
    }
    const original = text;
    overrides = a.sets.map((set) => overrideOf(original, set));
    text = o.value;
  }
  const base = dirname(resolve(a.file));
  const budget: RunBudget = {
    ...CLI_BUDGET,
    memoryMb: a.maxMemoryMb ?? CLI_BUDGET.memoryMb,
    events: a.maxEvents ?? CLI_BUDGET.events,
  };
  const parsed = parseScenarioText(text, {
    file: a.file,
    budget,
    readFile: (rel: string) => io.readFile(resolve(base, rel)),
    policy,
    // --replay replaces the scenario's own trace file, which is then not read
    ...(a.replay !== null ? { trace: null } : {}),
    readTrace: (rel, opts) =>
      streamTraceFile(resolve(base, rel), rel, opts, (bytes) =>
        io.progress(`run: reading ${rel}: ${(bytes / 1e6).toFixed(0)} MB`),
      ),
  });
  if (!parsed.ok) return report(io, parsed.problems, a.file, overrides);
  let scenario = parsed.value;

  // the trace: --replay replaces the clients (and scripted requests) and runs to the trace's end
  io.progress('');
  if (a.replay !== null) {
    const traceSpec = { ...(scenario.trace ?? defaultTraceSpec(a.replay)), file: a.replay };
    const read = readTraceFile(a.replay, a.replay, traceReadOptions(traceSpec), (bytes) =>
      io.progress(`run: reading ${a.replay}: ${(bytes / 1e6).toFixed(0)} MB`),
    );
    io.progress('');
    if (!read.ok) {
      io.err(read.message);
      const hint = replayFormatHint(a.file, text, traceSpec.format, a.replay, read.firstLineBad);
      if (hint !== null) io.err(hint);
      return EXIT.invalid;
    }
    scenario = { ...scenario, trace: { ...traceSpec, data: read.table } };
    {
      const span = traceSpanS(read.table, replayOptionsOf(traceSpec));
      scenario = { ...scenario, clients: [], requests: [], duration_s: Math.min(86_400, span + 1e-6) };
    }
    // the budget, now with the replayed trace's rows (validation saw the scenario without them)
    const input = { ...scenario, policyClasses: policyClassCount(scenario.router.policy) };
    const over = budgetProblem(estimateRun(input, read.table), budget);
    if (over !== null) {
      io.err(`${a.replay}:1:1: ${over}`);
      return EXIT.invalid;
    }
  }

  // where --trace writes, checked once the input is known good (so a bad scenario leaves an
  // earlier trace alone) and before the run: never over one of the run's input files
  if (a.trace !== null) {
    const traceFiles = [
      scenario.trace?.file,
      ...scenario.clients.map((c) => ('trace' in c ? c.trace.file : undefined)),
    ]
      .filter((f): f is string => f !== undefined)
      .map((f) => resolve(base, f));
    const bad = traceOutputProblem(a.trace, [a.file, a.policy, a.replay, ...traceFiles], io);
    if (bad !== null) {
      io.err(bad);
      return EXIT.invalid;
    }
  }

  let sim: Simulation;
  try {
    sim = new Simulation(scenario, { record: a.trace !== null, seed: a.seed ?? undefined });
  } catch (err) {
    if (err instanceof SimConfigError) {
      const doc = parseYaml(text);
      const at = doc.ok ? doc.value.locate(err.path) : { line: 1, col: 1 };
      return report(
        io,
        [problem(at.line, at.col, `${err.path.join('.')}: ${err.message}`, err.path)],
        a.file,
        overrides,
      );
    }
    throw err;
  }

  const trace = a.trace !== null ? new TraceWriter(a.trace, io) : null;
  if (trace !== null) sim.onDecision = (d) => trace.add(traceLine(d, sim));

  const maxWallS = envNumber('FAIRGROUND_MAX_WALL_S', 900);
  const maxEvents = a.maxEvents ?? envNumber('FAIRGROUND_MAX_EVENTS', 2e9);
  const expectedSimS = Math.max(scenario.duration_s, estimateRun(scenario).simTimeS);
  let interrupted = false;
  const stopListening = io.onInterrupt?.(() => {
    interrupted = true;
  });
  const t0 = performance.now();
  let stop: 'wall' | 'events' | null = null;
  try {
    // In slices of simulated time, yielding to the event loop between them so Ctrl-C is heard; each
    // slice is sized to take about 0.1 s. Slicing does not change the run: events are processed in
    // the same order at the same simulated times.
    let slice = 1;
    let lastProgress = 0;
    while (!sim.done()) {
      const w0 = performance.now();
      sim.runUntil(sim.now + slice);
      const dt = performance.now() - w0;
      slice = dt < 50 ? slice * 2 : dt > 200 ? Math.max(1e-3, slice / 2) : slice;
      const wallS = (performance.now() - t0) / 1000;
      if (trace?.failed) break;
      if (sim.eventsProcessed > maxEvents) stop = 'events';
      else if (wallS > maxWallS) stop = 'wall';
      if (stop !== null || interrupted) break;
      if (wallS - lastProgress >= 0.25) {
        lastProgress = wallS;
        io.progress(progressLine(sim.now, expectedSimS, wallS, sim.eventsProcessed));
      }
      await new Promise<void>((r) => setImmediate(r));
    }
  } finally {
    stopListening?.();
  }
  const wall = (performance.now() - t0) / 1000;
  io.progress('');
  if (stop === null) trace?.close();
  if (trace?.failed) {
    // (a full disk mid-run stops the run; at the last write the run is over, but its trace is cut)
    io.err(
      `--trace ${quote(a.trace as string)}: ${trace.failed}; the trace is incomplete, and no result was printed`,
    );
    return EXIT.invalid;
  }
  if (stop !== null) {
    const why =
      stop === 'wall'
        ? `the run took more than ${maxWallS} s of wall time (set FAIRGROUND_MAX_WALL_S to allow more, or shorten duration_s / lower rates)`
        : `the run exceeded ${maxEvents} events (raise --max-events to allow more)`;
    io.err(`${a.file}:1:1: run stopped at simulated t=${sim.now.toFixed(3)} s: ${why}`);
    return EXIT.invalid;
  }
  // the traces replayed and their clocks, after the figures (the page's Run as JSON adds the same)
  const extra = traceInfoKeys(scenario);
  const replay = extra.trace_replay ?? null;
  const clientTraces = extra.client_traces ?? null;
  if (interrupted) {
    const partial = { ...sim.result(), wall_time_s: wall, interrupted: true, ...extra };
    io.err(
      `${a.file}: interrupted at simulated t=${sim.now.toFixed(3)} s after ${wall.toFixed(1)} s; ${
        a.json
          ? 'the partial result is the JSON object on stdout ("interrupted": true)'
          : 'the partial summary is on stdout'
      }`,
    );
    io.out(
      a.json
        ? JSON.stringify(partial)
        : `(partial: interrupted at t=${sim.now.toFixed(1)} s)\n${formatSummary(partial, replay, clientTraces)}`,
    );
    return EXIT.interrupted;
  }
  const result = sim.result();
  result.wall_time_s = wall;
  io.out(a.json ? JSON.stringify({ ...result, ...extra }) : formatSummary(result, replay, clientTraces));
  return EXIT.ok;
}

/**
 * Whether `--trace PATH` can be written, checked before the run (a run can take minutes, and a path
 * that cannot be written ended it with an internal error): never one of the run's own input files,
 * and a file its folder lets us create. Creates the file empty; null when it can be written.
 */
function traceOutputProblem(path: string, inputs: readonly (string | null)[], io: CliIO): string | null {
  const out = resolve(path);
  const same = inputs.find((f) => f !== null && resolve(f) === out);
  if (same !== undefined && same !== null)
    return `--trace ${quote(path)}: that is an input of this run (${quote(same)}); name another output file, e.g. --trace out.jsonl`;
  try {
    io.writeFile(path, '');
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException)?.code;
    const why =
      code === 'ENOENT'
        ? `its folder ${quote(dirname(out))} does not exist: create it first, or name a file in an existing folder`
        : code === 'EISDIR'
          ? `it is a folder: name a file in it, e.g. --trace ${quote(join(path, 'trace.jsonl'))}`
          : code === 'EACCES' || code === 'EPERM'
            ? 'permission denied: name a file in a folder you can write to'
            : `cannot write it (${code ?? 'unknown error'})`;
    return `--trace ${quote(path)}: ${why}`;
  }
}

/**
 * Collects trace lines and writes them in parts of at most ~32 MB, so a long run's trace never has to
 * fit in one string: the first part through the command's IO (tests see it in memory), later parts
 * appended to the same file.
 */
class TraceWriter {
  private lines: string[] = [];
  private size = 0;
  private parts = 0;
  /** Why a write failed (a full disk, an I/O error); the run stops and says so, exit 1. */
  failed: string | null = null;

  constructor(
    private readonly path: string,
    private readonly io: CliIO,
  ) {}

  add(line: string): void {
    if (this.failed !== null) return;
    this.lines.push(line);
    this.size += line.length + 1;
    if (this.size > 32_000_000) this.flush();
  }

  private flush(): void {
    const text = this.lines.length ? `${this.lines.join('\n')}\n` : '';
    this.lines = [];
    this.size = 0;
    try {
      if (this.parts === 0) this.io.writeFile(this.path, text);
      else appendFileSync(this.path, text);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException)?.code;
      this.failed =
        code === 'ENOSPC' || code === 'EDQUOT'
          ? 'the disk is full: free some space, or name a file on another disk'
          : `cannot write it (${code ?? 'unknown error'})`;
    }
    this.parts++;
  }

  close(): void {
    if (this.parts === 0 || this.lines.length > 0) this.flush();
  }
}

/** One trace line: the decision record plus the cluster's queue state at that moment. */
function traceLine(d: DecisionRecord, sim: Simulation): string {
  const state = {
    router_queued: sim.router.queuedCount,
    waiting: sim.workers.map((w) => w.waitingCount),
    running: sim.workers.map((w) => w.runningCount),
    kv_used_blocks: sim.workers.map((w) => w.kv.allocatedBlocks),
  };
  return JSON.stringify({ ...traceRecordV1(d), state });
}

/** `run: 42% (sim t=120.0 of ~290 s), 12.3 s wall, ETA 17 s, 3,400,000 events`: simulated time against the estimate. */
export function progressLine(nowS: number, expectedS: number, wallS: number, events: number): string {
  const frac = Math.min(0.99, expectedS > 0 ? nowS / expectedS : 0);
  const eta = frac > 0.01 ? `, ETA ${formatSeconds((wallS * (1 - frac)) / frac)}` : '';
  return `run: ${(frac * 100).toFixed(0)}% (sim t=${nowS.toFixed(1)} of ~${Math.round(expectedS)} s), ${wallS.toFixed(1)} s wall${eta}, ${events.toLocaleString('en-US')} events`;
}

function formatSeconds(s: number): string {
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}
