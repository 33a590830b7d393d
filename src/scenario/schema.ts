/**
 * The scenario file format (shared spec/scenario.md §2) as a zod schema: the single authority for
 * key names, types, ranges and defaults. Every mapping is strict (unknown keys are errors with a
 * "did you mean" hint) and every key carries a description that becomes the editor's hover text.
 * Cross-field rules (unique names, limits, model fit) live in checks.ts.
 */
import { z } from 'zod';
import { GPU_IDS, GPUS, kvCapacityTokens, MODEL_IDS, MODELS } from '../core/cost/index';
import type { CompiledPolicy } from '../core/drr/types';
import { SLO_CLASSES, type SloClass } from '../core/workload/types';
import { arrivalSchema } from './arrival-schema';
import { int, label, name, num } from './fields';
import { SCENARIO_LIMITS } from './limits';
import { programSchema } from './program-schema';
import { traceSchema, type TraceSpec } from './trace-schema';
import type { TraceTable } from '../core/trace/types';

export { arrivalSchema, type ArrivalSpec } from './arrival-schema';
export { programSchema, type ProgramSpec, type ProgramType } from './program-schema';
export type { Distribution, Length, LengthInput } from './lengths';

const L = SCENARIO_LIMITS;

function oneOf<T extends string>(what: string, values: readonly T[]) {
  return z.enum(values as [T, ...T[]], {
    error: `${what} must be one of ${values.map((v) => `'${v}'`).join(', ')}`,
  });
}

export const ROUTINGS = [
  'round-robin',
  'random',
  'least-loaded',
  'pull',
  'per-client-rr',
  'preble',
  'doubleq',
  'kv-aware',
] as const;
export type Routing = (typeof ROUTINGS)[number];

export const SCHEDULER_POLICIES = [
  'fcfs',
  'priority-fcfs',
  'sjf',
  'reverse-priority',
  'lpm',
  'dfs-weight',
  'vtc',
  'dlpm',
  'edf',
  'lrs',
] as const;
export type SchedulerPolicy = (typeof SCHEDULER_POLICIES)[number];

// ---- cluster -----------------------------------------------------------------------------------------

const chunkingSchema = z
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

const clusterInput = z
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

const routerSchema = z
  .strictObject({
    routing: oneOf('routing', ROUTINGS)
      .default('round-robin')
      .meta({ description: `Worker selection: ${ROUTINGS.join(' | ')} (default round-robin).` }),
    worker_quantum: int('worker_quantum', 1, Number.MAX_SAFE_INTEGER)
      .default(20_000)
      .meta({ description: 'DoubleQ worker quantum Q^w, service units (doubleq only; default 20000).' }),
    policy: z.unknown().optional().meta({
      description:
        'A Dynamo router policy file inline (default_policy_family, uncached_isl_buckets, policy_classes, models): enables the policy-class DRR queues in front of worker selection.',
    }),
    policy_file: z.string({ error: 'policy_file must be a path' }).min(1).optional().meta({
      description: 'Path of a policy file, relative to this scenario (CLI only; instead of policy).',
    }),
    count_running: z.boolean({ error: 'count_running must be true or false' }).default(true).meta({
      description: 'least-loaded: count running requests as load, not only queued ones (default true).',
    }),
    preble_rebalance: z.boolean({ error: 'preble_rebalance must be true or false' }).default(true).meta({
      description:
        'preble: move new work off the heaviest worker when it exceeds preble_imbalance × the lightest (default true).',
    }),
    preble_imbalance: num('preble_imbalance', 1, 100).default(1.5).meta({
      description: 'preble: load ratio heaviest / lightest that triggers rebalancing (default 1.5).',
    }),
    kv_overlap_weight: num('kv_overlap_weight', 0, 1000).default(1).meta({
      description:
        'kv-aware: weight of prefix overlap (in blocks) against load in the worker score (default 1).',
    }),
  })
  .meta({ description: 'The router: global worker selection and optional policy-class queues.' });

// ---- scheduler ---------------------------------------------------------------------------------------

const weightsSchema = z
  .strictObject({
    input: num('input', 0, 1000)
      .default(1)
      .meta({ description: 'w_e: service per uncached input token (default 1).' }),
    output: num('output', 0, 1000)
      .default(2)
      .meta({ description: 'w_q: service per output token (default 2).' }),
  })
  .refine((w) => w.input > 0 || w.output > 0, { error: 'at least one weight must be > 0' })
  .meta({ description: 'Service weights for VTC/DLPM charging and for the service metric.' });

const schedulerSchema = z
  .strictObject({
    policy: oneOf('policy', SCHEDULER_POLICIES)
      .default('fcfs')
      .meta({ description: `Worker-local queue policy: ${SCHEDULER_POLICIES.join(' | ')} (default fcfs).` }),
    quantum: int('quantum', 1, Number.MAX_SAFE_INTEGER)
      .default(2500)
      .meta({ description: 'DLPM per-client quantum Q^u, service units (dlpm and doubleq; default 2500).' }),
    weights: weightsSchema.prefault({}),
    deadline_multiplier: num('deadline_multiplier', 0, 1000, true).default(1.5).meta({
      description:
        'edf/lrs: deadline budget = max(multiplier × predicted prefill time, min_deadline_s) (default 1.5).',
    }),
    min_deadline_s: num('min_deadline_s', 0, 86_400)
      .default(0.5)
      .meta({ description: 'edf/lrs: smallest deadline budget, seconds (default 0.5).' }),
    dlpm_quantum_per_request: z
      .boolean({ error: 'dlpm_quantum_per_request must be true or false' })
      .optional()
      .meta({
        description:
          'dlpm: a deliberately broken variant that grants Q^u per request instead of per refill round; it voids Theorem 4.1 (for the Guarantees view; default false).',
      }),
    lpm_fcfs_fallback: int('lpm_fcfs_fallback', 0, 1_000_000).default(0).meta({
      description:
        'lpm/dlpm: order by arrival instead of prefix match when more requests than this wait (SGLang uses 128); 0 = never (default, the paper’s LPM).',
    }),
  })
  .meta({ description: 'The worker-local scheduler (queue policy) and its parameters.' });

// ---- clients and scripted requests -------------------------------------------------------------------

const sloClass = () =>
  oneOf('slo_class', SLO_CLASSES).meta({
    description: 'SLO class: critical | standard | batch | sheddable | background (priority 0, 1, 5, 6, 7).',
  });
const routerFields = {
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
};

const clientSchema = z
  .strictObject({
    name: name('name').meta({ description: 'Client name (letters, digits, _ . -), unique.' }),
    slo_class: sloClass().default('standard'),
    ...routerFields,
    prefix_group: name('prefix_group').optional().meta({
      description:
        'Clients with the same prefix_group share identical token sequences for their shared parts (system prompts, extra prefixes, document libraries). Default: the client’s own.',
    }),
    arrival: arrivalSchema,
    program: programSchema,
  })
  .meta({ description: 'A client: its arrival process and the program each arrival runs.' });

const requestSchema = z
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
  router: Omit<ParsedScenario['router'], 'policy'> & { policy: CompiledPolicy | null };
  /** The trace replay (`trace:`), with its rows once a caller has read the file (null until then). */
  trace?: ScenarioTrace;
};
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
