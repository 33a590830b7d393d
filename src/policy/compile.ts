/**
 * Turns a validated policy file (snake_case, as written) into the compiled form the queue runs on:
 * camelCase class configs with defaults applied, families and matrix cells resolved to indexes.
 */
import { ROOT_PROFILE_NAME } from '../core/drr/default-policy';
import type {
  ClassConfig,
  CompiledPolicy,
  MatrixCell,
  PolicyClassEntry,
  PolicyFile,
  PolicyProfileEntry,
  Profile,
} from '../core/drr/types';

function compileClass(c: PolicyClassEntry): ClassConfig {
  const out: ClassConfig = { name: c.name, quantum: c.quantum, queuePolicy: c.queue_policy ?? 'fcfs' };
  if (c.policy_family !== undefined) out.policyFamily = c.policy_family;
  if (c.cache_bucket !== undefined) out.cacheBucket = c.cache_bucket;
  if (c.prefill_busy_threshold !== undefined) out.prefillBusyThreshold = c.prefill_busy_threshold;
  if (c.prefill_busy_threshold_frac !== undefined)
    out.prefillBusyThresholdFrac = c.prefill_busy_threshold_frac;
  if (c.busy_worker_ratio !== undefined) out.busyWorkerRatio = c.busy_worker_ratio;
  if (c.request_queue_limit_per_worker !== undefined)
    out.requestQueueLimitPerWorker = c.request_queue_limit_per_worker;
  if (c.raw_isl_token_queue_limit_per_worker !== undefined)
    out.rawIslTokenQueueLimitPerWorker = c.raw_isl_token_queue_limit_per_worker;
  if (c.cached_token_queue_limit_per_worker !== undefined)
    out.cachedTokenQueueLimitPerWorker = c.cached_token_queue_limit_per_worker;
  return out;
}

export function compileProfile(p: PolicyProfileEntry, name: string, model: string | null): Profile {
  const classes = p.policy_classes.map(compileClass);
  const families: string[] = [];
  const cells: MatrixCell[] = [];
  classes.forEach((c, classIndex) => {
    if (c.policyFamily === undefined || c.cacheBucket === undefined) return;
    if (!families.includes(c.policyFamily)) families.push(c.policyFamily);
    cells.push({ family: c.policyFamily, bucket: c.cacheBucket, classIndex });
  });
  return {
    name,
    model,
    defaultFamily: p.default_policy_family ?? null,
    buckets: (p.uncached_isl_buckets ?? []).map((b) => ({ minTokens: b.min_tokens, bucket: b.bucket })),
    classes,
    families,
    cells,
  };
}

/** Compile a policy that already passed the schema and the cross-field rules. */
export function compilePolicy(file: PolicyFile): CompiledPolicy {
  const root =
    file.policy_classes !== undefined
      ? compileProfile(
          {
            default_policy_family: file.default_policy_family,
            uncached_isl_buckets: file.uncached_isl_buckets,
            policy_classes: file.policy_classes,
          },
          ROOT_PROFILE_NAME,
          null,
        )
      : null;
  const models = Object.entries(file.models ?? {}).map(([m, p]) => compileProfile(p, m, m));
  return { root, models };
}
