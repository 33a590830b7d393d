/**
 * Which released Dynamo accepts which policy file (shared/reference/dynamo-policy-generations.md):
 * every release from v1.3.0 to v1.6.1 reads the matrix policy (default_policy_family,
 * uncached_isl_buckets, policy_classes, models); later releases add keys. This module knows which
 * key each release introduced, tells the release range a file is valid for, reads what Dynamo reads
 * differently from a plain schema (`null` on an optional key = absent), and turns keys that belong
 * elsewhere — or to the unreleased flat/SLO line — into one clear message each.
 */
import type { Reporter } from '../format/reporter';
import type { Path } from '../format/yaml';
import { quote } from '../format/yaml';

/** Release lines in order; a line's patch releases accept the same policy files. */
export const RELEASES = [
  { id: 'v1.3', first: 'v1.3.0', last: 'v1.3.0' },
  { id: 'v1.4', first: 'v1.4.0', last: 'v1.4.2' },
  { id: 'v1.5', first: 'v1.5.0', last: 'v1.5.1' },
  { id: 'v1.6', first: 'v1.6.0', last: 'v1.6.1' },
] as const;

export type ReleaseId = (typeof RELEASES)[number]['id'];
const ALL: ReleaseId[] = RELEASES.map((r) => r.id);

/**
 * Keys that not every release accepts, and the releases that do. `queue_admission` is in the v1.4
 * crate's exports and absent from later mainline YAML (the reference's reading; the v1.5 crate was
 * not checked), so it is taken as v1.4-only.
 */
export const KEY_RELEASES: Record<string, readonly ReleaseId[]> = {
  queue_admission: ['v1.4'],
  worker_selection: ['v1.5', 'v1.6'],
  request_classifier: ['v1.6'],
  router: ['v1.6'],
};

/** "Dynamo v1.5.0 – v1.6.1" for a contiguous set of release lines (ids in order). */
export function releaseRangeText(ids: readonly string[]): string {
  const sel = RELEASES.filter((r) => ids.includes(r.id));
  if (sel.length === 0) return 'no released Dynamo';
  const first = sel[0].first;
  const last = sel[sel.length - 1].last;
  return first === last ? `Dynamo ${first}` : `Dynamo ${first} – ${last}`;
}

/** Where a release-limited key was used. */
export interface VersionedUse {
  key: string;
  path: Path;
  releases: readonly ReleaseId[];
}

/**
 * Which release-limited keys a policy writes: a validated file, or the parts of one that failed its
 * schema (only whether each key is there is read, never its value).
 */
export interface KeysWritten {
  worker_selection?: unknown;
  request_classifier?: unknown;
  router?: unknown;
  policy_classes?: readonly { queue_admission?: unknown }[];
  models?: { readonly [model: string]: { policy_classes: readonly { queue_admission?: unknown }[] } };
}

/** Every release-limited key a file uses, with its path relative to the policy. */
export function versionedUses(file: KeysWritten): VersionedUse[] {
  const uses: VersionedUse[] = [];
  const classes = (pp: Path, list: KeysWritten['policy_classes']) =>
    (list ?? []).forEach((c, i) => {
      if (c.queue_admission !== undefined)
        uses.push({
          key: 'queue_admission',
          path: [...pp, 'policy_classes', i, 'queue_admission'],
          releases: KEY_RELEASES.queue_admission,
        });
    });
  if (file.worker_selection !== undefined)
    uses.push({
      key: 'worker_selection',
      path: ['worker_selection'],
      releases: KEY_RELEASES.worker_selection,
    });
  if (file.request_classifier !== undefined)
    uses.push({
      key: 'request_classifier',
      path: ['request_classifier'],
      releases: KEY_RELEASES.request_classifier,
    });
  if (file.router !== undefined)
    uses.push({ key: 'router', path: ['router'], releases: KEY_RELEASES.router });
  classes([], file.policy_classes);
  for (const [m, p] of Object.entries(file.models ?? {})) classes(['models', m], p.policy_classes);
  return uses;
}

/** The release lines that accept every key the file uses (in release order; may be empty). */
export function releasesFor(uses: readonly VersionedUse[]): ReleaseId[] {
  return ALL.filter((id) => uses.every((u) => u.releases.includes(id)));
}

// ---- keys Dynamo reads as absent when null -----------------------------------------------------------

/** Optional class keys (Rust `Option`s): `key: null` is read as if the key were not there. */
const NULLABLE_CLASS_KEYS = [
  'policy_family',
  'cache_bucket',
  'prefill_busy_threshold',
  'prefill_busy_threshold_frac',
  'busy_worker_ratio',
  'request_queue_limit_per_worker',
  'raw_isl_token_queue_limit_per_worker',
  'cached_token_queue_limit_per_worker',
  'queue_admission',
] as const;

// ---- keys that belong elsewhere --------------------------------------------------------------------------

const STAGE0 =
  "belongs to Dynamo's unreleased flat/SLO policy line (default_policy_class, classes with slo_ms); no released Dynamo (v1.3.0 – v1.6.1) accepts it. Released files use default_policy_family, uncached_isl_buckets and policy_classes (name, quantum, policy_family, cache_bucket)";

const CLASS_KEYS = [
  'name',
  'quantum',
  'queue_policy',
  'policy_family',
  'cache_bucket',
  'prefill_busy_threshold',
  'prefill_busy_threshold_frac',
  'busy_worker_ratio',
  'request_queue_limit_per_worker',
  'raw_isl_token_queue_limit_per_worker',
  'cached_token_queue_limit_per_worker',
  'queue_admission',
];

const PER_REQUEST =
  'is per request, not per class: the router reads it from each request (in an arbitration script, give it on an enqueue op)';

/** Misplaced keys found on a class entry, and where each belongs. */
const ON_CLASS: Record<string, string> = {
  strict_priority: PER_REQUEST,
  priority: PER_REQUEST,
  due_at:
    'is per request, not per class: a request_classifier (Dynamo v1.6.0+) sets it on each request (in an arbitration script: due_at on an enqueue op)',
  min_tokens: 'belongs in an uncached_isl_buckets entry ({min_tokens, bucket}), not on a class',
  bucket:
    'belongs in an uncached_isl_buckets entry ({min_tokens, bucket}); a matrix class names its bucket with cache_bucket',
  default_policy_family: 'is a profile key: put it at the top level (or in a models entry), not on a class',
  uncached_isl_buckets: 'is a profile key: put it at the top level (or in a models entry), not on a class',
  models: 'is a top-level key, not a class key',
  worker_selection: 'is a top-level key (Dynamo v1.5.0+), not a class key',
  request_classifier: 'is a top-level key (Dynamo v1.6.0+), not a class key',
  router: 'is a top-level key (Dynamo v1.6.0+, the worker selector’s scoring knobs), not a class key',
  slo_ms: STAGE0,
};

/** Misplaced keys found at the top level (or in a models profile). */
function onProfile(isModel: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of CLASS_KEYS)
    out[k] = `is a class key: put it on an entry of ${isModel ? "this model's " : ''}policy_classes`;
  out.strict_priority = PER_REQUEST;
  out.priority = PER_REQUEST;
  out.due_at = ON_CLASS.due_at;
  out.min_tokens = 'belongs in an uncached_isl_buckets entry ({min_tokens, bucket})';
  out.default_policy_class = STAGE0;
  out.slo_ms = STAGE0;
  if (isModel) {
    out.models = 'is a top-level key: a models entry cannot hold models';
    out.worker_selection =
      'is a top-level key (Dynamo v1.5.0+): it applies to every model, not one models entry';
    out.request_classifier =
      'is a top-level key (Dynamo v1.6.0+): it applies to every model, not one models entry';
    out.router = 'is a top-level key (Dynamo v1.6.0+): its scoring knobs are process-wide, not per model';
  }
  return out;
}

const ON_BUCKET: Record<string, string> = {
  name: 'is a class key; a bucket entry has min_tokens and bucket',
  cache_bucket: 'is a class key; a bucket entry names itself with bucket',
  quantum: 'is a class key: put it on an entry of policy_classes',
  max_tokens: "is not a bucket key: a bucket runs from its min_tokens up to the next bucket's min_tokens",
};

function isMapping(v: unknown): v is { [k: string]: unknown } {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Where a policy is written in the unreleased flat/SLO line's shape. */
export interface FlatShape {
  /** Profiles (the root at the policy's path, or a models entry) that write default_policy_class. */
  profiles: Path[];
  /** worker_selection writes the flat line's `default`. */
  workerSelectionDefault: boolean;
}

/**
 * Before the schema: report keys that belong elsewhere (one message each, saying where) and drop
 * them, drop optional class keys given as `null`, and return the copy the schema should check. The
 * flat/SLO keys are reported and dropped like the others, so the rest of the file is checked in the
 * same round (a bad quantum beside a stray slo_ms); `flat` says which profiles were written in the
 * flat line's shape, whose missing released keys are then not reported as well (the flat/SLO message
 * already says which keys a released file uses).
 */
export function prepassPolicy(
  input: unknown,
  basePath: Path,
  r: Reporter,
): { value: unknown; flat: FlatShape } {
  const flat: FlatShape = { profiles: [], workerSelectionDefault: false };
  if (!isMapping(input)) return { value: input, flat };
  const strip = (obj: { [k: string]: unknown }, at: Path, table: Record<string, string>) => {
    const out: { [k: string]: unknown } = {};
    for (const [k, v] of Object.entries(obj)) {
      const why = table[k];
      if (why === undefined) {
        out[k] = v;
        continue;
      }
      if (k === 'default_policy_class' && why === STAGE0) flat.profiles.push(at);
      r.at([...at, k], `'${quote(String(k))}' ${why}`, { key: true });
    }
    return out;
  };
  const classes = (list: unknown, at: Path): unknown => {
    if (!Array.isArray(list)) return list;
    return list.map((c, i) => {
      if (!isMapping(c)) return c;
      const cp = [...at, i];
      const out = strip(c, cp, ON_CLASS);
      for (const k of NULLABLE_CLASS_KEYS) if (k in out && out[k] === null) delete out[k];
      return out;
    });
  };
  const buckets = (list: unknown, at: Path): unknown =>
    Array.isArray(list) ? list.map((b, i) => (isMapping(b) ? strip(b, [...at, i], ON_BUCKET) : b)) : list;
  const profile = (p: { [k: string]: unknown }, at: Path, isModel: boolean) => {
    const out = strip(p, at, onProfile(isModel));
    if ('policy_classes' in out) out.policy_classes = classes(out.policy_classes, [...at, 'policy_classes']);
    if ('uncached_isl_buckets' in out)
      out.uncached_isl_buckets = buckets(out.uncached_isl_buckets, [...at, 'uncached_isl_buckets']);
    return out;
  };
  const root = profile(input, basePath, false);
  if (isMapping(root.models)) {
    const models: { [k: string]: unknown } = {};
    for (const [m, p] of Object.entries(root.models))
      models[m] = isMapping(p) ? profile(p, [...basePath, 'models', m], true) : p;
    root.models = models;
  }
  const ws = root.worker_selection;
  if (isMapping(ws) && 'default' in ws) {
    flat.workerSelectionDefault = true;
    r.at(
      [...basePath, 'worker_selection', 'default'],
      "worker_selection.default is the shape of Dynamo's unreleased flat/SLO line; released Dynamo (v1.5.0+) names a selector per stage: aggregated, prefill, decode, encode",
      { key: true },
    );
    const { default: _d, ...rest } = ws;
    root.worker_selection = rest;
  }
  return { value: root, flat };
}

// ---- release notes in the editor's hover text ------------------------------------------------------------

/** Append which releases accept each key to the JSON Schema's property descriptions (in place). */
export function annotateReleases(schema: unknown): void {
  const walk = (node: unknown, ids: readonly ReleaseId[], depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 40) return;
    if (Array.isArray(node)) {
      for (const x of node) walk(x, ids, depth + 1);
      return;
    }
    const o = node as { [k: string]: unknown };
    for (const [key, v] of Object.entries(o)) {
      if (key !== 'properties' || !isMapping(v)) {
        walk(v, ids, depth + 1);
        continue;
      }
      for (const [k, prop] of Object.entries(v)) {
        if (!isMapping(prop)) continue;
        const own = KEY_RELEASES[k] ?? ids;
        const note = `Accepted by ${releaseRangeText(own)}.`;
        const d = typeof prop.description === 'string' ? prop.description : '';
        if (!d.includes(note)) prop.description = d ? `${d} ${note}` : note;
        walk(prop, own, depth + 1);
      }
    }
  };
  walk(schema, ALL, 0);
}
