/**
 * The zod schema of Dynamo's router policy YAML: the single authority for key names, types and
 * ranges (cross-field rules live in rules.ts). Every mapping is strict, as Dynamo denies unknown
 * fields. Each key carries a description that becomes the editor's hover text.
 */
import { z } from 'zod';
import type { PolicyFile } from '../core/drr/types';
import { annotateReleases } from './generations';

const UINT_MAX = Number.MAX_SAFE_INTEGER;

export const IDENTIFIER = /^[A-Za-z0-9_.-]+$/;

/**
 * A type-error message that leaves missing keys to the default text, which the shared validator
 * turns into "missing required key".
 */
export function typeError(message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? undefined : message);
}

/** A name made of letters, digits, `_`, `.` and `-` (what Dynamo accepts for classes, families, buckets). */
export function identifier(what: string) {
  return z
    .string({ error: typeError(`${what} must be a string (letters, digits, '_', '.', '-')`) })
    .regex(IDENTIFIER, { error: `${what} may only contain letters, digits, '_', '.' and '-'` });
}

/** The largest value of Dynamo's unsigned 64-bit integers. */
export const U64_MAX = 2n ** 64n - 1n;

/**
 * A whole number from `min` up to 2^53 - 1 (fields the playground keeps as plain numbers: token
 * counts of one request, counts of ops). A larger integer arrives as a BigInt and gets the range message.
 * A value below `min` or above `max` (default 2^53 - 1) gets that message alone (-1e300 is not
 * 'too large', -2.5 is one problem, 1e300 of workers is not also above 2^53 - 1).
 */
export function uint(what: string, min = 0, max?: number) {
  const top = `${what} must be ≤ ${max ?? UINT_MAX}`;
  const low = z
    .number({
      error: (issue: { input?: unknown }) =>
        issue.input === undefined
          ? undefined
          : typeof issue.input === 'bigint'
            ? top
            : `${what} must be a whole number`,
    })
    .min(min, { error: `${what} must be ≥ ${min}`, abort: true });
  return (max === undefined ? low : low.max(max, { error: top, abort: true })).int({
    error: (issue) => (Number.isInteger(issue.input) ? top : `${what} must be a whole number`),
  });
}

/**
 * One of Dynamo's unsigned 64-bit integers (quanta, thresholds, limits, bucket floors): a number when
 * below 2^53, a BigInt above (the YAML reader keeps such integers exact), up to 2^64 - 1.
 */
export function u64(what: string, min = 0) {
  const big = z
    .bigint()
    .min(BigInt(min), { error: `${what} must be ≥ ${min}` })
    .max(U64_MAX, { error: `${what} must be ≤ ${U64_MAX} (2^64 - 1, Dynamo's unsigned 64-bit range)` });
  return z.union([uint(what, min), big], {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined ? undefined : `${what} must be a whole number`,
  });
}

export const bucketSchema = z
  .strictObject(
    {
      min_tokens: u64('min_tokens').meta({
        description:
          'Smallest uncached input-token count in this bucket. The first bucket starts at 0; floors strictly increase.',
      }),
      bucket: identifier('bucket').meta({
        description: 'Bucket name, referenced by the cache_bucket of matrix classes. Unique in the profile.',
      }),
    },
    { error: typeError('each uncached_isl_buckets entry must be a mapping {min_tokens, bucket}') },
  )
  .meta({
    description: 'A cache bucket: requests whose uncached tokens reach min_tokens (and not the next floor).',
  });

const mapping = (what: string) =>
  z.record(z.string(), z.unknown(), { error: typeError(`${what} must be a mapping`) });

const fraction = (what: string, lo: string) =>
  z
    .number({ error: typeError(`${what} must be a number`) })
    .min(0, { error: `${what} must be in ${lo}` })
    .max(1, { error: `${what} must be in ${lo}` });

const positive = (what: string) =>
  z.number({ error: typeError(`${what} must be a number > 0`) }).gt(0, { error: `${what} must be > 0` });

/**
 * Per-class queue admission (Dynamo v1.4.x): the first form `{type: session_aware, knobs...}` or the
 * later opaque `{type, options}` that the registered admission policy validates itself.
 */
export const queueAdmissionSchema = z
  .strictObject(
    {
      type: identifier('queue_admission.type').meta({
        description:
          "Admission policy: 'session_aware' (the built-in form with the knobs below) or a registered policy's name.",
      }),
      options: mapping('queue_admission.options').optional().meta({
        description:
          'Options of a registered admission policy (the later, opaque form; validated by that policy).',
      }),
      pause_threshold: fraction('pause_threshold', '[0, 1]').optional().meta({
        description: 'session_aware: load fraction at which new sessions pause (0 to 1). Default 0.95.',
      }),
      pause_target: fraction('pause_target', '[0, pause_threshold]').optional().meta({
        description:
          'session_aware: load fraction to drain to while paused (0 to pause_threshold). Default 0.80.',
      }),
      resume_hysteresis: fraction('resume_hysteresis', '[0, pause_threshold]').optional().meta({
        description:
          'session_aware: margin below pause_target before resuming (0 to pause_threshold). Default 0.10.',
      }),
      resume_timeout_seconds: positive('resume_timeout_seconds').optional().meta({
        description:
          'session_aware: a paused session resumes after this many seconds at the latest (> 0). Default 1800.',
      }),
      resume_priority_boost: z
        .number({ error: typeError('resume_priority_boost must be a number ≥ 0') })
        .min(0, { error: 'resume_priority_boost must be ≥ 0' })
        .optional()
        .meta({ description: 'session_aware: priority added to a resumed session (≥ 0). Default 1.0.' }),
      scheduler_interval_seconds: positive('scheduler_interval_seconds').optional().meta({
        description: 'session_aware: how often the admission scheduler re-evaluates (> 0). Default 5.',
      }),
      acting_token_weight: positive('acting_token_weight').optional().meta({
        description: 'session_aware: weight of tokens of acting sessions (> 0). Default 1.0.',
      }),
      acting_decay_tau_seconds: positive('acting_decay_tau_seconds').optional().meta({
        description: 'session_aware: decay time constant of the acting-session estimate (> 0). Default 1.0.',
      }),
      buffer_per_program: uint('buffer_per_program').optional().meta({
        description: 'session_aware: requests buffered per program while paused. Default 100.',
      }),
    },
    { error: typeError('queue_admission must be a mapping with a type, e.g. {type: session_aware}') },
  )
  .meta({
    description:
      'Dynamo v1.4.x: a per-class admission policy (at most one class per profile). The playground cannot simulate it and admits every request, as without one.',
  });

export const classSchema = z
  .strictObject(
    {
      name: identifier('name').meta({
        description:
          'Physical class name: what a request may ask for (explicit class) and what shows in metrics. Unique in the profile.',
      }),
      quantum: u64('quantum', 1).meta({
        description:
          'DRR credit earned per ring round, in uncached tokens (> 0). Shares of token service follow the quantum ratios.',
      }),
      policy_family: identifier('policy_family').optional().meta({
        description:
          'Family of a matrix class (give cache_bucket too). Requests asking for this family land in one of its cells.',
      }),
      cache_bucket: identifier('cache_bucket').optional().meta({
        description:
          'Bucket of a matrix class (give policy_family too); must be declared in uncached_isl_buckets.',
      }),
      queue_policy: z
        .enum(['fcfs', 'wspt'], { error: typeError("queue_policy must be 'fcfs' or 'wspt'") })
        .optional()
        .meta({
          description:
            "Order inside the class: 'fcfs' (priority jump minus arrival time) or 'wspt' ((1 + priority) / cost). Default fcfs.",
        }),
      prefill_busy_threshold: u64('prefill_busy_threshold').optional().meta({
        description: 'A worker is busy for this class when its active prefill tokens exceed this number.',
      }),
      prefill_busy_threshold_frac: z
        .number({ error: typeError('prefill_busy_threshold_frac must be a finite number') })
        .min(0, { error: 'prefill_busy_threshold_frac must be ≥ 0' })
        .optional()
        .meta({
          description:
            'A worker is busy when its active prefill tokens exceed this multiple of its max batched tokens (finite, ≥ 0).',
        }),
      busy_worker_ratio: z
        .number({ error: typeError('busy_worker_ratio must be a number in (0, 1]') })
        .gt(0, { error: 'busy_worker_ratio must be in (0, 1]' })
        .max(1, { error: 'busy_worker_ratio must be in (0, 1]' })
        .optional()
        .meta({
          description:
            'The pool counts as busy once this fraction of eligible workers is busy (0 < r ≤ 1; needs a threshold). Default: all of them.',
        }),
      request_queue_limit_per_worker: u64('request_queue_limit_per_worker').optional().meta({
        description: 'Reject new requests once this many per worker are queued in the class (HTTP 529).',
      }),
      raw_isl_token_queue_limit_per_worker: u64('raw_isl_token_queue_limit_per_worker').optional().meta({
        description: 'Reject new requests once the queued raw input tokens reach this many per worker.',
      }),
      cached_token_queue_limit_per_worker: u64('cached_token_queue_limit_per_worker').optional().meta({
        description: 'Reject new requests once the queued cached tokens reach this many per worker.',
      }),
      queue_admission: queueAdmissionSchema.optional(),
    },
    { error: typeError('each policy_classes entry must be a mapping with at least name and quantum') },
  )
  .meta({
    description:
      'A physical class: one queue, one DRR deficit. Matrix class (policy_family + cache_bucket) or explicit class.',
  });

const profileKeys = {
  default_policy_family: identifier('default_policy_family').optional().meta({
    description:
      'Family used when a request asks for no family or an unknown one. Must be a family of a matrix class.',
  }),
  uncached_isl_buckets: z
    .array(bucketSchema, { error: typeError('uncached_isl_buckets must be a list of {min_tokens, bucket}') })
    .min(1, { error: 'uncached_isl_buckets must not be empty' })
    .optional()
    .meta({ description: 'Cache buckets by uncached input tokens, floors increasing from 0.' }),
};

/** A stage target: an instance name from `instances`, or `default` for the built-in selector. */
const stageTarget = (stage: string) =>
  identifier(`worker_selection.${stage}`)
    .optional()
    .meta({
      description: `Worker selector for ${stage} requests: an instance name from instances, or 'default' (the built-in selector).`,
    });

export const workerSelectionInstanceSchema = z
  .strictObject(
    {
      name: identifier('instance name').meta({
        description: "Instance name the stage targets refer to (not 'default', which is reserved). Unique.",
      }),
      type: identifier('instance type').meta({
        description:
          "Registered selector type, e.g. 'dynamo-two-tier-cost-fn' (built in). A type not linked into the router fails at startup.",
      }),
      parameters: mapping('parameters').optional().meta({
        description: "The selector's parameters (a mapping; default empty).",
      }),
    },
    { error: typeError('each instances entry must be a mapping {name, type, parameters}') },
  )
  .meta({ description: 'One configured worker selector.' });

/** Top-level worker selection (Dynamo v1.5.0+). */
export const workerSelectionSchema = z
  .strictObject(
    {
      aggregated: stageTarget('aggregated'),
      prefill: stageTarget('prefill'),
      decode: stageTarget('decode'),
      encode: stageTarget('encode'),
      instances: z
        .array(workerSelectionInstanceSchema, {
          error: typeError('instances must be a list of {name, type, parameters}'),
        })
        .optional()
        .meta({ description: 'Worker-selector instances the stage targets name.' }),
    },
    {
      error: typeError('worker_selection must be a mapping (aggregated, prefill, decode, encode, instances)'),
    },
  )
  .meta({
    description:
      "Dynamo v1.5.0+: which worker selector serves each stage. The playground keeps its own routing (the scenario's router.routing) and says so.",
  });

/** Top-level request classifier (Dynamo v1.6.0+). */
export const requestClassifierSchema = z
  .strictObject(
    {
      type: identifier('request_classifier.type').meta({
        description: "Registered classifier plugin ('default' is reserved).",
      }),
      parameters: mapping('request_classifier.parameters').optional().meta({
        description: "The classifier's parameters (a mapping; default empty).",
      }),
    },
    { error: typeError('request_classifier must be a mapping {type, parameters}') },
  )
  .meta({
    description:
      "Dynamo v1.6.0+: a plugin that may set a request's class, due_at deadline, cost or worker target. The playground cannot run plugins: requests keep the class they ask for, as without a classifier.",
  });

export const profileSchema = z
  .strictObject(
    {
      default_policy_family: profileKeys.default_policy_family.unwrap().meta({
        description:
          'Family used when a request asks for no family or an unknown one. Must be a family of a matrix class.',
      }),
      uncached_isl_buckets: profileKeys.uncached_isl_buckets.unwrap().meta({
        description: 'Cache buckets by uncached input tokens, floors increasing from 0.',
      }),
      policy_classes: z
        .array(classSchema, { error: typeError('policy_classes must be a list of classes') })
        .min(1, { error: 'policy_classes must not be empty' })
        .meta({ description: 'The physical classes of this profile, in DRR ring order.' }),
    },
    {
      error: typeError(
        'a model profile must be a mapping with default_policy_family, uncached_isl_buckets and policy_classes',
      ),
    },
  )
  .meta({
    description: 'A complete profile for one model: all three keys, nothing inherited from the root.',
  });

export const policyFileSchema = z
  .strictObject(
    {
      ...profileKeys,
      policy_classes: z
        .array(classSchema, { error: typeError('policy_classes must be a list of classes') })
        .min(1, { error: 'policy_classes must not be empty' })
        .optional()
        .meta({
          description:
            "The root profile's physical classes, in DRR ring order (give all three root keys or none).",
        }),
      models: z
        .record(z.string().min(1, { error: 'a model name must not be empty' }), profileSchema, {
          error: typeError('models must map model names to profiles'),
        })
        .optional()
        .meta({
          description: 'Per-model profiles, keyed by the exact model name; each overrides the root entirely.',
        }),
      worker_selection: workerSelectionSchema.optional(),
      request_classifier: requestClassifierSchema.optional(),
      router: mapping('router').optional().meta({
        description:
          "Dynamo v1.6.0+: process-wide scoring knobs of Dynamo's default worker selector (PR #15202). Checked as a mapping only: its keys were not verified against the release. Not simulated: workers are chosen by the scenario's router.routing, whose own parameters (e.g. kv-aware's weights) keep their documented defaults.",
      }),
    },
    {
      error: typeError(
        'a policy must be a mapping with policy_classes (and default_policy_family, uncached_isl_buckets) and/or models',
      ),
    },
  )
  .meta({ description: 'Dynamo router policy: policy-class queues with DRR arbitration.' });

export type PolicyFileInput = z.input<typeof policyFileSchema>;

// The zod output must be exactly the plain type core works with.
type Assert<T extends true> = T;
export type _PolicyFileMatches = Assert<z.output<typeof policyFileSchema> extends PolicyFile ? true : false>;

/** Draft-07 JSON Schema of the policy file for monaco-yaml (hover text from the descriptions). */
export function policyJsonSchema(): Record<string, unknown> {
  return toJsonSchema(policyFileSchema);
}

/** Draft-07 JSON Schema of a zod schema of this module: BigInt as integer, release notes in descriptions. */
export function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const out = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      const def = (ctx.zodSchema as { _zod: { def: { type: string } } })._zod.def;
      if (def.type === 'bigint') {
        ctx.jsonSchema.type = 'integer';
        ctx.jsonSchema.maximum = Number(U64_MAX);
      }
    },
  }) as Record<string, unknown>;
  annotateReleases(out);
  return out;
}
