/**
 * Import from BLIS (the LLM inference simulator): a workload spec (version 2) and, optionally, a
 * policy bundle become a Fairground scenario (spec/scenario.md §2), with one note per thing that
 * was approximated or left out. Invalid input gives positioned problems; a policy-bundle problem's
 * message starts with "policy bundle:" and its line:col is in the bundle text.
 *
 * What maps:
 * - `aggregate_rate` × each client's share of the (normalised) `rate_fraction`s → the client's rate;
 * - `arrival.process` poisson / gamma (cv) / constant directly, weibull as gamma with the same cv;
 * - input / output distributions → lengths (see blis-lengths.ts), the shared prefix of a
 *   `prefix_group` (`prefix_length`, BLIS default 50) → `prefix_group` + `shared_prefix_tokens`;
 * - `reasoning.multi_turn` → a `multi-turn` program (rounds, think time); a `lifecycle` window →
 *   the arrival's `start_s` / `stop_s`; `horizon` or `num_requests` → `duration_s`; `seed`;
 * - the bundle's `scheduler` → `scheduler.policy`; its routing → the closest `router.routing`.
 */
import { Document, isScalar, visit } from 'yaml';
import { MODEL_IDS } from '../core/cost/index';
import {
  type ParsedYaml,
  type Path,
  type Problem,
  parseYaml,
  problem,
  sortProblems,
  validate,
  quote,
} from '../format/yaml';
import { SCENARIO_LIMITS } from '../scenario/limits';
import { parseScenarioText } from '../scenario/parse';
import { mapLength, round3 } from './blis-lengths';
import {
  BLIS_SLO_CLASSES,
  BLIS_V1_SLO_CLASSES,
  type BlisBundle,
  type BlisClient,
  type BlisWorkload,
  bundleSchema,
  workloadSchema,
} from './blis-schema';

export type BlisImportResult =
  | { ok: true; scenarioYaml: string; notes: string[] }
  | { ok: false; problems: Problem[] };

/** Cluster used when the BLIS run's command line (instances, GPU, model) is not known. */
const DEFAULT_CLUSTER = { workers: 2, gpu: 'a100-80gb', model: 'llama-3.1-8b' } as const;
const DEFAULT_DURATION_S = 60;
const DEFAULT_SEED = 42;
/** BLIS's shared-prefix length when a client names a prefix_group without prefix_length. */
const BLIS_DEFAULT_PREFIX = 50;
const NAME_RE = /^[A-Za-z0-9_.-]+$/;

export function importBlis(workloadYaml: string, policyBundleYaml?: string): BlisImportResult {
  const problems: Problem[] = [];
  const workload = readDoc<BlisWorkload>(workloadYaml, workloadSchema, 'a BLIS workload spec', '', problems);
  let bundle: { value: BlisBundle; parsed: ParsedYaml } | null = null;
  if (policyBundleYaml !== undefined && policyBundleYaml.trim() !== '')
    bundle = readDoc<BlisBundle>(
      policyBundleYaml,
      bundleSchema,
      'a BLIS policy bundle',
      'policy bundle: ',
      problems,
    );
  if (!workload || problems.length > 0) return { ok: false, problems: sortProblems(problems) };

  const m = new Mapping(workload.parsed);
  const scenario = m.scenario(workload.value, bundle?.value ?? null);
  if (m.problems.length > 0 || !scenario) return { ok: false, problems: sortProblems(m.problems) };

  const notes = m.notes;
  scenario.description = describeImport(workload.value, bundle !== null, notes);
  let yaml = toYaml(scenario);
  const check = parseScenarioText(yaml);
  if (!check.ok) {
    const first = check.problems[0];
    notes.push(
      `the imported scenario needs an edit before it runs: line ${first.line}: ${first.message}${check.problems.length > 1 ? ` (and ${check.problems.length - 1} more)` : ''}`,
    );
    scenario.description = describeImport(workload.value, bundle !== null, notes);
    yaml = toYaml(scenario);
  }
  return { ok: true, scenarioYaml: yaml, notes };
}

// ---- reading -------------------------------------------------------------------------------------------

function readDoc<T>(
  text: string,
  schema: Parameters<typeof validate>[0],
  what: string,
  prefix: string,
  problems: Problem[],
): { value: T; parsed: ParsedYaml } | null {
  const parsed = parseYaml(text);
  const tag = (ps: Problem[]) => ps.map((p) => ({ ...p, message: `${prefix}${p.message}` }));
  if (!parsed.ok) {
    problems.push(...tag(parsed.problems));
    return null;
  }
  const v = parsed.value.value;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    problems.push(problem(1, 1, `${prefix}expected ${what}: a YAML mapping of keys`));
    return null;
  }
  const res = validate(schema, parsed.value);
  if (!res.ok) {
    problems.push(...tag(res.problems));
    return null;
  }
  return { value: res.value as T, parsed: parsed.value };
}

// ---- mapping -------------------------------------------------------------------------------------------

interface ScenarioOut {
  version: 1;
  name: string;
  description: string;
  seed: number;
  duration_s: number;
  cluster: Record<string, unknown>;
  router: Record<string, unknown>;
  scheduler: Record<string, unknown>;
  clients: Record<string, unknown>[];
}

interface ClientOut {
  entry: Record<string, unknown>;
  /** Requests one arrival submits (rounds of a conversation, else 1). */
  perArrival: number;
  rate: number;
}

class Mapping {
  readonly notes: string[] = [];
  readonly problems: Problem[] = [];
  private readonly names = new Set<string>();

  constructor(private readonly parsed: ParsedYaml) {}

  private fail(path: Path, message: string, key = false): void {
    const at = this.parsed.locate(path, { key });
    this.problems.push(problem(at.line, at.col, message, path));
  }

  scenario(w: BlisWorkload, bundle: BlisBundle | null): ScenarioOut | null {
    const version = w.version === undefined ? '2' : String(w.version);
    if (version !== '1' && version !== '2')
      this.notes.push(`version ${version} is not one this importer knows: read as version 2`);

    const all = w.clients ?? [];
    const rateBased = all.map((c, i) => ({ c, i })).filter(({ c }) => !(c.concurrency && c.concurrency > 0));
    for (const { c, i } of all.map((c, i) => ({ c, i })))
      if (c.concurrency && c.concurrency > 0)
        this.notes.push(
          `clients[${i}]${c.id ? ` (${c.id})` : ''}: closed-loop clients (concurrency ${c.concurrency}) have no Fairground counterpart yet, so it is left out`,
        );
    if (w.cohorts?.length)
      this.notes.push(
        `cohorts (${w.cohorts.length}) are not imported: list their members as clients to bring them over`,
      );
    if (w.servegen_data !== undefined)
      this.notes.push('servegen_data is not imported (it points to trace files)');
    if (w.inference_perf !== undefined) this.notes.push('inference_perf stages are not imported');

    if (rateBased.length === 0) {
      this.fail(
        w.clients ? ['clients'] : [],
        'nothing to import: the spec has no rate-based clients (cohorts, servegen_data, inference_perf and concurrency clients are not supported)',
      );
      return null;
    }
    const aggregate = w.aggregate_rate ?? 0;
    if (!(aggregate > 0))
      this.fail(w.aggregate_rate === undefined ? [] : ['aggregate_rate'], 'aggregate_rate must be > 0');
    for (const { c, i } of rateBased) {
      if (!(c.rate_fraction !== undefined && c.rate_fraction > 0))
        this.fail(
          c.rate_fraction === undefined ? ['clients', i] : ['clients', i, 'rate_fraction'],
          'rate_fraction must be > 0',
        );
      for (const key of ['arrival', 'input_distribution', 'output_distribution'] as const)
        if (c[key] === undefined)
          this.fail(['clients', i], `clients[${i}]: missing required key '${quote(String(key))}'`);
    }
    if (this.problems.length > 0) return null;

    const fractionSum = rateBased.reduce((s, { c }) => s + (c.rate_fraction ?? 0), 0);
    const clients: ClientOut[] = [];
    for (const { c, i } of rateBased) {
      const out = this.client(c, i, (aggregate * (c.rate_fraction ?? 0)) / fractionSum);
      if (out) clients.push(out);
    }
    if (this.problems.length > 0) return null;

    return {
      version: 1,
      name: scenarioName(clients),
      description: '',
      seed: this.seed(w.seed),
      duration_s: this.duration(w, clients),
      cluster: this.cluster(all),
      ...this.policies(bundle),
      clients: clients.map((c) => c.entry),
    };
  }

  private seed(seed: number | undefined): number {
    if (seed === undefined) return DEFAULT_SEED;
    if (seed >= 0 && seed <= 4_294_967_295) return seed;
    const folded = Math.abs(seed) % 4_294_967_296;
    this.notes.push(`seed ${seed} is outside 0 – 2^32−1: folded to ${folded}`);
    return folded;
  }

  private duration(w: BlisWorkload, clients: readonly ClientOut[]): number {
    const max = SCENARIO_LIMITS.maxDurationS;
    let d: number;
    if (w.horizon && w.horizon > 0) {
      d = w.horizon / 1e6;
      this.notes.push(
        `horizon ${w.horizon} µs → duration_s ${round3(d)}${w.num_requests ? `; BLIS would also stop after num_requests ${w.num_requests}, Fairground stops arrivals at duration_s only` : ''}`,
      );
    } else if (w.num_requests && w.num_requests > 0) {
      const perSecond = clients.reduce((s, c) => s + c.rate * c.perArrival, 0);
      d = w.num_requests / perSecond;
      this.notes.push(
        `num_requests ${w.num_requests} at about ${round3(perSecond)} requests/s → duration_s ${round3(d)} (Fairground stops arrivals at a time, not after a count)`,
      );
    } else {
      d = DEFAULT_DURATION_S;
      this.notes.push(`neither horizon nor num_requests is given: duration_s ${DEFAULT_DURATION_S}`);
    }
    if (d > max) {
      this.notes.push(`duration_s capped at ${max} (one simulated day)`);
      d = max;
    }
    return Math.max(0.001, round3(d));
  }

  private cluster(all: readonly BlisClient[]): Record<string, unknown> {
    const named = [...new Set(all.map((c) => c.model).filter((m): m is string => !!m))];
    const ids = [...new Set(named.map(modelProfile).filter((m): m is string => m !== null))];
    const out: Record<string, unknown> = { ...DEFAULT_CLUSTER };
    if (ids.length === 1) out.model = ids[0];
    if (named.length > 0 && (ids.length !== 1 || named.some((m) => modelProfile(m) === null)))
      this.notes.push(
        `client models (${named.join(', ')}) do not all match one model profile (${MODEL_IDS.join(', ')}): the cluster runs ${out.model}`,
      );
    this.notes.push(
      `BLIS takes the instance count, GPU and model on its command line, not in the spec: the cluster is ${out.workers} × ${out.gpu} running ${out.model}; edit cluster: to match your run`,
    );
    return out;
  }

  private client(c: BlisClient, i: number, rate: number): ClientOut | null {
    const name = this.uniqueName(c.id ?? c.tenant_id, i);
    const who = `client '${quote(String(name))}'`;
    if (c.id !== undefined && c.id !== name)
      this.notes.push(`${who}: id '${quote(String(c.id))}' renamed to a valid, unique client name`);
    const entry: Record<string, unknown> = { name };

    const slo = c.slo_class ?? '';
    if (slo in BLIS_V1_SLO_CLASSES) {
      entry.slo_class = BLIS_V1_SLO_CLASSES[slo];
      this.notes.push(
        `${who}: version-1 slo_class '${quote(String(slo))}' read as '${quote(String(entry.slo_class))}'`,
      );
    } else if ((BLIS_SLO_CLASSES as readonly string[]).includes(slo)) {
      if (slo !== '') entry.slo_class = slo;
    } else {
      this.fail(
        ['clients', i, 'slo_class'],
        `slo_class must be one of critical, standard, sheddable, batch, background (or empty)`,
      );
      return null;
    }

    // The shared prefix BLIS prepends to every prompt of a prefix group.
    let prefix = 0;
    if (c.prefix_group) {
      entry.prefix_group = validName(c.prefix_group);
      prefix = c.prefix_length && c.prefix_length > 0 ? c.prefix_length : BLIS_DEFAULT_PREFIX;
      if (!(c.prefix_length && c.prefix_length > 0))
        this.notes.push(
          `${who}: prefix_group without prefix_length: BLIS's default of ${BLIS_DEFAULT_PREFIX} shared tokens used`,
        );
      if (entry.prefix_group !== c.prefix_group)
        this.notes.push(
          `${who}: prefix_group '${quote(String(c.prefix_group))}' renamed to '${quote(String(entry.prefix_group))}'`,
        );
    } else if (c.prefix_length) {
      this.notes.push(`${who}: prefix_length without prefix_group shares nothing (in BLIS too): ignored`);
    }

    entry.arrival = this.arrival(c, rate, who);

    const mt = c.reasoning?.multi_turn ?? c.multi_turn;
    if (c.multi_turn && !c.reasoning?.multi_turn)
      this.notes.push(`${who}: multi_turn is read as reasoning.multi_turn (where BLIS expects it)`);
    const input = this.length(c, i, 'input_distribution', mt ? 0 : prefix, who);
    const output = this.length(c, i, 'output_distribution', 0, who);
    if (input === null || output === null) return null;

    let perArrival = 1;
    if (mt) {
      perArrival = mt.max_rounds;
      const program: Record<string, unknown> = {
        type: 'multi-turn',
        turns: mt.max_rounds,
        prompt_tokens: input,
        output_tokens: output,
        think_time_s: round3((mt.think_time_us ?? 0) / 1e6),
      };
      if (prefix > 0) program.shared_prefix_tokens = prefix;
      entry.program = program;
      if (mt.context_growth !== undefined && mt.context_growth !== 'accumulate')
        this.notes.push(
          `${who}: context_growth '${quote(String(mt.context_growth))}' is not modelled: every turn re-sends the whole conversation`,
        );
      if (mt.single_session)
        this.notes.push(`${who}: single_session is not modelled: each arrival starts a new conversation`);
    } else {
      const program: Record<string, unknown> = {
        type: 'single',
        prompt_tokens: input,
        output_tokens: output,
      };
      if (prefix > 0) {
        program.shared_prefix_tokens = prefix;
        this.notes.push(
          `${who}: prompt_tokens include the ${prefix}-token shared prefix (BLIS adds it to the input distribution)`,
        );
      }
      entry.program = program;
    }

    const ignored: string[] = [];
    if (c.tenant_id !== undefined && c.id !== undefined) ignored.push('tenant_id');
    if (c.model !== undefined) ignored.push('model (per-client models)');
    if (c.streaming) ignored.push('streaming');
    for (const k of [
      'network',
      'multimodal',
      'timeout',
      'closed_loop',
      'slo_target_us',
      'think_time_us',
    ] as const)
      if (c[k] !== undefined) ignored.push(k);
    const ratio = c.reasoning?.reason_ratio_distribution;
    if (
      ratio &&
      !(ratio.type === 'constant' && !ratio.params?.value) &&
      !(ratio.params && ratio.params.mean === 0 && ratio.params.max === 0)
    )
      ignored.push('reasoning.reason_ratio_distribution');
    if (ignored.length > 0) this.notes.push(`${who}: not modelled, left out: ${ignored.join(', ')}`);
    return { entry, perArrival, rate };
  }

  private arrival(c: BlisClient, rate: number, who: string): Record<string, unknown> {
    const a = c.arrival ?? { process: 'poisson' as const };
    let r = Math.max(1e-6, Number(rate.toPrecision(6)));
    if (r > SCENARIO_LIMITS.maxRate) {
      this.notes.push(`${who}: rate ${r}/s capped at ${SCENARIO_LIMITS.maxRate}/s`);
      r = SCENARIO_LIMITS.maxRate;
    }
    const out: Record<string, unknown> = { process: a.process === 'weibull' ? 'gamma' : a.process, rate: r };
    if (a.process === 'gamma' || a.process === 'weibull') {
      let cv = a.cv ?? 1;
      if (a.cv === undefined) this.notes.push(`${who}: ${a.process} arrivals without cv: cv 1 used`);
      if (cv < 0.05 || cv > 10) {
        const clipped = Math.min(10, Math.max(0.05, cv));
        this.notes.push(`${who}: cv ${cv} clipped to ${clipped} (Fairground's range is 0.05–10)`);
        cv = clipped;
      }
      out.cv = round3(cv);
      if (a.process === 'weibull')
        this.notes.push(`${who}: weibull arrivals approximated by gamma with the same cv (${out.cv})`);
    }
    if (a.shape !== undefined || a.scale !== undefined)
      this.notes.push(
        `${who}: arrival shape/scale are not used (the rate comes from aggregate_rate, the burstiness from cv)`,
      );
    const windows = c.lifecycle?.windows ?? [];
    if (windows.length > 0) {
      const start = Math.min(...windows.map((x) => x.start_us)) / 1e6;
      const stop = Math.max(...windows.map((x) => x.end_us)) / 1e6;
      if (start > 0) out.start_s = round3(start);
      out.stop_s = round3(Math.min(stop, SCENARIO_LIMITS.maxDurationS));
      if (windows.length > 1)
        this.notes.push(
          `${who}: ${windows.length} activity windows merged into one, ${round3(start)}–${round3(stop)} s`,
        );
      if (windows.some((x) => Object.keys(x).some((k) => k !== 'start_us' && k !== 'end_us')))
        this.notes.push(`${who}: per-window overrides of the lifecycle are not modelled`);
    }
    return out;
  }

  private length(
    c: BlisClient,
    i: number,
    key: 'input_distribution' | 'output_distribution',
    shift: number,
    who: string,
  ): unknown {
    const d = c[key];
    if (!d) return null;
    const res = mapLength(d, shift);
    if (!res.ok) {
      const path: Path = ['clients', i, key];
      if (res.param && d.params && res.param in d.params) path.push('params', res.param);
      this.fail(path, `clients[${i}].${key}: ${res.message}`);
      return null;
    }
    if (res.note)
      this.notes.push(`${who}: ${key === 'input_distribution' ? 'input' : 'output'}: ${res.note}`);
    return res.length;
  }

  private policies(b: BlisBundle | null): {
    router: Record<string, unknown>;
    scheduler: Record<string, unknown>;
  } {
    if (!b) {
      this.notes.push('no policy bundle: BLIS defaults used (round-robin routing, fcfs scheduler)');
      return { router: { routing: 'round-robin' }, scheduler: { policy: 'fcfs' } };
    }
    const scheduler = b.scheduler || 'fcfs';
    const routing = this.routing(b);
    const admission = b.admission?.policy ?? '';
    if (admission === 'token-bucket' || admission === 'reject-all')
      this.notes.push(
        `policy bundle: admission '${quote(String(admission))}' is not modelled: every request is admitted`,
      );
    if (b.admission?.slo_priorities)
      this.notes.push(
        'policy bundle: admission.slo_priorities is not modelled: SLO classes keep their fixed priorities (0, 1, 5, 6, 7)',
      );
    const priority = b.priority?.policy ?? '';
    if (priority === 'inverted-slo')
      this.notes.push(
        `policy bundle: priority 'inverted-slo' is not modelled: priority follows slo_class (try scheduler reverse-priority)`,
      );
    else if (priority === 'slo-based')
      this.notes.push('policy bundle: priority slo-based → priority from each client’s slo_class');
    this.notes.push(`policy bundle: scheduler ${scheduler} → scheduler.policy ${scheduler}`);
    return { router: { routing }, scheduler: { policy: scheduler } };
  }

  private routing(b: BlisBundle): string {
    const policy = b.routing?.policy || 'round-robin';
    const scorers = b.routing?.scorers ?? [];
    let out: string;
    let why: string;
    switch (policy) {
      case 'round-robin':
      case 'least-loaded':
        out = policy;
        why = 'the same policy';
        break;
      case 'prefix-affinity':
        out = 'kv-aware';
        why = 'the closest prefix-aware routing (prefix overlap weighed against load)';
        break;
      case 'weighted': {
        const names = scorers.map((s) => `${s.name}:${s.weight}`).join(', ');
        if (scorers.length === 0) {
          out = 'kv-aware';
          why = "BLIS's default scorers mix prefix affinity with queue depth and KV use, closest to kv-aware";
        } else if (scorers.some((s) => s.name === 'prefix-affinity')) {
          out = 'kv-aware';
          why = `scorers ${names} weigh prefix affinity against load, closest to kv-aware (kv_overlap_weight left at its default)`;
        } else {
          out = 'least-loaded';
          why = `scorers ${names} look at load only, closest to least-loaded`;
        }
        break;
      }
      default:
        out = 'round-robin';
        why = 'no counterpart (a deliberately pathological test policy), so round-robin is used';
    }
    this.notes.push(`policy bundle: routing ${policy} → router.routing ${out}: ${why}`);
    return out;
  }

  private uniqueName(raw: string | undefined, i: number): string {
    let base = raw ? validName(raw) : `client-${i + 1}`;
    if (base === '') base = `client-${i + 1}`;
    let name = base;
    for (let k = 2; this.names.has(name); k++) name = `${base.slice(0, 60)}-${k}`;
    this.names.add(name);
    return name;
  }
}

/** Letters, digits, `_`, `.` and `-` only, at most 64 characters (Fairground names). */
function validName(raw: string): string {
  if (NAME_RE.test(raw) && raw.length <= 64) return raw;
  return raw
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

/** The Fairground model profile a BLIS/HuggingFace model name refers to, if any. */
export function modelProfile(model: string): string | null {
  const m = model.toLowerCase();
  for (const id of MODEL_IDS) if (m.includes(id)) return id;
  return null;
}

function scenarioName(clients: readonly ClientOut[]): string {
  const names = clients.map((c) => String(c.entry.name));
  const name = `BLIS workload: ${names.join(', ')}`;
  return name.length <= 200 ? name : `BLIS workload: ${clients.length} clients`;
}

function describeImport(w: BlisWorkload, withBundle: boolean, notes: readonly string[]): string {
  const what = withBundle ? 'a BLIS workload spec and policy bundle' : 'a BLIS workload spec';
  const head = `Imported from ${what}${w.aggregate_rate ? ` (aggregate rate ${w.aggregate_rate} requests/s)` : ''}.`;
  const lines = notes.map((n) => `- ${n}`);
  let body = lines.join('\n');
  if (body.length > 18_000) body = `${body.slice(0, 18_000)}\n- …`;
  return `${head}\n\nWhat was mapped, approximated or left out:\n\n${body}\n`;
}

/** YAML text with small all-scalar mappings (arrivals, lengths) in flow style. */
function toYaml(scenario: ScenarioOut): string {
  const doc = new Document(scenario);
  visit(doc, {
    Map(_key, node, path) {
      // Deeper than a client entry: arrivals, lengths (the cluster, router and programs stay in block style).
      if (path.length > 4 && node.items.length <= 6 && node.items.every((it) => isScalar(it.value)))
        node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}
