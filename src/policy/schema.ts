/**
 * The zod schema of Dynamo's router policy YAML: the single authority for key names, types and
 * ranges (cross-field rules live in rules.ts). Every mapping is strict, as Dynamo denies unknown
 * fields. Each key carries a description that becomes the editor's hover text.
 */
import { z } from 'zod';
import type { PolicyFile } from '../core/drr/types';

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

/** A whole number from `min` up to 2^53 - 1 (Dynamo's unsigned integers, capped where doubles stay exact). */
export function uint(what: string, min = 0) {
  return z
    .number({ error: typeError(`${what} must be a whole number`) })
    .int({
      error: (issue) =>
        Number.isInteger(issue.input) ? `${what} must be ≤ ${UINT_MAX}` : `${what} must be a whole number`,
    })
    .min(min, { error: `${what} must be ≥ ${min}` });
}

export const bucketSchema = z
  .strictObject(
    {
      min_tokens: uint('min_tokens').meta({
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

export const classSchema = z
  .strictObject(
    {
      name: identifier('name').meta({
        description:
          'Physical class name: what a request may ask for (explicit class) and what shows in metrics. Unique in the profile.',
      }),
      quantum: uint('quantum', 1).meta({
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
      prefill_busy_threshold: uint('prefill_busy_threshold').optional().meta({
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
      request_queue_limit_per_worker: uint('request_queue_limit_per_worker').optional().meta({
        description: 'Reject new requests once this many per worker are queued in the class (HTTP 529).',
      }),
      raw_isl_token_queue_limit_per_worker: uint('raw_isl_token_queue_limit_per_worker').optional().meta({
        description: 'Reject new requests once the queued raw input tokens reach this many per worker.',
      }),
      cached_token_queue_limit_per_worker: uint('cached_token_queue_limit_per_worker').optional().meta({
        description: 'Reject new requests once the queued cached tokens reach this many per worker.',
      }),
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
  return z.toJSONSchema(policyFileSchema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
}
