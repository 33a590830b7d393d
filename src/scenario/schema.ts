/**
 * The scenario file format (shared spec/scenario.md §2) as a zod schema: the single authority for
 * key names, types, ranges and defaults. Every mapping is strict (unknown keys are errors with a
 * "did you mean" hint) and every key carries a description that becomes the editor's hover text.
 * Cross-field rules (unique names, limits, model fit) live in checks.ts.
 */
import { z } from 'zod';
import {
  ROUTING_ALGORITHMS,
  ROUTING_NAMES,
  type RoutingName,
  SCHEDULER_ALGORITHMS,
  SCHEDULER_NAMES,
  type SchedulerName,
} from '../core/algorithms/index';
import { GPU_IDS, GPUS, kvCapacityTokens, MODEL_IDS, MODELS } from '../core/cost/index';
import type { CompiledPolicy } from '../core/drr/types';
import { SLO_CLASSES, type SloClass } from '../core/workload/types';
import { arrivalSchema } from './arrival-schema';
import { int, label, name, num } from './fields';
import { SCENARIO_LIMITS } from './limits';
import { RELEASES } from '../policy/index';
import { programSchema } from './program-schema';
import { clientTraceSchema, traceSchema, type TraceSpec } from './trace-schema';
import type { TraceTable } from '../core/trace/types';

export { arrivalSchema, type ArrivalSpec } from './arrival-schema';
export { programSchema, type ProgramSpec, type ProgramType } from './program-schema';
export type { Distribution, Length, LengthInput } from './lengths';

const L = SCENARIO_LIMITS;

/** What the scenario format reads from an algorithm descriptor. */
interface Described<N extends string = string, S extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: N;
  readonly summary: string;
  readonly params: S;
}

const DEFAULT_SCHEDULER = SCHEDULER_NAMES[0];
/** Dynamo release lines a scenario's `router.dynamo_release` may name. */
const DYNAMO_RELEASES = RELEASES.map((r) => r.id);
const DEFAULT_ROUTING = ROUTING_NAMES[0];

function oneOf<T extends string>(what: string, values: readonly T[]) {
  return z.enum(values as [T, ...T[]], {
    error: `${what} must be one of ${values.map((v) => `'${v}'`).join(', ')}`,
  });
}

/** Router policies (`router.routing`), from the algorithm descriptors. */
export const ROUTINGS = ROUTING_NAMES;
export type Routing = RoutingName;

/** Worker-local schedulers (`scheduler.policy`), from the algorithm descriptors. */
export const SCHEDULER_POLICIES = SCHEDULER_NAMES;
export type SchedulerPolicy = SchedulerName;

// ---- cluster -----------------------------------------------------------------------------------------

export const chunkingSchema = z
  .strictObject({
    mode: oneOf('mode', ['fixed', 'dynamic'] as const)
      .default('fixed')
      .meta({
        description:
          "'fixed': prefill at most chunk_tokens per step; 'dynamic' (Vajra): the largest chunk whose predicted step time fits target_step_ms. Default fixed.",
      }),
    chunk_tokens: int('chunk_tokens', 1, 1_048_576)
      .optional()
      .meta({ description: 'Prefill chunk size for fixed chunking, tokens (default: max_batch_tokens).' }),
    target_step_ms: num('target_step_ms', 0, 10_000, true)
      .default(50)
      .meta({ description: 'Step-time target of dynamic chunking, ms (default 50).' }),
  })
  .meta({ description: 'Chunked prefill (Sarathi/Vajra). Default: fixed chunks of max_batch_tokens.' });

export const clusterInput = z
  .strictObject({
    workers: int('workers', 1, L.maxWorkers)
      .default(2)
      .meta({ description: `Data-parallel replicas (GPUs), 1–${L.maxWorkers} (default 2).` }),
    gpu: oneOf('gpu', GPU_IDS)
      .default('a100-80gb')
      .meta({ description: `GPU profile: ${GPU_IDS.join(', ')} (default a100-80gb).` }),
    model: oneOf('model', MODEL_IDS)
      .default('llama-3.1-8b')
      .meta({ description: `Model profile: ${MODEL_IDS.join(', ')} (default llama-3.1-8b).` }),
    kv_cache_tokens: z
      .union([z.literal('auto'), int('kv_cache_tokens', 1, 100_000_000)], {
        error: "kv_cache_tokens must be 'auto' or a whole number of tokens",
      })
      .default('auto')
      .meta({
        description:
          "KV-cache tokens per replica: 'auto' = (GPU memory × 0.9 − weights) / KV bytes per token (default), or a number (e.g. a small pool to provoke preemption).",
      }),
    block_size: int('block_size', 1, 1024)
      .default(16)
      .meta({ description: 'Tokens per KV block (paged attention; default 16).' }),
    max_batch_tokens: int('max_batch_tokens', 1, 1_048_576).default(8192).meta({
      description: 'Token budget of one batch step (decode tokens + prefill chunks; default 8192).',
    }),
    max_running: int('max_running', 1, 65_536)
      .default(256)
      .meta({ description: 'Most sequences running on a replica at once (default 256).' }),
    preemption: oneOf('preemption', ['fcfs', 'priority', 'sglang'] as const)
      .optional()
      .meta({
        description:
          "Victim when KV blocks run out: 'fcfs' = the last admitted running request; 'priority' = the least urgent SLO class (ties: latest arrival); 'sglang' = SGLang's retraction order (fewest generated tokens, ties: longest prompt). Default: sglang, or fcfs under worker.admission: optimistic.",
      }),
    prefix_caching: z.boolean({ error: 'prefix_caching must be true or false' }).default(true).meta({
      description: 'Radix prefix cache on the replicas: cached prefix tokens skip prefill (default true).',
    }),
    chunking: chunkingSchema.optional(),
  })
  .meta({ description: 'The GPU cluster: replicas, hardware and model profiles, batching limits.' });

/** The cluster with 'auto' resolved and chunking filled in. */
const clusterSchema = clusterInput.transform((c) => {
  const auto = c.kv_cache_tokens === 'auto';
  const kv = auto ? kvCapacityTokens(GPUS[c.gpu], MODELS[c.model]) : (c.kv_cache_tokens as number);
  return {
    ...c,
    kv_cache_tokens: kv,
    /** True when kv_cache_tokens was computed from the GPU and model ('auto'). */
    kv_cache_auto: auto,
    chunking: {
      mode: c.chunking?.mode ?? ('fixed' as const),
      chunk_tokens: c.chunking?.chunk_tokens ?? c.max_batch_tokens,
      target_step_ms: c.chunking?.target_step_ms ?? 50,
    },
  };
});

// ---- worker (one replica's scheduler mechanics) -------------------------------------------------------

const workerSchema = z
  .strictObject({
    admission: oneOf('admission', ['sglang', 'optimistic'] as const)
      .default('sglang')
      .meta({
        description:
          "'sglang' (default): as SGLang's scheduler — admission keeps KV room for the output (max_new_tokens × an adaptive new-token ratio), prefill chunks enter the prefix cache as they complete, shared-prefix duplicates wait behind the longest-prefix order, retraction frees headroom. 'optimistic': the simulator's earlier model — admission needs room for the uncached prompt only, a prompt is cached when its whole prefill ends, memory is recovered by preemption.",
      }),
  })
  .meta({ description: 'How each replica admits requests and uses its KV cache.' });

// ---- router ------------------------------------------------------------------------------------------

export const routerCommon = {
  policy: z.unknown().optional().meta({
    description:
      'A Dynamo router policy file inline (default_policy_family, uncached_isl_buckets, policy_classes, models): enables the policy-class DRR queues in front of worker selection.',
  }),
  policy_file: z.string({ error: 'policy_file must be a path' }).min(1).optional().meta({
    description: 'Path of a policy file, relative to this scenario (CLI only; instead of policy).',
  }),
  dynamo_release: oneOf('dynamo_release', DYNAMO_RELEASES).optional().meta({
    description:
      "The Dynamo release line whose class queues the run models: 'v1.3' keeps one heap per class (a pinned request whose worker is busy blocks its whole class, as in Dynamo v1.3.0); 'v1.4', 'v1.5', 'v1.6' keep exact-worker lanes (a blocked pinned head does not block the rest of its class). Up to 'v1.5' an arrival that need not wait goes straight to worker selection; from 'v1.6' (PR #14176) every arrival is stored and drained in the same turn, through a DRR pop that charges its class and moves the round cursor (a class with a per-worker queue limit of 0 keeps the direct path). The policy file must be one that release accepts. Default: the newest release that accepts the policy file. Needs a policy. The run JSON names the release in config.dynamo_release.",
  }),
};

/** One routing's member of the `router` union: its name, the common keys and its own parameters. */
function routingMember<const N extends string, S extends z.ZodRawShape>(d: Described<N, S>) {
  const routing = z.literal(d.name).meta({ description: `Worker selection: ${d.name}: ${d.summary}.` });
  return z
    .strictObject({
      ...foreignKeys('router.routing', d.name, ROUTING_ALGORITHMS),
      routing: d.name === DEFAULT_ROUTING ? routing.default(d.name) : routing,
      ...routerCommon,
      ...d.params,
    })
    .meta({ description: `The router with ${d.name} worker selection.` });
}

type RoutingMembers<T extends readonly Described[]> = {
  -readonly [I in keyof T]: ReturnType<typeof routingMember<T[I]['name'], T[I]['params']>>;
};

const routerSchema = section(
  'routing',
  ROUTING_ALGORITHMS,
  z.discriminatedUnion(
    'routing',
    // a mapped tuple: the compiler cannot follow Array.map element by element
    ROUTING_ALGORITHMS.map((d) => routingMember(d)) as RoutingMembers<typeof ROUTING_ALGORITHMS>,
    { error: `routing must be one of ${ROUTING_NAMES.map((v) => `'${v}'`).join(', ')}` },
  ),
).meta({
  description: `The router: global worker selection (${ROUTING_NAMES.join(' | ')}; default round-robin) and optional policy-class queues.`,
});

// ---- scheduler ---------------------------------------------------------------------------------------

/**
 * Keys of the other algorithms of a section, accepted in every member (so a file tuned for one
 * algorithm still loads after its algorithm is switched, as the spec's own example has
 * `worker_quantum` beside `routing: round-robin`). `section` validates them with their owner's
 * schema and drops them before the member sees them; here they only carry the editor's hover text.
 */
function foreignKeys(
  discriminator: string,
  own: string,
  list: readonly { name: string; params: z.ZodRawShape }[],
): Record<string, z.ZodOptional<z.ZodUnknown>> {
  const out: Record<string, z.ZodOptional<z.ZodUnknown>> = {};
  const ownKeys = new Set(Object.keys(list.find((d) => d.name === own)?.params ?? {}));
  for (const d of list)
    for (const k of Object.keys(d.params))
      if (!ownKeys.has(k) && !(k in out))
        out[k] = z
          .unknown()
          .optional()
          .meta({ description: `Belongs to ${discriminator} ${ownerList(k, list)}; ignored under ${own}.` });
  return out;
}

function ownerList(key: string, list: readonly { name: string; params: z.ZodRawShape }[]): string {
  return list
    .filter((d) => key in d.params)
    .map((d) => `'${d.name}'`)
    .join(' or ');
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A section whose keys depend on its algorithm (`discriminator`): keys that belong only to other
 * algorithms of `list` are checked with their owner's schema and then dropped, so the union member
 * of the chosen algorithm sees its own keys only.
 */
function section<T extends z.ZodType>(
  discriminator: string,
  list: readonly { name: string; params: z.ZodRawShape }[],
  union: T,
) {
  return z.preprocess((value, ctx) => {
    if (!isMapping(value)) return value;
    const chosen = typeof value[discriminator] === 'string' ? value[discriminator] : list[0].name;
    const own = list.find((d) => d.name === chosen);
    if (own === undefined) return value; // the union reports the unknown name
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k in own.params) {
        out[k] = v;
        continue;
      }
      const owner = list.find((d) => k in d.params);
      if (owner === undefined) {
        out[k] = v; // common or unknown: the member decides
        continue;
      }
      const checked = z.safeParse(owner.params[k], v);
      if (!checked.success)
        for (const issue of checked.error.issues)
          ctx.addIssue({ code: 'custom', message: issue.message, path: [k, ...issue.path], input: v });
    }
    return out;
  }, union);
}

const weightsSchema = z
  .strictObject({
    input: num('input', 0, 1000)
      .default(1)
      .meta({ description: 'w_e: service per uncached input token (default 1).' }),
    output: num('output', 0, 1000)
      .default(2)
      .meta({ description: 'w_q: service per output token (default 2).' }),
  })
  .refine((w) => w.input > 0 || w.output > 0, {
    error: 'at least one weight must be > 0',
    // only when both weights are readable (a weight out of range is one message)
    when: (p) => p.issues.length === 0,
  })
  .meta({ description: 'Service weights for VTC/DLPM charging and for the service metric.' });

/** One scheduler's member of the `scheduler` union: its name, the service weights and its own parameters. */
function schedulerMember<const N extends string, S extends z.ZodRawShape>(d: Described<N, S>) {
  const policy = z
    .literal(d.name)
    .meta({ description: `Worker-local queue policy: ${d.name}: ${d.summary}.` });
  return z
    .strictObject({
      ...foreignKeys('scheduler.policy', d.name, SCHEDULER_ALGORITHMS),
      policy: d.name === DEFAULT_SCHEDULER ? policy.default(d.name) : policy,
      weights: weightsSchema.prefault({}),
      ...d.params,
    })
    .meta({ description: `The ${d.name} scheduler and its parameters.` });
}

type SchedulerMembers<T extends readonly Described[]> = {
  -readonly [I in keyof T]: ReturnType<typeof schedulerMember<T[I]['name'], T[I]['params']>>;
};

const schedulerSchema = section(
  'policy',
  SCHEDULER_ALGORITHMS,
  z.discriminatedUnion(
    'policy',
    // a mapped tuple: the compiler cannot follow Array.map element by element
    SCHEDULER_ALGORITHMS.map((d) => schedulerMember(d)) as SchedulerMembers<typeof SCHEDULER_ALGORITHMS>,
    { error: `policy must be one of ${SCHEDULER_NAMES.map((v) => `'${v}'`).join(', ')}` },
  ),
).meta({
  description: `The worker-local scheduler (${SCHEDULER_NAMES.join(' | ')}; default fcfs) and its parameters.`,
});

// ---- clients and scripted requests -------------------------------------------------------------------

const sloClass = () =>
  oneOf('slo_class', SLO_CLASSES).meta({
    description: 'SLO class: critical | standard | batch | sheddable | background (priority 0, 1, 5, 6, 7).',
  });
export const routerFields = {
  policy_class: label('policy_class')
    .optional()
    .meta({ description: 'The policy class (or family) requests ask for at the router (optional).' }),
  model: label('model').optional().meta({
    description:
      'Model name the router uses to pick a policy profile (a key of the policy’s models map; optional).',
  }),
  priority: num('priority', -1e9, 1e9).default(0).meta({
    description: 'Soft priority jump in the router’s policy-class queues (Dynamo priority; default 0).',
  }),
  strict_priority: int('strict_priority', 0, Number.MAX_SAFE_INTEGER).default(0).meta({
    description: 'Strict priority tier in the router’s policy-class queues (higher first; default 0).',
  }),
  worker: int('worker', 0, 4095).optional().meta({
    description:
      'Pin the requests to this worker (0-based, below cluster.workers), as a request that names its worker rank does in Dynamo: the routing policy is bypassed, the busy test looks at this worker only, and from Dynamo v1.4 a queued request waits in its class’s exact-worker lane, so a busy pinned worker does not hold back the rest of the class (optional).',
  }),
  due_in_s: num('due_in_s', 0, 1e9).optional().meta({
    description:
      'Due time, in seconds after arrival, that a request classifier would set (Dynamo v1.6 `due_at`): in its strict tier the request goes ahead of those without one, earliest first, and a queued request whose due time has passed is shed unserved (HTTP 429) at the next pop that examines its class (optional; Dynamo sets it only through a classifier plugin).',
  }),
};

export const clientObject = z
  .strictObject({
    name: name('name').meta({ description: 'Client name (letters, digits, _ . -), unique.' }),
    slo_class: sloClass().default('standard'),
    ...routerFields,
    prefix_group: name('prefix_group').optional().meta({
      description:
        'Clients with the same prefix_group share identical token sequences for their shared parts (system prompts, extra prefixes, document libraries). Default: the client’s own. Program clients only.',
    }),
    arrival: arrivalSchema.optional(),
    program: programSchema.optional(),
    trace: clientTraceSchema.optional(),
  })
  .superRefine(
    (c, ctx) => {
      // a client is a program (arrival + program) or a trace, never both
      if (c.trace !== undefined) {
        for (const key of ['arrival', 'program', 'prefix_group'] as const)
          if (c[key] !== undefined)
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message: `a client replays a trace or runs a program, not both: remove ${key} or trace (a trace client's requests, their times and prefixes come from its trace)`,
            });
        return;
      }
      for (const key of ['arrival', 'program'] as const)
        if (c[key] === undefined)
          ctx.addIssue({
            code: 'invalid_type',
            expected: 'object',
            path: [key],
            message: 'missing',
          });
    },
    // run even when a field failed (a missing arrival is reported beside a bad name), but only on a
    // mapping: a client written as `null` or `3` has only the type problem (it crashed here once)
    { when: (p) => typeof p.value === 'object' && p.value !== null && !Array.isArray(p.value) },
  );

/** A client as the engine takes it: a program client or a trace client (see core/input's ClientSpec). */
const clientSchema = clientObject
  .transform((c) => {
    const { arrival, program, trace, prefix_group, ...common } = c;
    if (trace !== undefined) {
      const { client: _c, slo_class: _s, policy_class: _p, model: _m, ...reading } = trace;
      return { ...common, trace: { ...reading, data: null as TraceTable | null } };
    }
    // superRefine has made sure both are present
    if (arrival === undefined || program === undefined) throw new Error('client without a program');
    return { ...common, ...(prefix_group !== undefined ? { prefix_group } : {}), arrival, program };
  })
  .meta({
    description:
      'A client: its arrival process and the program each arrival runs, or (with trace: instead) a request trace whose rows are its requests.',
  });

export const requestSchema = z
  .strictObject({
    t: num('t', 0, L.maxDurationS).meta({ description: 'Submission time, seconds (≤ duration_s).' }),
    client: name('client').meta({
      description: 'Client name (a declared client, or a new name that only sends scripted requests).',
    }),
    id: name('id')
      .optional()
      .meta({ description: 'Request id (default "<client>!<index in requests>"); unique.' }),
    prompt_tokens: int('prompt_tokens', 1, L.maxTokens).meta({ description: 'Prompt length, tokens.' }),
    shared_prefix: name('shared_prefix').optional().meta({
      description:
        'Name of a shared prefix (e.g. a document): requests naming the same one share its leading tokens.',
    }),
    shared_prefix_tokens: int('shared_prefix_tokens', 0, L.maxTokens).default(0).meta({
      description: 'How many leading prompt tokens come from shared_prefix (≤ prompt_tokens; default 0).',
    }),
    output_tokens: int('output_tokens', 1, L.maxTokens).meta({ description: 'Output length, tokens.' }),
    max_new_tokens: int('max_new_tokens', 1, L.maxTokens).optional().meta({
      description:
        'Output cap the request sends (SGLang max_new_tokens; the worker reserves KV for it; a longer output stops at it). Default: output_tokens, as a benchmark client asking for exactly that many tokens sends.',
    }),
    slo_class: sloClass()
      .optional()
      .meta({ description: 'SLO class (default: the client’s, else standard).' }),
    ...routerFields,
  })
  .meta({
    description: 'One scripted request, submitted exactly at t (in addition to the clients’ arrivals).',
  });

// ---- the document ------------------------------------------------------------------------------------

export const ScenarioInputSchema = z
  .strictObject({
    version: z
      .literal(1, { error: 'version must be 1 (the only scenario format so far)' })
      .meta({ description: 'Format version; must be 1.' }),
    name: label('name').meta({ description: 'Scenario name (shown in the playground and in results).' }),
    description: z
      .string({ error: 'description must be text' })
      .max(20_000)
      .default('')
      .meta({ description: 'What the scenario shows and what to look for (markdown allowed).' }),
    seed: int('seed', 0, 4_294_967_295)
      .default(42)
      .meta({ description: 'All randomness derives from it (0 – 2^32−1; default 42).' }),
    duration_s: num('duration_s', 0, L.maxDurationS, true)
      .default(60)
      .meta({
        description: `Arrivals stop at this simulated time (≤ ${L.maxDurationS} s); the run then drains. Default 60.`,
      }),
    cluster: clusterSchema.prefault({}),
    worker: workerSchema.prefault({}),
    router: routerSchema.prefault({}),
    scheduler: schedulerSchema.prefault({}),
    clients: z
      .array(clientSchema, { error: 'clients must be a list' })
      .max(L.maxClients, { error: `at most ${L.maxClients} clients` })
      .default([])
      .meta({ description: `The clients (≤ ${L.maxClients}).` }),
    requests: z
      .array(requestSchema, { error: 'requests must be a list' })
      .max(L.maxScriptedRequests, { error: `at most ${L.maxScriptedRequests} scripted requests` })
      .default([])
      .meta({
        description: `Scripted requests, exact and in addition to the clients (≤ ${L.maxScriptedRequests}).`,
      }),
    trace: traceSchema.optional(),
  })
  .meta({ description: 'A Fairground scenario: cluster, router, scheduler and workload.' });

type ParsedScenario = z.output<typeof ScenarioInputSchema>;

/**
 * A validated scenario with every default applied. `router.policy` is the compiled policy when the
 * file (or policy_file) gives one, else null.
 */
export type Scenario = Omit<ParsedScenario, 'router' | 'trace'> & {
  router: WithPolicy<ParsedScenario['router']>;
  /** The trace replay (`trace:`), with its rows once a caller has read the file (null until then). */
  trace?: ScenarioTrace;
};
/** A router member with its policy compiled (distributes over the routing union). */
type WithPolicy<R> = R extends unknown ? Omit<R, 'policy'> & { policy: CompiledPolicy | null } : never;
/** `trace:` with defaults applied, plus the rows read from its file (attached by the CLI or the page). */
export type ScenarioTrace = TraceSpec & { data: TraceTable | null };
export type { TraceSpec };
export type ScenarioInput = z.input<typeof ScenarioInputSchema>;
export type ClientSpec = Scenario['clients'][number];
export type ScriptedRequest = Scenario['requests'][number];
export type ClusterSpec = Scenario['cluster'];
export type RouterSpec = Scenario['router'];
export type SchedulerSpec = Scenario['scheduler'];
export type { SloClass };
export const ScenarioSchema = ScenarioInputSchema;

/**
 * `spec` with another scheduler (and some of its parameters): keys the new one shares with the old
 * are kept, the old one's own keys are dropped, missing ones take their defaults. Throws on an unknown
 * name or an invalid value (for programs that build variants of a validated scenario).
 */
export function switchScheduler(spec: SchedulerSpec, policy: string, params: object = {}): SchedulerSpec {
  return schedulerSchema.parse({ ...spec, ...params, policy });
}

/** `spec` with another routing (and some of its parameters), its compiled policy kept. */
export function switchRouting(spec: RouterSpec, routing: string, params: object = {}): RouterSpec {
  const { policy, ...rest } = spec;
  return { ...routerSchema.parse({ ...rest, ...params, routing }), policy };
}
