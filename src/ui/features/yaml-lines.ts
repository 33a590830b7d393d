/**
 * Where an explanation step's reference lives in the YAML the user edits: the line of a policy
 * class (`policy_classes[].name`, per model profile), of a scenario key given as a dotted path, or
 * of a client (`clients[].name`). Uses the `yaml` package's node ranges; never throws.
 */
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { ExplanationRef } from '../../core/explain';

export type EditorWhich = 'policy' | 'scenario';

export interface YamlSpot {
  which: EditorWhich;
  /** 1-based. */
  line: number;
  col: number;
}

interface Located {
  doc: ReturnType<typeof parseDocument>;
  lines: LineCounter;
}

function load(text: string): Located | null {
  if (text.trim() === '') return null;
  try {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines });
    return doc.errors.length > 0 ? null : { doc, lines };
  } catch {
    return null;
  }
}

function spotOf(at: Located, node: unknown, which: EditorWhich): YamlSpot | null {
  const range = (node as Node | undefined)?.range;
  if (!range) return null;
  const pos = at.lines.linePos(range[0]);
  return { which, line: pos.line, col: pos.col };
}

/** The `name` node of the entry called `name` in the list at `path`. */
function namedEntry(at: Located, path: (string | number)[], name: string): unknown {
  const list = at.doc.getIn(path, true);
  if (!isSeq(list)) return undefined;
  for (const item of list.items) if (isMap(item) && item.get('name') === name) return item.get('name', true);
  return undefined;
}

/** The key of the deepest existing entry along a dotted path (a defaulted key points at its parent's key). */
function deepest(at: Located, path: string[]): unknown {
  let node: unknown = at.doc.contents;
  let found: unknown;
  for (const seg of path) {
    if (!isMap(node)) break;
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === seg);
    if (!pair) break;
    found = pair.key;
    node = pair.value;
  }
  return found;
}

function profilePath(profile: string | undefined): (string | number)[] {
  return profile === undefined || profile === '(root)' || profile === '(default)' ? [] : ['models', profile];
}

function classPath(profile: string | undefined): (string | number)[] {
  return [...profilePath(profile), 'policy_classes'];
}

/** The node a policy reference (class, bucket floor, default family, profile) points at, under `base`. */
function policyNode(at: Located, base: (string | number)[], ref: ExplanationRef): unknown {
  const pp = [...base, ...profilePath(ref.profile)];
  switch (ref.kind) {
    case 'class':
      return namedEntry(at, [...base, ...classPath(ref.profile)], ref.name);
    case 'bucket': {
      const list = at.doc.getIn([...pp, 'uncached_isl_buckets'], true);
      if (!isSeq(list)) return undefined;
      for (const item of list.items)
        if (isMap(item) && item.get('bucket') === ref.name) return item.get('min_tokens', true) ?? item;
      return undefined;
    }
    case 'family':
      return keyNode(at, [...pp, 'default_policy_family']);
    case 'profile':
      return pp.length > base.length ? keyNode(at, pp) : keyNode(at, [...pp, 'policy_classes']);
    default:
      return undefined;
  }
}

/** The key node of the entry at `path` (so the line is the key's, even for a block value). */
function keyNode(at: Located, path: (string | number)[]): unknown {
  const parent = path.length === 1 ? at.doc.contents : at.doc.getIn(path.slice(0, -1), true);
  if (!isMap(parent)) return undefined;
  const last = String(path[path.length - 1]);
  const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === last);
  return pair?.key;
}

/**
 * The YAML spot of a reference: classes are looked up in the policy text first, then in the
 * policy inside the scenario (`router.policy`, or a script's `policy`); parameters and clients in the
 * scenario (a `router.policy…` parameter also in the policy text).
 */
export function findRef(ref: ExplanationRef, texts: { scenario: string; policy: string }): YamlSpot | null {
  const scenario = load(texts.scenario);
  const policy = load(texts.policy);
  if (ref.kind === 'class' || ref.kind === 'bucket' || ref.kind === 'family' || ref.kind === 'profile') {
    if (policy) {
      const spot = spotOf(policy, policyNode(policy, [], ref), 'policy');
      if (spot) return spot;
    }
    if (scenario) {
      for (const base of [['router', 'policy'], ['policy']]) {
        const spot = spotOf(scenario, policyNode(scenario, base, ref), 'scenario');
        if (spot) return spot;
      }
    }
    return null;
  }
  if (ref.kind === 'client') {
    return scenario ? spotOf(scenario, namedEntry(scenario, ['clients'], ref.name), 'scenario') : null;
  }
  const path = ref.name.split('.').filter((s) => s !== '');
  if (path.length === 0) return null;
  if (policy && path[0] === 'router' && path[1] === 'policy' && path.length > 2) {
    const spot = spotOf(policy, deepest(policy, path.slice(2)), 'policy');
    if (spot) return spot;
  }
  return scenario ? spotOf(scenario, deepest(scenario, path), 'scenario') : null;
}
