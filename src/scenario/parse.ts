/**
 * Scenario text → a validated Scenario with every default applied, or every problem with its
 * line and column. The router's policy (inline, or `policy_file` read through the caller's
 * `readFile`, or a replacement given by the CLI's --policy) is validated and compiled by src/policy.
 */
import { stringify } from 'yaml';
import type { CompiledPolicy } from '../core/drr/types';
import {
  fromFile,
  type ParsedYaml,
  type Path,
  type Problem,
  parseYaml,
  pathText,
  problem,
  type Result,
  sortProblems,
  quote,
} from '../format/yaml';
import { parsePolicyValue } from '../policy/index';
import { dueTimeProblems, releaseProblems, scenarioProblems } from './checks';
import { budgetProblem, estimateRun, PAGE_BUDGET, policyClassCount, type RunBudget } from './estimate';
import { flattenIssues, issueProblem } from '../format/issues';
import { routerCommon, type Scenario, ScenarioInputSchema } from './schema';
import { known, scenarioView } from './view';
import type { TraceTable } from '../core/trace/types';
import { selectClientProblem } from '../core/trace/workload';
import {
  readTraceText,
  type TraceReadOptions,
  moreProblemsMessage,
  type TraceProblem,
  type TraceReadResult,
} from '../format/trace';
import { SCENARIO_LIMITS } from './limits';
import { TraceReadingSchema, type TraceSpec } from './trace-schema';

export interface ParseScenarioOptions {
  /** The file name, used only in messages about referenced files. */
  file?: string;
  /** Reads a file relative to the scenario (CLI only); enables `router.policy_file`. */
  readFile?: (relPath: string) => string;
  /** The work and memory budget the run is held to (default: the page's, PAGE_BUDGET). */
  budget?: RunBudget;
  /** A policy that replaces the scenario's own (the CLI's --policy): its text and name for messages. */
  policy?: { text: string; file: string };
  /**
   * The rows of the scenario's `trace:` file when the caller has them already (the page's dropped
   * file); null: attach none (the CLI's --replay reads another file). Undefined: read `trace.file`
   * through `readTrace`, else through `readFile` (whole text; small files), else attach none.
   */
  trace?: TraceTable | null;
  /**
   * A trace table the caller already holds under this file name (the page's dropped files), used
   * before `readTrace` for the top-level trace and every trace client; null: not held.
   */
  heldTrace?: (file: string, opts: TraceReadOptions) => TraceTable | null;
  /** Reads and parses a trace file relative to the scenario (the CLI streams it). */
  readTrace?: (relPath: string, opts: TraceReadOptions) => TraceReadResult;
}

/** The keys of a trace section (top-level or a client's) that say how to read its file. */
type TraceReadingSpec = Pick<TraceSpec, 'format' | 'block_tokens' | 'columns' | 'time_unit'>;

/** The trace parser's options from a scenario's `trace:` section (or a client's). */
export function traceReadOptions(t: TraceReadingSpec | undefined): TraceReadOptions {
  if (t === undefined) return {};
  const o: TraceReadOptions = {
    format: t.format,
    blockTokens: t.block_tokens,
    maxTokens: SCENARIO_LIMITS.maxTokens,
  };
  if (t.columns !== undefined) o.columns = t.columns;
  if (t.time_unit !== undefined) o.timeUnit = t.time_unit;
  return o;
}

/**
 * The trace files a scenario text names (top-level `trace.file` and every client's) with the options
 * it reads each with, as far as the text is readable; for the page, to read a dropped file the
 * scenario's way before it loads. Sections that do not validate are left out (the load reports them).
 */
export function traceReadingsOf(text: string): { file: string; opts: TraceReadOptions }[] {
  const parsed = parseYaml(text);
  if (!parsed.ok || !isMapping(parsed.value.value)) return [];
  const root = parsed.value.value;
  const sections: unknown[] = [root.trace];
  if (Array.isArray(root.clients)) for (const c of root.clients) if (isMapping(c)) sections.push(c.trace);
  const out: { file: string; opts: TraceReadOptions }[] = [];
  for (const section of sections) {
    const r = TraceReadingSchema.safeParse(section);
    if (r.success && r.data.file !== undefined)
      out.push({ file: r.data.file, opts: traceReadOptions(r.data) });
  }
  return out;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Problems of a referenced policy file, reported at the scenario's `at` position with the file's own line:col. */
function compileForeign(
  text: string,
  file: string,
  by: string,
  at: { line: number; col: number },
  path: Path,
): Result<CompiledPolicy> {
  const parsed = parseYaml(text);
  if (!parsed.ok) return { ok: false, problems: fromFile(parsed.problems, file, by, at, path) };
  const res = parsePolicyValue(parsed.value, []);
  return res.ok ? res : { ok: false, problems: fromFile(res.problems, file, by, at, path) };
}

/** Validate an already parsed YAML document as a scenario. */
export function validateScenario(parsed: ParsedYaml, opts: ParseScenarioOptions = {}): Result<Scenario> {
  const input = parsed.value;
  if (!isMapping(input)) {
    return {
      ok: false,
      problems: [problem(1, 1, 'a scenario must be a mapping with version, name, cluster, clients, ...')],
    };
  }
  const res = ScenarioInputSchema.safeParse(input);
  // one round (#15): the cross-field rules run beside the schema on every value it accepts
  const view = scenarioView(input);
  const problems: Problem[] = scenarioProblems(view).map((p) => {
    const at = parsed.locate(p.path, { key: p.key === true });
    return problem(at.line, at.col, p.message, p.path);
  });
  if (!res.success)
    problems.push(
      ...flattenIssues(res.error.issues, input).map((i) =>
        issueProblem(i, ScenarioInputSchema, parsed, input),
      ),
    );
  // (the budget is checked once the policy is compiled, beside its problems: its classes count)
  const schemaProblems = problems.length;

  // the policy: the CLI's --policy, router.policy, or router.policy_file as far as it is readable
  let policy: CompiledPolicy | null = null;
  const router = isMapping(input.router) ? input.router : {};
  const policyFile = routerCommon.policy_file.safeParse(router.policy_file);
  const hasPolicy = router.policy !== undefined && router.policy !== null;
  if (opts.policy) {
    const at = { line: 1, col: 1 };
    const compiled = compileForeign(opts.policy.text, opts.policy.file, '--policy', at, ['router', 'policy']);
    if (compiled.ok) policy = compiled.value;
    else problems.push(...compiled.problems);
  } else if (hasPolicy) {
    const compiled = parsePolicyValue(parsed, ['router', 'policy']);
    if (compiled.ok) policy = compiled.value;
    else problems.push(...compiled.problems);
  } else if (policyFile.success && policyFile.data !== undefined) {
    const file = policyFile.data;
    const path: Path = ['router', 'policy_file'];
    const at = parsed.locate(path);
    if (!opts.readFile) {
      problems.push(
        problem(
          at.line,
          at.col,
          'policy_file works from the command line only; paste the policy under router.policy here',
          path,
        ),
      );
    } else {
      let text: string | null = null;
      try {
        text = opts.readFile(file);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        problems.push(
          problem(at.line, at.col, `cannot read policy_file '${quote(String(file))}': ${why}`, path),
        );
      }
      if (text !== null) {
        const compiled = compileForeign(text, file, 'policy_file', at, path);
        if (compiled.ok) policy = compiled.value;
        else problems.push(...compiled.problems);
      }
    }
  }
  // a policy that failed to compile (or a policy_file not read) has its own problems; dynamo_release
  // is checked against one that did
  const policyGiven = opts.policy !== undefined || hasPolicy || router.policy_file !== undefined;
  if (policy !== null || !policyGiven)
    for (const p of releaseProblems(view, policy)) {
      const at = parsed.locate(p.path, { key: p.key === true });
      problems.push(problem(at.line, at.col, p.message, p.path));
    }
  const release = view.router.dynamo_release;
  if (policy !== null && known(release))
    for (const p of dueTimeProblems(view, policy.releases, release)) {
      const at = parsed.locate(p.path, { key: p.key === true });
      problems.push(problem(at.line, at.col, p.message, p.path));
    }
  if (res.success && schemaProblems === 0) {
    const input = { ...res.data, policyClasses: policyClassCount(policy) };
    const over = budgetProblem(estimateRun(input, opts.trace ?? null), opts.budget ?? PAGE_BUDGET);
    if (over !== null) {
      const at = parsed.locate(['duration_s'], { key: true });
      problems.push(problem(at.line, at.col, over, ['duration_s']));
    }
  }
  // the traces are read once the whole scenario is readable
  if (!res.success) return { ok: false, problems: sortProblems(problems) };
  // the trace files: the top-level trace's and every trace client's, each file read once per set of
  // reading options (two clients replaying one file share its table)
  const tables = new Map<string, TraceTable | null>();
  const readOne = (file: string, spec: TraceReadingSpec, path: Path): TraceTable | null => {
    const at = parsed.locate(path);
    const held = opts.heldTrace?.(file, traceReadOptions(spec)) ?? null;
    if (held !== null) return held;
    if (!opts.readTrace && !opts.readFile) return null;
    const key = JSON.stringify([file, traceReadOptions(spec)]);
    const known = tables.get(key);
    if (known !== undefined) return known;
    let read: TraceReadResult | null = null;
    try {
      read = opts.readTrace
        ? opts.readTrace(file, traceReadOptions(spec))
        : readTraceText(file, (opts.readFile as (p: string) => string)(file), traceReadOptions(spec));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      problems.push(
        problem(at.line, at.col, `cannot read trace file '${quote(String(file))}': ${why}`, path),
      );
    }
    let table: TraceTable | null = null;
    if (read !== null) {
      if (read.ok) table = read.value;
      else {
        // a `columns` entry naming a column the header lacks is the scenario's mistake: at that key;
        // the others each at its place in the trace (a problem of the file as a whole at 1:1), the
        // last counting what was left out at the first of those
        const section = path.slice(0, -1);
        const inFile: TraceProblem[] = [];
        for (const p of read.problems) {
          const role = p.column !== undefined && spec.columns?.[p.column] !== undefined ? p.column : null;
          if (role === null) {
            inFile.push(p);
            continue;
          }
          const at = [...section, 'columns', role];
          const key = parsed.locate(at);
          problems.push(problem(key.line, key.col, `${quote(file)}: ${p.message}`, at));
        }
        const listed = inFile.map((p) => ({
          line: Math.max(1, p.line),
          col: Math.max(1, p.col ?? 1),
          message: p.message,
        }));
        if (read.more > 0) {
          const from = read.moreFrom ?? { line: 1, message: '' };
          listed.push({
            line: Math.max(1, from.line),
            col: Math.max(1, from.col ?? 1),
            message: moreProblemsMessage(read.more),
          });
        }
        problems.push(...fromFile(listed, file, pathText(path), at, path));
      }
    }
    tables.set(key, table);
    return table;
  };
  let traceData: TraceTable | null = opts.trace ?? null;
  const spec = res.data.trace;
  const checked = problems.length === 0;
  if (opts.trace === undefined && spec?.file !== undefined)
    traceData = readOne(spec.file, spec, ['trace', 'file']);
  // --replay (trace: null) replaces the clients too: their trace files are not read
  const clients =
    opts.trace === null
      ? res.data.clients
      : res.data.clients.map((c, i) =>
          'trace' in c
            ? {
                ...c,
                trace: { ...c.trace, data: readOne(c.trace.file, c.trace, ['clients', i, 'trace', 'file']) },
              }
            : c,
        );
  // a client's select_client must name someone in the file's client column
  clients.forEach((c, i) => {
    // (without columns.client the rule above has said what is missing)
    if (!('trace' in c) || c.trace.data === null || c.trace.select_client === undefined) return;
    if (c.trace.columns?.client === undefined) return;
    const why = selectClientProblem(c.trace.data, quote(c.trace.file), c.trace.select_client);
    if (why === null) return;
    const path = ['clients', i, 'trace', 'select_client'];
    const at = parsed.locate(path);
    problems.push(problem(at.line, at.col, why, path));
  });
  if (
    checked &&
    problems.length === 0 &&
    (traceData !== null || clients.some((c) => 'trace' in c && c.trace.data !== null))
  ) {
    // the budget again, now that the traces' rows are known
    const input = { ...res.data, clients, policyClasses: policyClassCount(policy) };
    const over = budgetProblem(estimateRun(input, traceData), opts.budget ?? PAGE_BUDGET);
    if (over !== null) {
      const at = parsed.locate(['duration_s'], { key: true });
      problems.push(problem(at.line, at.col, over, ['duration_s']));
    }
  }
  if (problems.length > 0) return { ok: false, problems: sortProblems(problems) };
  const { trace, ...rest } = res.data;
  const scenario: Scenario = { ...rest, clients, router: { ...res.data.router, policy } };
  if (trace !== undefined) scenario.trace = { ...trace, data: traceData };
  return { ok: true, value: scenario };
}

/** Parse and validate a scenario file's text. */
export function parseScenarioText(text: string, opts: ParseScenarioOptions = {}): Result<Scenario> {
  const parsed = parseYaml(text);
  if (!parsed.ok) return parsed;
  return validateScenario(parsed.value, opts);
}

/** Validate a scenario given as a plain value (e.g. from a share link); positions refer to its YAML form. */
export function parseScenarioValue(value: unknown, opts: ParseScenarioOptions = {}): Result<Scenario> {
  return parseScenarioText(stringify(value), opts);
}
