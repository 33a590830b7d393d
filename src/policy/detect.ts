/** Tell a file's kind from its top-level keys (for `validate` and the playground's paste box). */

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A cluster scenario's own top-level keys (any of them, and no `ops`, makes a file a scenario). */
export const SCENARIO_KEYS: readonly string[] = [
  'version',
  'cluster',
  'clients',
  'duration_s',
  'requests',
  'scheduler',
];

/** An arbitration script is recognised by its `ops` list. */
export function isArbitrationScript(value: unknown): boolean {
  return isMapping(value) && 'ops' in value;
}

/** A policy file has a root profile key or `models`, and is not a script. */
export function isPolicyDoc(value: unknown): boolean {
  if (!isMapping(value) || 'ops' in value) return false;
  return [
    'policy_classes',
    'models',
    'default_policy_family',
    'uncached_isl_buckets',
    'worker_selection',
    'request_classifier',
    // The unreleased flat/SLO line's root key: detected so that it gets its own message.
    'default_policy_class',
  ].some((k) => k in value);
}

/** What the playground reads of a pasted document before validating it. */
export type DocumentHead =
  | { kind: 'not-mapping' }
  | { kind: 'policy' | 'script' | 'scenario'; name: string; description: string };

/** A parsed document's kind, with its `name` and `description` when they are text ('' otherwise). */
export function documentHead(value: unknown): DocumentHead {
  if (!isMapping(value)) return { kind: 'not-mapping' };
  const kind = isPolicyDoc(value) ? 'policy' : isArbitrationScript(value) ? 'script' : 'scenario';
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  return { kind, name: text(value.name), description: text(value.description) };
}
