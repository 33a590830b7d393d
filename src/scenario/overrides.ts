/**
 * `--set key.path=value` for the CLI: edit a scenario before validation. Paths use dots and
 * brackets (`cluster.workers`, `clients[1].arrival.rate`, `clients.1.arrival.rate`); inside a list
 * of named mappings a segment may also be a name (`clients.alice.arrival.rate`). Values are parsed as
 * YAML scalars or flow collections (`3`, `true`, `dlpm`, `{dist: uniform, min: 1, max: 9}`).
 * Working on the YAML document keeps comments and positions of everything not overridden.
 */
import { Document, isMap, isSeq, parse, parseDocument } from 'yaml';
import { type Path, problem, type Result, quote } from '../format/yaml';

/** `a.b[2].c` → ['a', 'b', 2, 'c']; null when malformed. */
export function parseKeyPath(text: string): Path | null {
  const out: Path = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let last = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const gap = text.slice(last, m.index);
    if (gap !== '' && gap !== '.') return null;
    if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    last = re.lastIndex;
  }
  return out.length > 0 && last === text.length ? out : null;
}

/** Resolve name segments in lists of named mappings to indices, following the document. */
function resolvePath(doc: Document, path: Path): Path | string {
  const out: Path = [];
  let node: unknown = doc.contents;
  for (const seg of path) {
    if (isSeq(node)) {
      let index = typeof seg === 'number' ? seg : -1;
      if (typeof seg === 'string') {
        index = node.items.findIndex((item) => isMap(item) && item.get('name') === seg);
        if (index < 0) return `no entry named '${quote(String(seg))}' in ${out.join('.') || 'the document'}`;
      }
      out.push(index);
      node = node.items[index];
    } else {
      out.push(seg);
      node = isMap(node) ? node.get(seg, true) : undefined;
    }
  }
  return out;
}

/**
 * The path in the document (name segments resolved to list indices, as problems' paths have them)
 * that one `key.path=value` assignment sets; null when the assignment or the document is malformed.
 * Lets a caller tell a problem in an overridden value from a problem in the file.
 */
export function overrideTarget(text: string, set: string): Path | null {
  const eq = set.indexOf('=');
  const path = eq > 0 ? parseKeyPath(set.slice(0, eq).trim()) : null;
  if (path === null) return null;
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return null;
  const resolved = resolvePath(doc, path);
  return typeof resolved === 'string' ? null : resolved;
}

/**
 * Apply `key.path=value` assignments to a scenario: to its text (returns the new text, comments
 * kept) or to a plain value (returns a modified deep copy).
 */
export function applyOverrides(text: string, sets: readonly string[]): Result<string>;
export function applyOverrides(value: object, sets: readonly string[]): Result<unknown>;
export function applyOverrides(input: string | object, sets: readonly string[]): Result<unknown> {
  return typeof input === 'string' ? applyToText(input, sets) : applyOverridesToValue(input, sets);
}

function applyToText(text: string, sets: readonly string[]): Result<string> {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return { ok: true, value: text }; // let the validator report syntax errors
  const problems = [];
  for (const set of sets) {
    const eq = set.indexOf('=');
    if (eq <= 0) {
      problems.push(problem(1, 1, `--set ${set}: expected key.path=value`));
      continue;
    }
    const keyText = set.slice(0, eq).trim();
    const path = parseKeyPath(keyText);
    if (!path) {
      problems.push(problem(1, 1, `--set ${keyText}: malformed key path (use a.b.c or a.b[2].c)`));
      continue;
    }
    const resolved = resolvePath(doc, path);
    if (typeof resolved === 'string') {
      problems.push(problem(1, 1, `--set ${keyText}: ${resolved}`, path));
      continue;
    }
    let value: unknown;
    try {
      value = parse(set.slice(eq + 1));
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      problems.push(problem(1, 1, `--set ${keyText}: value is not valid YAML (${why})`, path));
      continue;
    }
    try {
      doc.setIn(resolved, doc.createNode(value ?? null));
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      problems.push(problem(1, 1, `--set ${keyText}: cannot set this path (${why})`, path));
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: doc.toString() };
}

/** The same on a plain value (returns a modified deep copy). */
export function applyOverridesToValue(value: unknown, sets: readonly string[]): Result<unknown> {
  const doc = new Document(value);
  const res = applyToText(doc.toString(), sets);
  return res.ok ? { ok: true, value: parse(res.value) } : res;
}
