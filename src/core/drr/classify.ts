/**
 * Class resolution: which profile a request uses (its model's, else the root, else the synthetic
 * default) and which physical class inside it (explicit name, else family x cache bucket).
 */
import { ROOT_PROFILE_NAME, syntheticDefaultProfile } from './default-policy';
import type { CompiledPolicy, Profile } from './types';

/**
 * The profiles a queue arbitrates, in a fixed order: index 0 is the fallback (the root profile, or
 * the synthetic default when the policy has none), then the model profiles in declaration order.
 */
export function profileList(policy: CompiledPolicy | null): Profile[] {
  if (!policy) return [syntheticDefaultProfile()];
  return [policy.root ?? syntheticDefaultProfile(), ...policy.models];
}

/** Lookup tables for one profile, built once. */
export interface ProfileIndex {
  profile: Profile;
  explicitByName: Map<string, number>;
  families: Set<string>;
  /** family -> class index per bucket (same order as `profile.buckets`). */
  cellsByFamily: Map<string, number[]>;
}

export function indexProfile(profile: Profile): ProfileIndex {
  const explicitByName = new Map<string, number>();
  profile.classes.forEach((c, i) => {
    if (c.policyFamily === undefined) explicitByName.set(c.name, i);
  });
  const bucketPos = new Map(profile.buckets.map((b, i) => [b.bucket, i] as const));
  const cellsByFamily = new Map<string, number[]>();
  for (const cell of profile.cells) {
    let row = cellsByFamily.get(cell.family);
    if (!row) {
      row = new Array<number>(profile.buckets.length).fill(-1);
      cellsByFamily.set(cell.family, row);
    }
    const at = bucketPos.get(cell.bucket);
    if (at !== undefined) row[at] = cell.classIndex;
  }
  return { profile, explicitByName, families: new Set(profile.families), cellsByFamily };
}

/** Index of the profile a request with this model uses within `profileList(policy)`. */
export function profileIndexFor(profiles: readonly Profile[], model: string | null | undefined): number {
  if (model) {
    for (let i = 1; i < profiles.length; i++) if (profiles[i].model === model) return i;
  }
  return 0;
}

/** Index of the last bucket whose floor is at or below the uncached token count. */
export function bucketIndexFor(profile: Profile, uncached: number): number {
  const b = profile.buckets;
  let lo = 0;
  let hi = b.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (b[mid].minTokens <= uncached) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * The physical class for a requested name and an uncached token count:
 * 1. an explicit class of that name;
 * 2. otherwise the requested family if known, else the default family (so missing, unknown and
 *    matrix-class names all fall back), and the bucket of the uncached tokens picks the cell.
 * A profile without families (synthetic default, or the sandbox's explicit-only shorthand) sends
 * every unmatched request to its first class.
 */
export function resolveClassIndex(
  index: ProfileIndex,
  requested: string | null | undefined,
  uncached: number,
): number {
  if (requested) {
    const explicit = index.explicitByName.get(requested);
    if (explicit !== undefined) return explicit;
  }
  const family = requested && index.families.has(requested) ? requested : index.profile.defaultFamily;
  if (family === null) return 0;
  const row = index.cellsByFamily.get(family);
  if (!row || row.length === 0) return 0;
  const cls = row[bucketIndexFor(index.profile, uncached)];
  return Math.max(cls, 0);
}

/**
 * How a request's class was found, step by step (for "why is this request in that class?"): the
 * profile and why it applies, the requested name and what it matched, the uncached tokens against
 * every bucket floor of the family, and the physical class.
 */
export interface ClassResolution {
  /** Profile name: `(root)`, `(default)` or the model name. */
  profile: string;
  /** `model`: the request's model has its own profile; `root`: it has none (or no model); `default`: the policy has no profile for it. */
  profile_reason: 'model' | 'root' | 'default';
  model: string | null;
  requested: string | null;
  /**
   * `explicit`: the requested name is an explicit class; `family`: it is a family; `default-family`:
   * no name, or one that is neither (falls back to default_policy_family); `first-class`: a profile
   * without families takes its first class.
   */
  via: 'explicit' | 'family' | 'default-family' | 'first-class';
  family: string | null;
  uncached: number;
  /** Every bucket floor compared, in order, and whether the uncached tokens reach it. */
  floors: { bucket: string; min_tokens: number; reached: boolean }[];
  bucket: string | null;
  class_name: string;
}

/** The resolution of `resolveClassIndex`, with its reasons (same answer, more words). */
export function explainResolution(
  index: ProfileIndex,
  model: string | null | undefined,
  requested: string | null | undefined,
  uncached: number,
): ClassResolution {
  const p = index.profile;
  const profileReason: ClassResolution['profile_reason'] =
    p.model !== null ? 'model' : p.name === ROOT_PROFILE_NAME ? 'root' : 'default';
  const classIndex = resolveClassIndex(index, requested, uncached);
  const base = {
    profile: p.name,
    profile_reason: profileReason,
    model: model ?? null,
    requested: requested ? requested : null,
    uncached,
    class_name: p.classes[classIndex].name,
  };
  if (requested && index.explicitByName.has(requested))
    return { ...base, via: 'explicit', family: null, floors: [], bucket: null };
  const family = requested && index.families.has(requested) ? requested : p.defaultFamily;
  if (family === null) return { ...base, via: 'first-class', family: null, floors: [], bucket: null };
  const floors = p.buckets.map((b) => ({
    bucket: b.bucket,
    min_tokens: b.minTokens,
    reached: b.minTokens <= uncached,
  }));
  const bucket = p.buckets.length > 0 ? p.buckets[bucketIndexFor(p, uncached)].bucket : null;
  return {
    ...base,
    via: requested && index.families.has(requested) ? 'family' : 'default-family',
    family,
    floors,
    bucket,
  };
}
