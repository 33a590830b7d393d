/**
 * The release range a policy text is valid for, in words for the editor's label: "Valid for Dynamo
 * v1.5.0 – v1.6.1", "Not valid for any released Dynamo" (with the first reason), or nothing for an
 * empty text. Loaded lazily by the editor (it pulls in the policy format).
 */
import { groupDigits, isTooLong, parseYaml, YAML_LIMITS } from '../format/yaml';
import { releaseRangeText, RELEASES } from './generations';
import { parsePolicyValue } from './parse';

export interface ReleaseLabel {
  /** Short text shown next to the editor. */
  text: string;
  /** Whether some released Dynamo accepts the file. */
  valid: boolean;
  /** What the playground does not simulate of the file (plain sentences). */
  notes: string[];
  /** The sandbox's explicit-classes shorthand: not a Dynamo file, but not a mistake either. */
  shorthand?: boolean;
}

export function policyReleaseLabel(text: string): ReleaseLabel | null {
  if (text.trim() === '') return null;
  // over the size limit the text is not read at all: it is too long, not malformed
  if (isTooLong(text))
    return {
      text: `Too long: ${groupDigits(text.length)} characters, over the ${groupDigits(YAML_LIMITS.maxBytes)} a document may hold`,
      valid: false,
      notes: [],
    };
  const parsed = parseYaml(text);
  if (!parsed.ok) return { text: 'Not valid YAML yet', valid: false, notes: [] };
  const res = parsePolicyValue(parsed.value, []);
  if (!res.ok && parsePolicyValue(parsed.value, [], { explicitOnlyShorthand: true }).ok)
    return {
      text: 'Playground shorthand (explicit classes only): Dynamo also needs default_policy_family and uncached_isl_buckets',
      valid: false,
      notes: [],
      shorthand: true,
    };
  if (!res.ok) {
    const flat = res.problems.some((p) => /flat\/SLO/.test(p.message));
    return {
      text: flat
        ? "Dynamo's unreleased flat/SLO format: no release accepts it"
        : 'Not valid for any released Dynamo',
      valid: false,
      notes: [],
    };
  }
  const ids = res.value.releases ?? RELEASES.map((r) => r.id);
  return { text: `Valid for ${releaseRangeText(ids)}`, valid: true, notes: res.value.notes ?? [] };
}
