/**
 * Cross-field rules of the policy YAML that a schema cannot express, each reported at the node that
 * is wrong: bucket floors and names, class names, matrix cells, references between keys, and the
 * root profile's all-or-none rule. They run on every part of the document the schema accepts, in
 * the same round as the schema's own problems, so a user sees every problem at once: each field is
 * checked on its own, and a rule whose inputs are broken (a class name that is not an identifier, a
 * bucket list with a malformed entry) is skipped rather than guessing.
 */
import type { z } from 'zod';
import type { PolicyBucketEntry, PolicyClassEntry, WorkerSelectionEntry } from '../core/drr/types';
import { Reporter } from '../format/reporter';
import { didYouMean, nameList, type ParsedYaml, type Path, type Problem, quote } from '../format/yaml';
import {
  type FlatShape,
  type KeysWritten,
  releaseRangeText,
  releasesFor,
  versionedUses,
} from './generations';
import { bucketSchema, classSchema, policyFileSchema, workerSelectionSchema } from './schema';

export interface RuleOptions {
  /**
   * Accept a root profile made only of explicit classes with just `policy_classes` (no family, no
   * buckets). Dynamo itself requires all three keys; the arbitration sandbox allows this shorthand.
   */
  explicitOnlyShorthand?: boolean;
}

const ROOT_KEYS = ['default_policy_family', 'uncached_isl_buckets', 'policy_classes'] as const;

type Mapping = { readonly [k: string]: unknown };

function isMapping(v: unknown): v is Mapping {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** One entry of a list (a class, a bucket) as far as the schema accepts it. */
interface Entry<T> {
  /** The fields whose values the schema accepts, each checked on its own. */
  ok: Partial<T>;
  /** The keys written (after the prepass dropped misplaced keys and nulls), accepted or not. */
  given: ReadonlySet<string>;
  /** Not a mapping: nothing about the entry is known. */
  opaque: boolean;
}

function opaque<T>(): Entry<T> {
  return { ok: {}, given: new Set(), opaque: true };
}

/** The fields of a mapping that their own schemas accept. */
function acceptedFields(shape: { readonly [k: string]: z.ZodType }, raw: Mapping): { [k: string]: unknown } {
  const kept: { [k: string]: unknown } = {};
  for (const [k, field] of Object.entries(shape))
    if (k in raw && field.safeParse(raw[k]).success) kept[k] = raw[k];
  return kept;
}

const partialClass = classSchema.partial();
const partialBucket = bucketSchema.partial();

function classEntry(raw: unknown): Entry<PolicyClassEntry> {
  if (!isMapping(raw)) return opaque();
  const res = partialClass.safeParse(acceptedFields(classSchema.shape, raw));
  return res.success ? { ok: res.data, given: new Set(Object.keys(raw)), opaque: false } : opaque();
}

function bucketEntry(raw: unknown): Entry<PolicyBucketEntry> {
  if (!isMapping(raw)) return opaque();
  const res = partialBucket.safeParse(acceptedFields(bucketSchema.shape, raw));
  return res.success ? { ok: res.data, given: new Set(Object.keys(raw)), opaque: false } : opaque();
}

/** A profile (the root's keys, or a models entry) as far as the schema accepts it. */
interface ProfileView {
  path: Path;
  /** default_policy_family when written and an identifier. */
  dpf: string | undefined;
  buckets: Entry<PolicyBucketEntry>[];
  /** Every bucket name of the profile is known: none declared (where that is allowed), or all readable. */
  bucketsComplete: boolean;
  classes: Entry<PolicyClassEntry>[];
  /** A non-empty list of classes (its entries may still be broken). */
  classesKnown: boolean;
}

const dpfSchema = policyFileSchema.shape.default_policy_family;

function profileView(raw: Mapping, path: Path, isModel: boolean): ProfileView {
  const dpf = dpfSchema.safeParse(raw.default_policy_family);
  const rb = raw.uncached_isl_buckets;
  const buckets = Array.isArray(rb) ? rb.map(bucketEntry) : [];
  const rc = raw.policy_classes;
  return {
    path,
    dpf: dpf.success ? dpf.data : undefined,
    buckets,
    bucketsComplete:
      (rb === undefined && !isModel) ||
      (Array.isArray(rb) && rb.length > 0 && buckets.every((b) => b.ok.bucket !== undefined)),
    classes: Array.isArray(rc) ? rc.map(classEntry) : [],
    classesKnown: Array.isArray(rc) && rc.length > 0,
  };
}

const isMatrix = (c: Entry<PolicyClassEntry>) => c.given.has('policy_family') && c.given.has('cache_bucket');
const isExplicit = (c: Entry<PolicyClassEntry>) =>
  !c.given.has('policy_family') && !c.given.has('cache_bucket');

/** `class 'a'` when the name is readable, else `the class at line N`. */
function classLabel(r: Reporter, c: Entry<PolicyClassEntry>, at: Path): string {
  return c.ok.name !== undefined
    ? `class '${quote(String(c.ok.name))}'`
    : `the class at line ${r.lineOf(at)}`;
}

function checkBuckets(r: Reporter, pv: ProfileView): Set<string> {
  const pp = pv.path;
  const names = new Set<string>();
  const firstAt = new Map<string, number>();
  pv.buckets.forEach((b, i) => {
    const bp = [...pp, 'uncached_isl_buckets', i];
    const min = b.ok.min_tokens;
    if (i === 0 && min !== undefined && min !== 0)
      r.at([...bp, 'min_tokens'], `the first bucket must start at min_tokens: 0 (found ${min})`);
    const prev = i > 0 ? pv.buckets[i - 1].ok.min_tokens : undefined;
    if (min !== undefined && prev !== undefined && min <= prev)
      r.at([...bp, 'min_tokens'], `bucket floors must increase strictly: min_tokens ${min} follows ${prev}`);
    const name = b.ok.bucket;
    if (name === undefined) return;
    const seen = firstAt.get(name);
    if (seen !== undefined)
      r.at(
        [...bp, 'bucket'],
        `duplicate bucket name '${quote(String(name))}' (first declared at line ${r.lineOf([...pp, 'uncached_isl_buckets', seen, 'bucket'])})`,
      );
    else firstAt.set(name, i);
    names.add(name);
  });
  return names;
}

function checkClasses(r: Reporter, pv: ProfileView, bucketNames: Set<string>): string[] {
  const pp = pv.path;
  const firstAt = new Map<string, number>();
  const families: string[] = [];
  pv.classes.forEach((c, i) => {
    if (c.opaque) return;
    const cp = [...pp, 'policy_classes', i];
    const name = c.ok.name;
    if (name !== undefined) {
      const seen = firstAt.get(name);
      if (seen !== undefined)
        r.at(
          [...cp, 'name'],
          `duplicate class name '${quote(String(name))}' (first declared at line ${r.lineOf([...pp, 'policy_classes', seen, 'name'])})`,
        );
      else firstAt.set(name, i);
    }
    const hasFamily = c.given.has('policy_family');
    if (hasFamily !== c.given.has('cache_bucket')) {
      const given = hasFamily ? 'policy_family' : 'cache_bucket';
      const missing = given === 'policy_family' ? 'cache_bucket' : 'policy_family';
      const known = missing === 'cache_bucket' && pv.bucketsComplete ? [...bucketNames] : [];
      r.at(
        [...cp, given],
        `${classLabel(r, c, cp)} has ${given} but no ${missing}: a matrix class needs both, an explicit class neither; add ${missing}${known.length > 0 ? ` (buckets: ${nameList(known)})` : ''} or remove ${given}`,
        { key: true },
      );
    }
    const bucket = c.ok.cache_bucket;
    if (bucket !== undefined && pv.bucketsComplete && !bucketNames.has(bucket)) {
      const known = [...bucketNames];
      const hint = didYouMean(bucket, known);
      r.at(
        [...cp, 'cache_bucket'],
        known.length === 0
          ? `unknown bucket '${quote(String(bucket))}': the profile declares no uncached_isl_buckets`
          : `unknown bucket '${quote(String(bucket))}'${hint ? ` (did you mean '${hint}'?)` : ''}; buckets: ${nameList(known)}`,
      );
    }
    if (
      c.given.has('busy_worker_ratio') &&
      !c.given.has('prefill_busy_threshold') &&
      !c.given.has('prefill_busy_threshold_frac')
    )
      r.at(
        [...cp, 'busy_worker_ratio'],
        `${classLabel(r, c, cp)}: busy_worker_ratio needs prefill_busy_threshold or prefill_busy_threshold_frac`,
        { key: true },
      );
    const family = c.ok.policy_family;
    if (isMatrix(c) && family !== undefined && !families.includes(family)) families.push(family);
  });
  return families;
}

function checkMatrix(r: Reporter, pv: ProfileView, families: string[], bucketNames: Set<string>): void {
  const pp = pv.path;
  pv.classes.forEach((c, i) => {
    if (!c.opaque && isExplicit(c) && c.ok.name !== undefined && families.includes(c.ok.name))
      r.at(
        [...pp, 'policy_classes', i, 'name'],
        `explicit class '${quote(String(c.ok.name))}' has the name of a policy family; rename it or make it a matrix class of that family`,
      );
  });
  // every family is known only when every class is readable, its policy_family accepted, and it is
  // either a matrix class or an explicit one: a class with only one of policy_family and cache_bucket
  // (reported at that key) may be meant for any family, so it counts as broken, not as explicit
  const allFamilies =
    pv.classesKnown &&
    pv.classes.every(
      (c) =>
        !c.opaque &&
        (isMatrix(c) || isExplicit(c)) &&
        !(c.given.has('policy_family') && c.ok.policy_family === undefined),
    );
  const dpf = pv.dpf;
  if (dpf !== undefined && allFamilies && !families.includes(dpf)) {
    const hint = didYouMean(dpf, families);
    r.at(
      [...pp, 'default_policy_family'],
      families.length === 0
        ? `default_policy_family '${quote(String(dpf))}' is not a family: no class of this profile has a policy_family`
        : `default_policy_family '${quote(String(dpf))}' is not a family of any matrix class${hint ? ` (did you mean '${hint}'?)` : ''}; families: ${nameList(families)}`,
    );
  }
  const cellAt = new Map<string, number>();
  pv.classes.forEach((c, i) => {
    const { policy_family: f, cache_bucket: b } = c.ok;
    if (!isMatrix(c) || f === undefined || b === undefined || !bucketNames.has(b)) return;
    const key = `${f}\u0000${b}`;
    const first = cellAt.get(key);
    if (first !== undefined) {
      const at = [...pp, 'policy_classes', first];
      r.at(
        [...pp, 'policy_classes', i],
        `duplicate matrix cell (family '${quote(String(f))}', bucket '${quote(String(b))}'): ${classLabel(r, pv.classes[first], at)} at line ${r.lineOf(at)} already fills it`,
      );
    } else cellAt.set(key, i);
  });
  // a missing cell is known only when every cell and every bucket is
  const allCells = pv.classes.every(
    (c) => !isMatrix(c) || (c.ok.policy_family !== undefined && c.ok.cache_bucket !== undefined),
  );
  if (!allFamilies || !allCells || !pv.bucketsComplete) return;
  const missing: string[] = [];
  for (const f of families)
    for (const b of pv.buckets)
      if (b.ok.bucket !== undefined && !cellAt.has(`${f}\u0000${b.ok.bucket}`))
        missing.push(`(family '${quote(f, 40)}', bucket '${quote(String(b.ok.bucket), 40)}')`);
  if (missing.length > 0) {
    const shown = missing.slice(0, 2).join(', ');
    r.at(
      [...pp, 'policy_classes'],
      `missing matrix cell${missing.length > 1 ? 's' : ''} ${missing.length > 2 ? `${shown} and ${missing.length - 2} more` : shown}: every family needs one class per bucket`,
      { key: true },
    );
  }
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
function checkAdmission(r: Reporter, pv: ProfileView): void {
  const pp = pv.path;
  let first: number | null = null;
  pv.classes.forEach((c, i) => {
    if (c.opaque || !c.given.has('queue_admission')) return;
    const ap: Path = [...pp, 'policy_classes', i, 'queue_admission'];
    if (first !== null) {
      const at = [...pp, 'policy_classes', first];
      const other = pv.classes[first].ok.name;
      r.at(
        ap,
        `only one class per profile may have queue_admission; ${other !== undefined ? `class '${quote(String(other))}'` : 'the class'} at line ${r.lineOf([...at, 'queue_admission'])} already has one`,
        { key: true },
      );
    } else first = i;
    const qa = c.ok.queue_admission;
    if (qa === undefined) return;
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

function checkProfile(r: Reporter, pv: ProfileView): void {
  const bucketNames = checkBuckets(r, pv);
  const families = checkClasses(r, pv, bucketNames);
  checkMatrix(r, pv, families, bucketNames);
  checkAdmission(r, pv);
}

const STAGES = ['aggregated', 'prefill', 'decode', 'encode'] as const;

/** worker_selection (v1.5.0+): non-empty, instance names unique and not `default`, targets resolve. */
function checkWorkerSelection(r: Reporter, ws: WorkerSelectionEntry, basePath: Path, flat: FlatShape): void {
  const wp: Path = [...basePath, 'worker_selection'];
  const stages = STAGES.filter((s) => ws[s] !== undefined);
  const instances = ws.instances ?? [];
  // a flat-line `default` (reported, then dropped) was its selector: the section was not empty
  if (stages.length === 0 && instances.length === 0 && !flat.workerSelectionDefault) {
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
      `${s} names no configured instance '${quote(String(target))}'${hint ? ` (did you mean '${hint}'?)` : ''}; instances: ${names.length ? nameList(names) : 'none'}, or 'default' for the built-in selector`,
    );
  }
}

/** The keys that only some releases accept must fit one release together. */
function checkReleases(r: Reporter, written: KeysWritten, basePath: Path): void {
  const uses = versionedUses(written);
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

function checkRootKeys(
  r: Reporter,
  input: Mapping,
  root: ProfileView,
  basePath: Path,
  opts: RuleOptions,
  rootFlat: boolean,
): number {
  const present = ROOT_KEYS.filter((k) => input[k] !== undefined);
  const shorthand =
    opts.explicitOnlyShorthand === true &&
    present.length === 1 &&
    present[0] === 'policy_classes' &&
    !root.classes.some((c) => c.given.has('policy_family') || c.given.has('cache_bucket'));
  // a root written in the flat/SLO shape lacks the released keys: its flat/SLO message says which
  if (present.length > 0 && present.length < ROOT_KEYS.length && !shorthand && !rootFlat) {
    const missing = ROOT_KEYS.filter((k) => input[k] === undefined);
    r.at(
      [...basePath, present[0]],
      `the root profile needs all of default_policy_family, uncached_isl_buckets and policy_classes, or none of them; missing: ${missing.join(', ')}`,
      { key: true },
    );
  }
  return present.length;
}

/**
 * Every cross-field problem of the policy at `basePath` of the parsed document, given as the prepass
 * left it (misplaced keys and nulls dropped), whether or not the schema accepts all of it: the rules
 * look only at the fields the schema accepts and skip what depends on a broken one.
 */
export function policyRuleProblems(
  input: unknown,
  parsed: ParsedYaml,
  basePath: Path,
  opts: RuleOptions = {},
  flat: FlatShape = { profiles: [], workerSelectionDefault: false },
): Problem[] {
  if (!isMapping(input)) return [];
  const r = new Reporter(parsed);
  const root = profileView(input, basePath, false);
  const rootFlat = flat.profiles.some((p) => JSON.stringify(p) === JSON.stringify(basePath));
  const rootKeys = checkRootKeys(r, input, root, basePath, opts, rootFlat);
  const models = isMapping(input.models) ? Object.entries(input.models) : [];
  if (
    rootKeys === 0 &&
    (input.models === undefined || (isMapping(input.models) && models.length === 0)) &&
    input.worker_selection === undefined &&
    !rootFlat
  )
    r.at(
      basePath,
      'a policy needs a root profile (default_policy_family, uncached_isl_buckets, policy_classes), at least one entry under models, or worker_selection',
    );
  if (rootKeys > 0) checkProfile(r, root);
  const profiles: [string, ProfileView][] = [];
  for (const [m, p] of models)
    if (isMapping(p)) {
      const view = profileView(p, [...basePath, 'models', m], true);
      profiles.push([m, view]);
      checkProfile(r, view);
    }
  if (input.worker_selection !== undefined) {
    const ws = workerSelectionSchema.safeParse(input.worker_selection);
    if (ws.success) checkWorkerSelection(r, ws.data, basePath, flat);
  }
  // request_classifier (v1.6.0+): the type `default` is reserved
  if (isMapping(input.request_classifier) && input.request_classifier.type === 'default')
    r.at(
      [...basePath, 'request_classifier', 'type'],
      "request_classifier.type 'default' is reserved; name a registered classifier plugin, or leave request_classifier out",
    );
  const admissions = (pv: ProfileView) =>
    pv.classes.map((c) => ({ queue_admission: c.given.has('queue_admission') ? true : undefined }));
  checkReleases(
    r,
    {
      worker_selection: input.worker_selection,
      request_classifier: input.request_classifier,
      router: input.router,
      policy_classes: admissions(root),
      models: Object.fromEntries(profiles.map(([m, pv]) => [m, { policy_classes: admissions(pv) }])),
    },
    basePath,
  );
  return r.problems;
}
