/**
 * Cross-field rules of the policy YAML that a schema cannot express, each reported at the node that
 * is wrong: bucket floors and names, class names, matrix cells, references between keys, and the
 * root profile's all-or-none rule. Runs after the zod schema accepted the shapes.
 */
import type { PolicyClassEntry, PolicyFile, PolicyProfileEntry } from '../core/drr/types';
import { Reporter } from '../format/reporter';
import { didYouMean, type ParsedYaml, type Path, type Problem, quote } from '../format/yaml';
import { releaseRangeText, releasesFor, versionedUses } from './generations';
import { policyFileSchema, profileSchema } from './schema';

const rootProfileSchema = policyFileSchema.pick({
  default_policy_family: true,
  uncached_isl_buckets: true,
  policy_classes: true,
});

export interface RuleOptions {
  /**
   * Accept a root profile made only of explicit classes with just `policy_classes` (no family, no
   * buckets). Dynamo itself requires all three keys; the arbitration sandbox allows this shorthand.
   */
  explicitOnlyShorthand?: boolean;
}

const ROOT_KEYS = ['default_policy_family', 'uncached_isl_buckets', 'policy_classes'] as const;

function isMatrix(c: PolicyClassEntry): boolean {
  return c.policy_family !== undefined && c.cache_bucket !== undefined;
}

function hasThreshold(c: PolicyClassEntry): boolean {
  return c.prefill_busy_threshold !== undefined || c.prefill_busy_threshold_frac !== undefined;
}

function checkBuckets(r: Reporter, profile: PolicyProfileEntry, pp: Path): Set<string> {
  const names = new Set<string>();
  const buckets = profile.uncached_isl_buckets ?? [];
  const firstAt = new Map<string, number>();
  buckets.forEach((b, i) => {
    const bp = [...pp, 'uncached_isl_buckets', i];
    if (i === 0 && b.min_tokens !== 0)
      r.at([...bp, 'min_tokens'], `the first bucket must start at min_tokens: 0 (found ${b.min_tokens})`);
    if (i > 0 && b.min_tokens <= buckets[i - 1].min_tokens)
      r.at(
        [...bp, 'min_tokens'],
        `bucket floors must increase strictly: min_tokens ${b.min_tokens} follows ${buckets[i - 1].min_tokens}`,
      );
    const seen = firstAt.get(b.bucket);
    if (seen !== undefined)
      r.at(
        [...bp, 'bucket'],
        `duplicate bucket name '${quote(String(b.bucket))}' (first declared at line ${r.lineOf([...pp, 'uncached_isl_buckets', seen, 'bucket'])})`,
      );
    else firstAt.set(b.bucket, i);
    names.add(b.bucket);
  });
  return names;
}

function checkClasses(
  r: Reporter,
  profile: PolicyProfileEntry,
  pp: Path,
  bucketNames: Set<string>,
): string[] {
  const classes = profile.policy_classes ?? [];
  const firstAt = new Map<string, number>();
  const families: string[] = [];
  classes.forEach((c, i) => {
    const cp = [...pp, 'policy_classes', i];
    const seen = firstAt.get(c.name);
    if (seen !== undefined)
      r.at(
        [...cp, 'name'],
        `duplicate class name '${quote(String(c.name))}' (first declared at line ${r.lineOf([...pp, 'policy_classes', seen, 'name'])})`,
      );
    else firstAt.set(c.name, i);

    if ((c.policy_family === undefined) !== (c.cache_bucket === undefined)) {
      const given = c.policy_family !== undefined ? 'policy_family' : 'cache_bucket';
      const missing = given === 'policy_family' ? 'cache_bucket' : 'policy_family';
      r.at(
        [...cp, given],
        `class '${quote(String(c.name))}' has ${given} but no ${missing}: a matrix class needs both, an explicit class neither`,
        { key: true },
      );
    }
    if (c.cache_bucket !== undefined && !bucketNames.has(c.cache_bucket)) {
      const known = [...bucketNames];
      const hint = didYouMean(c.cache_bucket, known);
      r.at(
        [...cp, 'cache_bucket'],
        known.length === 0
          ? `unknown bucket '${quote(String(c.cache_bucket))}': the profile declares no uncached_isl_buckets`
          : `unknown bucket '${quote(String(c.cache_bucket))}'${hint ? ` (did you mean '${hint}'?)` : ''}; buckets: ${known.join(', ')}`,
      );
    }
    if (c.busy_worker_ratio !== undefined && !hasThreshold(c))
      r.at(
        [...cp, 'busy_worker_ratio'],
        `class '${quote(String(c.name))}': busy_worker_ratio needs prefill_busy_threshold or prefill_busy_threshold_frac`,
        { key: true },
      );
    if (isMatrix(c) && !families.includes(c.policy_family as string))
      families.push(c.policy_family as string);
  });
  return families;
}

function checkMatrix(
  r: Reporter,
  profile: PolicyProfileEntry,
  pp: Path,
  families: string[],
  bucketNames: Set<string>,
): void {
  const classes = profile.policy_classes ?? [];
  classes.forEach((c, i) => {
    if (!isMatrix(c) && families.includes(c.name))
      r.at(
        [...pp, 'policy_classes', i, 'name'],
        `explicit class '${quote(String(c.name))}' has the name of a policy family; rename it or make it a matrix class of that family`,
      );
  });
  const dpf = profile.default_policy_family;
  if (dpf !== undefined && !families.includes(dpf)) {
    const hint = didYouMean(dpf, families);
    r.at(
      [...pp, 'default_policy_family'],
      families.length === 0
        ? `default_policy_family '${quote(String(dpf))}' is not a family: no class of this profile has a policy_family`
        : `default_policy_family '${quote(String(dpf))}' is not a family of any matrix class${hint ? ` (did you mean '${hint}'?)` : ''}; families: ${families.join(', ')}`,
    );
  }
  const cellAt = new Map<string, number>();
  classes.forEach((c, i) => {
    if (!isMatrix(c) || !bucketNames.has(c.cache_bucket as string)) return;
    const key = `${c.policy_family}\u0000${c.cache_bucket}`;
    const first = cellAt.get(key);
    if (first !== undefined)
      r.at(
        [...pp, 'policy_classes', i],
        `duplicate matrix cell (family '${quote(String(c.policy_family))}', bucket '${quote(String(c.cache_bucket))}'): class '${quote(String(classes[first].name))}' at line ${r.lineOf([...pp, 'policy_classes', first])} already fills it`,
      );
    else cellAt.set(key, i);
  });
  const missing: string[] = [];
  for (const f of families)
    for (const b of profile.uncached_isl_buckets ?? [])
      if (!cellAt.has(`${f}\u0000${b.bucket}`))
        missing.push(`(family '${f}', bucket '${quote(String(b.bucket))}')`);
  if (missing.length > 0)
    r.at(
      [...pp, 'policy_classes'],
      `missing matrix cell${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: every family needs one class per bucket`,
      { key: true },
    );
}

const SESSION_AWARE_KNOBS = [
  'pause_threshold',
  'pause_target',
  'resume_hysteresis',
  'resume_timeout_seconds',
  'resume_priority_boost',
  'scheduler_interval_seconds',
  'acting_token_weight',
  'acting_decay_tau_seconds',
  'buffer_per_program',
] as const;

/** queue_admission (v1.4.x): one class per profile; knobs only in the session_aware form. */
function checkAdmission(r: Reporter, profile: PolicyProfileEntry, pp: Path): void {
  let first: number | null = null;
  profile.policy_classes.forEach((c, i) => {
    const qa = c.queue_admission;
    if (qa === undefined) return;
    const ap: Path = [...pp, 'policy_classes', i, 'queue_admission'];
    if (first !== null)
      r.at(
        ap,
        `only one class per profile may have queue_admission; class '${quote(String(profile.policy_classes[first].name))}' at line ${r.lineOf([...pp, 'policy_classes', first, 'queue_admission'])} already has one`,
        { key: true },
      );
    else first = i;
    const knobs = SESSION_AWARE_KNOBS.filter((k) => qa[k] !== undefined);
    if (qa.type !== 'session_aware' && knobs.length > 0)
      r.at(
        [...ap, knobs[0]],
        `${knobs[0]} is a knob of the session_aware form; a '${quote(String(qa.type))}' admission policy takes its settings under options`,
        { key: true },
      );
    if (qa.options !== undefined && knobs.length > 0)
      r.at([...ap, 'options'], 'give either the session_aware knobs or options, not both', { key: true });
    const pause = qa.pause_threshold ?? 0.95;
    if (qa.pause_target !== undefined && qa.pause_target > pause)
      r.at(
        [...ap, 'pause_target'],
        `pause_target must be in [0, pause_threshold] (pause_threshold is ${pause})`,
      );
    if (qa.resume_hysteresis !== undefined && qa.resume_hysteresis > pause)
      r.at(
        [...ap, 'resume_hysteresis'],
        `resume_hysteresis must be in [0, pause_threshold] (pause_threshold is ${pause})`,
      );
  });
}

function checkProfile(r: Reporter, profile: PolicyProfileEntry, pp: Path): void {
  const bucketNames = checkBuckets(r, profile, pp);
  const families = checkClasses(r, profile, pp, bucketNames);
  checkMatrix(r, profile, pp, families, bucketNames);
  checkAdmission(r, profile, pp);
}

const STAGES = ['aggregated', 'prefill', 'decode', 'encode'] as const;

/** worker_selection (v1.5.0+): non-empty, instance names unique and not `default`, targets resolve. */
function checkWorkerSelection(r: Reporter, file: PolicyFile, basePath: Path): void {
  const ws = file.worker_selection;
  if (ws === undefined) return;
  const wp: Path = [...basePath, 'worker_selection'];
  const stages = STAGES.filter((s) => ws[s] !== undefined);
  const instances = ws.instances ?? [];
  if (stages.length === 0 && instances.length === 0) {
    r.at(
      wp,
      'worker_selection must not be empty: name a selector for aggregated, prefill, decode or encode',
      {
        key: true,
      },
    );
    return;
  }
  const firstAt = new Map<string, number>();
  instances.forEach((inst, i) => {
    const ip: Path = [...wp, 'instances', i, 'name'];
    if (inst.name === 'default') {
      r.at(ip, "an instance may not be named 'default': that name selects the built-in selector");
      return;
    }
    const seen = firstAt.get(inst.name);
    if (seen !== undefined)
      r.at(
        ip,
        `duplicate instance name '${quote(String(inst.name))}' (first at line ${r.lineOf([...wp, 'instances', seen, 'name'])})`,
      );
    else firstAt.set(inst.name, i);
  });
  const names = [...firstAt.keys()];
  for (const s of stages) {
    const target = ws[s] as string;
    if (target === 'default' || firstAt.has(target)) continue;
    const hint = didYouMean(target, [...names, 'default']);
    r.at(
      [...wp, s],
      `${s} names no configured instance '${quote(String(target))}'${hint ? ` (did you mean '${hint}'?)` : ''}; instances: ${names.length ? names.join(', ') : 'none'}, or 'default' for the built-in selector`,
    );
  }
}

/** request_classifier (v1.6.0+): the type `default` is reserved. */
function checkClassifier(r: Reporter, file: PolicyFile, basePath: Path): void {
  if (file.request_classifier?.type === 'default')
    r.at(
      [...basePath, 'request_classifier', 'type'],
      "request_classifier.type 'default' is reserved; name a registered classifier plugin, or leave request_classifier out",
    );
}

/** The keys that only some releases accept must fit one release together. */
function checkReleases(r: Reporter, file: PolicyFile, basePath: Path): void {
  const uses = versionedUses(file);
  if (uses.length === 0 || releasesFor(uses).length > 0) return;
  const [a, ...rest] = [...uses].sort((x, y) => x.releases.length - y.releases.length);
  const b = rest.find((u) => !u.releases.some((id) => a.releases.includes(id)));
  if (!b) return;
  r.at(
    [...basePath, ...b.path],
    `no released Dynamo accepts both ${a.key} (${releaseRangeText(a.releases)}, line ${r.lineOf([...basePath, ...a.path])}) and ${b.key} (${releaseRangeText(b.releases)})`,
    { key: true },
  );
}

function checkRootKeys(r: Reporter, file: PolicyFile, basePath: Path, opts: RuleOptions): number {
  const present = ROOT_KEYS.filter((k) => file[k] !== undefined);
  const shorthand =
    opts.explicitOnlyShorthand === true &&
    present.length === 1 &&
    present[0] === 'policy_classes' &&
    !(file.policy_classes ?? []).some((c) => c.policy_family !== undefined || c.cache_bucket !== undefined);
  if (present.length > 0 && present.length < ROOT_KEYS.length && !shorthand) {
    const missing = ROOT_KEYS.filter((k) => file[k] === undefined);
    r.at(
      [...basePath, present[0]],
      `the root profile needs all of default_policy_family, uncached_isl_buckets and policy_classes, or none of them; missing: ${missing.join(', ')}`,
      { key: true },
    );
  }
  return present.length;
}

/** Every cross-field problem of a schema-valid policy at `basePath` of the parsed document. */
export function policyRuleProblems(
  file: PolicyFile,
  parsed: ParsedYaml,
  basePath: Path,
  opts: RuleOptions = {},
): Problem[] {
  const r = new Reporter(parsed);
  const rootKeys = checkRootKeys(r, file, basePath, opts);
  const modelNames = Object.keys(file.models ?? {});
  if (rootKeys === 0 && modelNames.length === 0 && file.worker_selection === undefined)
    r.at(
      basePath,
      'a policy needs a root profile (default_policy_family, uncached_isl_buckets, policy_classes), at least one entry under models, or worker_selection',
    );
  if (rootKeys > 0) checkProfile(r, file as PolicyProfileEntry, basePath);
  for (const m of modelNames) checkProfile(r, file.models![m], [...basePath, 'models', m]);
  checkWorkerSelection(r, file, basePath);
  checkClassifier(r, file, basePath);
  checkReleases(r, file, basePath);
  return r.problems;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Cross-field problems of the profiles that are schema-valid on their own, for a document whose
 * schema check failed elsewhere: so one typo does not hide a missing matrix cell in another profile.
 */
export function partialRuleProblems(
  input: unknown,
  parsed: ParsedYaml,
  basePath: Path,
  opts: RuleOptions = {},
): Problem[] {
  if (!isMapping(input)) return [];
  const r = new Reporter(parsed);
  const root: Record<string, unknown> = {};
  for (const k of ROOT_KEYS) if (input[k] !== undefined) root[k] = input[k];
  if (Object.keys(root).length > 0) {
    const ok = rootProfileSchema.safeParse(root);
    if (ok.success) {
      const file = ok.data as PolicyFile;
      if (checkRootKeys(r, file, basePath, opts) > 0 && file.policy_classes)
        checkProfile(r, file as PolicyProfileEntry, basePath);
    }
  }
  if (isMapping(input.models))
    for (const [m, v] of Object.entries(input.models)) {
      const ok = profileSchema.safeParse(v);
      if (ok.success) checkProfile(r, ok.data as PolicyProfileEntry, [...basePath, 'models', m]);
    }
  return r.problems;
}
