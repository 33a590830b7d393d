/**
 * Turns a validated policy file (snake_case, as written) into the compiled form the queue runs on:
 * camelCase class configs with defaults applied, families and matrix cells resolved to indexes.
 */
import { ROOT_PROFILE_NAME } from '../core/drr/default-policy';
import { releasesFor, versionedUses } from './generations';
import type {
  ClassConfig,
  CompiledPolicy,
  MatrixCell,
  PolicyClassEntry,
  PolicyFile,
  PolicyProfileEntry,
  Profile,
} from '../core/drr/types';
import { quote } from '../format/yaml';

function compileClass(c: PolicyClassEntry): ClassConfig {
  const out: ClassConfig = {
    name: c.name,
    quantum: Number(c.quantum),
    queuePolicy: c.queue_policy ?? 'fcfs',
  };
  // Above 2^53 the queue arbitrates on the exact value (src/core/drr/big-pop.ts).
  if (typeof c.quantum === 'bigint') out.quantumBig = c.quantum;
  if (c.policy_family !== undefined) out.policyFamily = c.policy_family;
  if (c.cache_bucket !== undefined) out.cacheBucket = c.cache_bucket;
  if (c.prefill_busy_threshold !== undefined) out.prefillBusyThreshold = Number(c.prefill_busy_threshold);
  if (c.prefill_busy_threshold_frac !== undefined)
    out.prefillBusyThresholdFrac = c.prefill_busy_threshold_frac;
  if (c.busy_worker_ratio !== undefined) out.busyWorkerRatio = c.busy_worker_ratio;
  if (c.request_queue_limit_per_worker !== undefined)
    out.requestQueueLimitPerWorker = Number(c.request_queue_limit_per_worker);
  if (c.raw_isl_token_queue_limit_per_worker !== undefined)
    out.rawIslTokenQueueLimitPerWorker = Number(c.raw_isl_token_queue_limit_per_worker);
  if (c.cached_token_queue_limit_per_worker !== undefined)
    out.cachedTokenQueueLimitPerWorker = Number(c.cached_token_queue_limit_per_worker);
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
    buckets: (p.uncached_isl_buckets ?? []).map((b) => ({
      minTokens: Number(b.min_tokens),
      bucket: b.bucket,
    })),
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
  const out: CompiledPolicy = { root, models };
  const uses = versionedUses(file);
  if (uses.length > 0) out.releases = releasesFor(uses);
  const notes = simulationNotes(file);
  if (notes.length > 0) out.notes = notes;
  return out;
}

/** What the playground cannot simulate of this file, and what it does instead. */
export function simulationNotes(file: PolicyFile): string[] {
  const notes: string[] = [];
  if (file.request_classifier !== undefined)
    notes.push(
      `request_classifier '${quote(String(file.request_classifier.type))}' is a plugin the playground cannot run: requests keep the class they ask for and carry no due_at unless a script or scenario gives one (Dynamo's behaviour without a classifier).`,
    );
  if (file.router !== undefined)
    notes.push(
      "router holds Dynamo v1.6's scoring knobs for its default worker selector, which the playground does not run: they are kept, not simulated (and only checked to be a mapping; their keys were not verified against the release). Workers are chosen by the scenario's router.routing with its documented defaults.",
    );
  if (file.worker_selection !== undefined)
    notes.push(
      "worker_selection names Dynamo's worker selectors, which the playground does not run: workers are chosen by the scenario's router.routing (Dynamo's built-in selector is the nearest, 'kv-aware').",
    );
  const admission = [
    ...(file.policy_classes ?? []),
    ...Object.values(file.models ?? {}).flatMap((p) => p.policy_classes),
  ].filter((c) => c.queue_admission !== undefined);
  for (const c of admission)
    notes.push(
      `class '${quote(String(c.name))}': queue_admission '${quote(String(c.queue_admission?.type))}' is not simulated; every request is admitted, as without an admission policy.`,
    );
  return notes;
}
