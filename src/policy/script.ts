/**
 * The arbitration script format (spec/scenario.md §3): a policy (inline, or `policy_file` for the
 * CLI), a worker count, and a list of enqueue/pop ops that drive the policy-class queue alone.
 * Parsed and checked here with positions; the runner lives in src/core/drr/script-runner.ts.
 */
import { z } from 'zod';
import { profileIndexFor, profileList } from '../core/drr/classify';
import type { ArbitrationScript, CompiledPolicy, ScriptOp } from '../core/drr/types';
import {
  didYouMean,
  type ParsedYaml,
  type Path,
  type Problem,
  parseYaml,
  type Result,
  sortProblems,
  validate,
  quote,
  nameList,
} from '../format/yaml';
import { Reporter } from '../format/reporter';
import { SCENARIO_KEYS } from './detect';
import { releaseRangeText } from './generations';
import { parsePolicyText, parsePolicyValue, valueAt } from './parse';
import { policyJsonSchema, typeError, uint } from './schema';

const MAX_POP_COUNT = 1_000_000;
/**
 * Most steps (enqueues plus arbitrations, a pop counting its `count`) one script may run: each step
 * keeps its output line (the CLI ~230 bytes, the page ~90), so a 780 kB script of 30,000
 * `pop: {count: 1000000}` ops grew the CLI past 4 GB within a minute and would have taken a tab
 * down; 2,000,000 steps hold ~460 MB and run in seconds.
 */
export const MAX_SCRIPT_STEPS = 2_000_000;
const MAX_WORKERS = 1_000_000;

const enqueueSchema = z
  .strictObject(
    {
      id: z
        .string({ error: typeError('id must be a string') })
        .min(1, { error: 'id must not be empty' })
        .optional()
        .meta({
          description: 'Request id shown in the output (default: req<op index>). Unique in the script.',
        }),
      class: z
        .string({ error: typeError('class must be a string') })
        .optional()
        .meta({
          description:
            'Requested class name, resolved like a request header: explicit class, else family (unknown -> default family), then bucket.',
        }),
      cost: uint('cost', 1).optional().meta({
        description: 'Shorthand for isl: N, cached: 0 (scheduling cost N). Give cost or isl, not both.',
      }),
      isl: uint('isl').optional().meta({ description: 'Raw input tokens of the request.' }),
      cached: uint('cached').optional().meta({
        description: 'Prefix-cache tokens (capped at isl); cost = max(1, isl - cached). Default 0.',
      }),
      priority: z
        .number({ error: typeError('priority must be a finite number') })
        .optional()
        .meta({ description: 'Soft priority jump (float, negatives count as 0). Default 0.' }),
      strict_priority: uint('strict_priority')
        .optional()
        .meta({ description: 'Strict priority tier (whole number; higher tiers leave first). Default 0.' }),
      arrival: z
        .number({ error: typeError('arrival must be a finite number of seconds') })
        .min(0, { error: 'arrival must be ≥ 0' })
        .optional()
        .meta({ description: 'Arrival time in seconds (FCFS score). Default: the op index.' }),
      model: z
        .string({ error: typeError('model must be a string') })
        .min(1, { error: 'model must not be empty' })
        .optional()
        .meta({ description: "Model name: picks that model's profile from the policy's models map." }),
      worker: uint('worker').optional().meta({
        description:
          "Pin the request to this worker (0-based index below workers). From Dynamo v1.4 it waits in its class's exact-worker lane, so a busy worker holds back only its own lane.",
      }),
      due_at: z
        .number({ error: typeError('due_at must be a number of seconds') })
        .min(0, { error: 'due_at must be ≥ 0' })
        .optional()
        .meta({
          description:
            'Due time in seconds, as a request_classifier sets it (Dynamo v1.6+): within its strict tier the request goes before those without one, earliest first; a pop whose `at` is past it sheds the request unserved.',
        }),
    },
    { error: typeError('enqueue takes a mapping, e.g. {id: a0, class: A, cost: 3}') },
  )
  .meta({ description: 'Add one request to the queue (queue limits are checked first).' });

const popSchema = z
  .strictObject(
    {
      count: uint('count', 1, MAX_POP_COUNT)
        .optional()
        .meta({ description: 'Number of arbitrations (one output line each). Default 1.' }),
      blocked: z
        .array(z.string({ error: typeError('a blocked entry must be a class name') }), {
          error: 'blocked must be a list of class names',
        })
        .optional()
        .meta({
          description:
            'Classes whose heads are not dispatchable during these pops (they keep credit, earn none).',
        }),
      model: z
        .string({ error: typeError('model must be a string') })
        .min(1, { error: 'model must not be empty' })
        .optional()
        .meta({
          description: "Arbitrate this model's profile (default: the profile of the script's first enqueue).",
        }),
      busy_workers: z
        .array(uint('a busy_workers entry'), { error: 'busy_workers must be a list of worker indexes' })
        .optional()
        .meta({
          description:
            'Workers that are busy during these pops: heads pinned to them are not dispatchable; unpinned heads wait only when every worker is busy.',
        }),
      at: z
        .number({ error: typeError('at must be a number of seconds') })
        .min(0, { error: 'at must be ≥ 0' })
        .optional()
        .meta({
          description:
            'Simulated time of these pops in seconds: class heads whose due_at is before it are shed (due_at equal to it is still live). Default: nothing expires.',
        }),
    },
    { error: typeError('pop takes a mapping, e.g. {count: 2, blocked: [A]}, or nothing') },
  )
  .nullable()
  .meta({ description: 'Arbitrate: DRR picks the next request among the dispatchable class heads.' });

const opSchema = z
  .strictObject(
    {
      enqueue: enqueueSchema.optional(),
      pop: popSchema.optional(),
    },
    { error: typeError('an op is a mapping: `enqueue: {...}` or `pop: {...}`') },
  )
  .meta({ description: 'One op: `enqueue: {...}` or `pop: {...}`.' });

export const scriptSchema = z
  .strictObject(
    {
      name: z.string().optional().meta({ description: 'Title shown in the playground.' }),
      description: z
        .string()
        .optional()
        .meta({ description: 'What to look for, step by step (markdown allowed).' }),
      // Checked by the policy format itself (parsePolicyValue), so a script's inline policy gets
      // exactly the messages a policy file gets; the JSON Schema puts the policy schema here.
      policy: z.unknown().optional().meta({
        description: 'A Dynamo policy inline. Omit it (and policy_file) for the synthetic `default` class.',
      }),
      policy_file: z.string().min(1).optional().meta({
        description: 'Path of a policy file relative to this script (CLI only); instead of policy.',
      }),
      workers: uint('workers', 1, MAX_WORKERS)
        .optional()
        .meta({ description: 'Worker count that scales the per-worker queue limits. Default 1.' }),
      variant: z.enum(['v1', 'v2'], { error: "variant must be 'v1' or 'v2'" }).optional().meta({
        description:
          "DRR cursor rule: 'v2' (the router's code, with carry; default) or 'v1' (the docs' rule).",
      }),
      release: z
        .enum(['v1.3', 'v1.4', 'v1.5', 'v1.6'], {
          error: "release must be one of 'v1.3', 'v1.4', 'v1.5', 'v1.6'",
        })
        .optional()
        .meta({
          description:
            "The Dynamo release line whose queue to model: 'v1.3' has no exact-worker lanes (a pinned, blocked head blocks its class); 'v1.4' and later have them; due_at needs 'v1.6'. An enqueue op always stores its request, in every release (whether an arrival is stored at all is the router's decision, modelled in cluster runs). Default 'v1.6'.",
        }),
      preload: z.boolean({ error: 'preload must be true or false' }).optional().meta({
        description:
          'Playground only: run the enqueue ops before the first pop when the script loads, so step 1 is the first arbitration (the CLI runs every op as usual). Default false.',
      }),
      ops: z
        .array(opSchema, { error: typeError('ops must be a list') })
        .meta({ description: 'The ops, run in order.' }),
    },
    { error: typeError('an arbitration script must be a mapping with an ops list') },
  )
  .meta({ description: 'Arbitration script: drives the policy-class DRR queue alone, step by step.' });

type RawScript = z.output<typeof scriptSchema>;

export interface ScriptOptions {
  /** Reads a `policy_file` given relative to the script; without it such scripts skip policy checks. */
  readFile?: (relPath: string) => string;
  /**
   * The policy the script runs with in place of its own (the playground's Policy tab): the ops'
   * class names and the release are checked against it. The script's own policy is still read, and
   * its problems reported, since they are in the script's text.
   */
  policy?: CompiledPolicy;
}

/** The policy the ops and the release are checked against: the one given in place, else the script's. */
function runPolicy(own: { policy: CompiledPolicy | null; known: boolean }, opts: ScriptOptions) {
  return opts.policy !== undefined ? { policy: opts.policy, known: true } : own;
}

/** Load the policy a script uses: inline, from policy_file, or none. Problems are positioned in the script. */
function scriptPolicy(
  raw: Pick<RawScript, 'policy' | 'policy_file'>,
  parsed: ParsedYaml,
  r: Reporter,
  opts: ScriptOptions,
): { policy: CompiledPolicy | null; known: boolean } {
  if (raw.policy !== undefined && raw.policy_file !== undefined) {
    r.at(['policy_file'], 'give policy or policy_file, not both', { key: true });
    return { policy: null, known: false };
  }
  if (raw.policy !== undefined) {
    const res = parsePolicyValue(parsed, ['policy'], { explicitOnlyShorthand: true });
    if (!res.ok) {
      r.problems.push(...res.problems);
      return { policy: null, known: false };
    }
    return { policy: res.value, known: true };
  }
  if (raw.policy_file !== undefined) {
    if (!opts.readFile) return { policy: null, known: false };
    let text: string;
    try {
      text = opts.readFile(raw.policy_file);
    } catch (err) {
      const why = err instanceof Error ? `: ${err.message}` : '';
      r.at(
        ['policy_file'],
        `cannot read policy_file '${quote(String(raw.policy_file))}' (relative to this script)${why}`,
      );
      return { policy: null, known: false };
    }
    const res = parsePolicyText(text);
    if (!res.ok) {
      r.from(res.problems, raw.policy_file, ['policy_file']);
      return { policy: null, known: false };
    }
    return { policy: res.value, known: true };
  }
  return { policy: null, known: true };
}

/**
 * What the op rules read beside the ops. A broken input is null: every rule that needs it is skipped
 * (the schema reports it), so each mistake gets one message, in the same round as the schema's.
 */
interface OpContext {
  policy: CompiledPolicy | null;
  /** Whether the policy is readable (none at all counts: the synthetic class); class names are checked only then. */
  policyKnown: boolean;
  /** The worker count, or null when `workers` is broken. */
  workers: number | null;
  /** The release as written (undefined: not written), or null when broken. */
  release: RawScript['release'] | null;
}

type Mapping = { readonly [key: string]: unknown };

function isMapping(v: unknown): v is Mapping {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A field read with its own schema: its value, or null when the schema refuses it. */
function readable<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  v: unknown,
) {
  const res = schema.safeParse(v);
  return res.success ? { value: res.data } : null;
}

/**
 * The op rules (kinds, cost or isl, ids, classes, workers, due_at's release, blocked classes), on the
 * document's ops as written: each op and field is read on its own, so they run beside the schema's
 * problems (one round, #15) and skip only what the schema refuses.
 */
function checkOps(ops: readonly unknown[], ctx: OpContext, r: Reporter): void {
  const profiles = profileList(ctx.policy);
  // the profile of the script's first enqueue (the pops' default): undefined until one is seen,
  // null when its model is unreadable
  let first: number | null | undefined;
  const idAt = new Map<string, number>();
  const workersText = (w: number) =>
    `worker ${w} is not one of the script's ${ctx.workers} worker(s) (0-based)`;
  const pops: { i: number; pop: Mapping }[] = [];
  ops.forEach((op, i) => {
    if (!isMapping(op)) return;
    const p: Path = ['ops', i];
    const kinds = (['enqueue', 'pop'] as const).filter((k) => k in op);
    if (kinds.length !== 1) {
      // an op with a key the schema refuses (a typo of enqueue) gets the schema's message alone
      if (Object.keys(op).every((k) => k === 'enqueue' || k === 'pop'))
        r.at(
          p,
          kinds.length === 0
            ? 'an op needs `enqueue: {...}` or `pop: {...}`'
            : 'an op is either enqueue or pop, not both',
        );
      return;
    }
    if (kinds[0] === 'pop') {
      const pop = op.pop ?? {};
      if (isMapping(pop)) pops.push({ i, pop });
      return;
    }
    const e = op.enqueue;
    const ep = [...p, 'enqueue'];
    if (!isMapping(e)) {
      if (first === undefined) first = null;
      return;
    }
    const f = enqueueSchema.shape;
    const cost = readable(f.cost, e.cost);
    const isl = readable(f.isl, e.isl);
    const cached = readable(f.cached, e.cached);
    if (
      cost?.value !== undefined &&
      isl !== null &&
      cached !== null &&
      (isl.value !== undefined || cached.value !== undefined)
    )
      r.at([...ep, 'cost'], 'cost is shorthand for isl: N, cached: 0; give cost or isl/cached, not both', {
        key: true,
      });
    // a key the schema refuses may be the cost misspelt ('cots: 3'): the schema's message alone
    const unknownKey = Object.keys(e).some((k) => !(k in f));
    if (e.cost === undefined && e.isl === undefined && !unknownKey)
      r.at(ep, 'an enqueue needs cost (uncached tokens) or isl (raw input tokens, with optional cached)');
    const idRead = readable(f.id, e.id);
    if (idRead !== null) {
      const id = idRead.value ?? `req${i}`;
      const seen = idAt.get(id);
      if (seen !== undefined)
        r.at(
          [...ep, 'id'],
          `duplicate request id '${quote(String(id))}' (first at line ${r.lineOf(['ops', seen])})`,
        );
      else idAt.set(id, i);
    }
    const model = readable(f.model, e.model);
    const profileIndex = model !== null ? profileIndexFor(profiles, model.value ?? null) : null;
    if (first === undefined) first = profileIndex;
    const cls = readable(f.class, e.class);
    if (ctx.policyKnown && ctx.policy && cls?.value !== undefined && profileIndex !== null) {
      const profile = profiles[profileIndex];
      const names = profile.classes.map((c) => c.name);
      if (profile.families.length === 0 && !names.includes(cls.value)) {
        const hint = didYouMean(cls.value, names);
        r.at(
          [...ep, 'class'],
          `unknown class '${quote(String(cls.value))}'${hint ? ` (did you mean '${hint}'?)` : ''}; classes of profile '${quote(String(profile.name))}': ${nameList(names)}`,
        );
      }
    }
    const worker = readable(f.worker, e.worker);
    if (worker?.value !== undefined && ctx.workers !== null && worker.value >= ctx.workers)
      r.at([...ep, 'worker'], workersText(worker.value));
    const due = readable(f.due_at, e.due_at);
    if (
      due?.value !== undefined &&
      ctx.release !== null &&
      ctx.release !== undefined &&
      ctx.release !== 'v1.6'
    )
      r.at(
        [...ep, 'due_at'],
        `due_at comes from a request_classifier, which Dynamo has from v1.6.0; this script models ${ctx.release}`,
        { key: true },
      );
  });
  // Busy workers must exist; blocked names must be classes of the profile the pop arbitrates.
  const popFields = popSchema.unwrap().shape;
  for (const { i, pop } of pops) {
    const busy = readable(popFields.busy_workers, pop.busy_workers);
    (busy?.value ?? []).forEach((w, j) => {
      if (ctx.workers !== null && w >= ctx.workers)
        r.at(['ops', i, 'pop', 'busy_workers', j], workersText(w));
    });
    const blocked = readable(popFields.blocked, pop.blocked);
    if (!ctx.policyKnown || !blocked?.value) continue;
    const model = readable(popFields.model, pop.model);
    const idx =
      model === null
        ? null
        : model.value !== undefined
          ? profileIndexFor(profiles, model.value)
          : first === undefined
            ? 0
            : first;
    if (idx === null) continue;
    const names = profiles[idx].classes.map((c) => c.name);
    blocked.value.forEach((b, j) => {
      if (names.includes(b)) return;
      const hint = didYouMean(b, names);
      r.at(
        ['ops', i, 'pop', 'blocked', j],
        `unknown class '${quote(String(b))}'${hint ? ` (did you mean '${hint}'?)` : ''}; classes of profile '${quote(String(profiles[idx].name))}': ${nameList(names)}`,
      );
    });
  }
}

/** The runnable ops of a script that passed the schema and the op rules. */
/** The script's steps within MAX_SCRIPT_STEPS: reported at the op that passes it. */
function checkLength(raw: RawScript, r: Reporter): void {
  let steps = 0;
  for (let i = 0; i < raw.ops.length; i++) {
    steps += raw.ops[i].pop?.count ?? 1;
    if (steps > MAX_SCRIPT_STEPS) {
      let total = steps;
      for (let k = i + 1; k < raw.ops.length; k++) total += raw.ops[k].pop?.count ?? 1;
      const n = (x: number) => x.toLocaleString('en-US');
      r.at(
        ['ops', i],
        `ops[${i}]: the script runs ${n(total)} steps (an enqueue is one, a pop as many as its count), ${n(steps)} by this op; the limit is ${n(MAX_SCRIPT_STEPS)}. Lower the counts or split the script`,
      );
      return;
    }
  }
}

function buildOps(raw: RawScript): ScriptOp[] {
  return raw.ops.map((op, i): ScriptOp => {
    if (op.enqueue !== undefined) {
      const e = op.enqueue;
      return {
        kind: 'enqueue',
        id: e.id ?? `req${i}`,
        worker: e.worker ?? null,
        dueS: e.due_at ?? null,
        requestedClass: e.class ?? null,
        model: e.model ?? null,
        rawIsl: e.cost ?? e.isl ?? 0,
        cachedTokens: e.cost !== undefined ? 0 : (e.cached ?? 0),
        priority: e.priority ?? 0,
        strictPriority: e.strict_priority ?? 0,
        arrivalS: e.arrival ?? i,
      };
    }
    const pop = op.pop ?? {};
    return {
      kind: 'pop',
      count: pop.count ?? 1,
      blocked: pop.blocked ?? [],
      busyWorkers: pop.busy_workers ?? [],
      at: pop.at ?? null,
      model: pop.model ?? null,
    };
  });
}

/** The release the script models must accept its policy. */
function checkRelease(written: RawScript['release'], policy: CompiledPolicy | null, r: Reporter): void {
  const release = written ?? 'v1.6';
  if (policy?.releases && !policy.releases.includes(release))
    r.at(
      written !== undefined ? ['release'] : ['policy'],
      `the policy is valid for ${releaseRangeText(policy.releases)} only, not ${release}${written === undefined ? ' (the default release; set release:)' : ''}`,
      { key: true },
    );
}

/**
 * Problems beside the schema's when the script fails it elsewhere (one round, #15): its policy's
 * (inline, or a readable policy_file), the release check when the release and the policy are
 * readable, and the op rules on every op and field the schema does not refuse.
 */
function besideSchema(parsed: ParsedYaml, opts: ScriptOptions): Problem[] {
  const r = new Reporter(parsed);
  const doc = valueAt(parsed.value, []);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return [];
  const shape = scriptSchema.shape;
  const file = shape.policy_file.safeParse(valueAt(parsed.value, ['policy_file']));
  const policyValue = valueAt(parsed.value, ['policy']);
  // an unreadable policy_file: no policy to check the release and the class names against
  const { policy, known } = runPolicy(
    policyValue === undefined && !file.success
      ? { policy: null, known: false }
      : scriptPolicy(
          { policy: policyValue, policy_file: file.success ? file.data : undefined },
          parsed,
          r,
          opts,
        ),
    opts,
  );
  const release = shape.release.safeParse(valueAt(parsed.value, ['release']));
  if (release.success && (policyValue !== undefined || file.success || opts.policy !== undefined))
    checkRelease(release.data, policy, r);
  const workers = shape.workers.safeParse(valueAt(parsed.value, ['workers']));
  const ops = valueAt(parsed.value, ['ops']);
  if (Array.isArray(ops))
    checkOps(
      ops,
      {
        policy,
        policyKnown: known,
        workers: workers.success ? (workers.data ?? 1) : null,
        release: release.success ? release.data : null,
      },
      r,
    );
  return r.problems;
}

/**
 * A top-level key of a cluster scenario in a file with `ops` (a scenario and a script pasted into one
 * file): the message says why the file is read as a script, so the fix (split it, or drop `ops`) is plain.
 */
function scenarioKeyHint(p: Problem): Problem {
  const key = p.path.length === 1 ? p.path[0] : undefined;
  if (typeof key !== 'string' || !SCENARIO_KEYS.includes(key) || !p.message.startsWith('unknown key'))
    return p;
  const cut = p.message.indexOf(';');
  const head = cut < 0 ? p.message : p.message.slice(0, cut);
  const hint = " (a cluster scenario's key: this file has `ops`, so it is read as an arbitration script)";
  return { ...p, message: head + hint + (cut < 0 ? '' : p.message.slice(cut)) };
}

/** Validate a parsed script document and build the runnable script. */
export function parseScriptValue(parsed: ParsedYaml, opts: ScriptOptions = {}): Result<ArbitrationScript> {
  const res = validate(scriptSchema, parsed);
  if (!res.ok)
    return {
      ok: false,
      problems: sortProblems([...res.problems.map(scenarioKeyHint), ...besideSchema(parsed, opts)]),
    };
  const raw = res.value;
  const r = new Reporter(parsed);
  const { policy, known } = runPolicy(scriptPolicy(raw, parsed, r, opts), opts);
  checkOps(raw.ops, { policy, policyKnown: known, workers: raw.workers ?? 1, release: raw.release }, r);
  // one round (#15): the release check does not wait for the ops' problems
  checkRelease(raw.release, policy, r);
  checkLength(raw, r);
  if (r.problems.length > 0) return { ok: false, problems: sortProblems(r.problems) };
  const ops = buildOps(raw);
  const release = raw.release ?? 'v1.6';
  const script: ArbitrationScript = {
    policy,
    workers: raw.workers ?? 1,
    variant: raw.variant ?? 'v2',
    release,
    ops,
  };
  if (raw.policy_file !== undefined && !opts.readFile && opts.policy === undefined)
    script.unreadPolicyFile = raw.policy_file;
  if (raw.preload === true) script.preload = true;
  if (raw.name !== undefined) script.name = raw.name;
  if (raw.description !== undefined) script.description = raw.description;
  return { ok: true, value: script };
}

/**
 * A parsed script run with the playground's policy text in place of its own policy (when the text is
 * given and not blank; the explicit-classes shorthand is accepted, as in scripts). Problems say which
 * text they belong to.
 */
export function scriptWithPolicy(
  parsed: ParsedYaml,
  policyText?: string,
):
  | { ok: true; value: ArbitrationScript }
  | { ok: false; source: 'scenario' | 'policy'; problems: Problem[] } {
  let policy: CompiledPolicy | null = null;
  if (policyText !== undefined && policyText.trim() !== '') {
    const p = parseYaml(policyText);
    if (!p.ok) return { ok: false, source: 'policy', problems: p.problems };
    const compiled = parsePolicyValue(p.value, [], { explicitOnlyShorthand: true });
    if (!compiled.ok) return { ok: false, source: 'policy', problems: compiled.problems };
    policy = compiled.value;
  }
  // the ops' class names and the release are checked against the policy the script will run with
  const script = parseScriptValue(parsed, policy ? { policy } : {});
  if (!script.ok) return { ok: false, source: 'scenario', problems: script.problems };
  return script;
}

/** A script's text -> the runnable script, or every positioned problem. */
export function validateScriptText(text: string, opts: ScriptOptions = {}): Result<ArbitrationScript> {
  const parsed = parseYaml(text);
  if (!parsed.ok) return parsed;
  return parseScriptValue(parsed.value, opts);
}

/** Draft-07 JSON Schema of the script format (the policy subtree included). */
export function scriptJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(scriptSchema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  const props = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (props?.policy) {
    const policy = policyJsonSchema();
    delete policy.$schema;
    props.policy = { ...policy, description: props.policy.description };
  }
  return schema;
}
