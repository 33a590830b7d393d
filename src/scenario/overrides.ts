/**
 * `--set key.path=value` for the CLI: edit a scenario before validation. Paths use dots and
 * brackets (`cluster.workers`, `clients[1].arrival.rate`, `clients.1.arrival.rate`); inside a list
 * of named mappings a segment may also be a name (`clients.alice.arrival.rate`). Values are parsed as
 * YAML scalars or flow collections (`3`, `true`, `dlpm`, `{dist: uniform, min: 1, max: 9}`).
 * Working on the YAML document keeps comments and positions of everything not overridden.
 */
import { Document, isMap, isSeq, parse, parseDocument } from 'yaml';
import {
  formatProblems,
  type Path,
  parseYaml,
  pathText,
  type Problem,
  problem,
  type Result,
  quote,
} from '../format/yaml';

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

/**
 * Resolve name segments in lists of named mappings to indices, following the document. An index may
 * name an entry or the one just past the end (adding an entry), never one further: setting [9] of a
 * 3-entry list would fill [3] to [8] with empty entries nobody wrote.
 */
function resolvePath(doc: Document, path: Path): Path | string {
  const out: Path = [];
  let node: unknown = doc.contents;
  for (const seg of path) {
    if (isSeq(node)) {
      let index = typeof seg === 'number' ? seg : -1;
      const where = pathText(out) || 'the document';
      if (typeof seg === 'string') {
        index = node.items.findIndex((item) => isMap(item) && item.get('name') === seg);
        if (index < 0) return `no entry named '${quote(String(seg))}' in ${where}`;
      } else if (index > node.items.length) {
        const n = node.items.length;
        const has = n === 0 ? 'it is empty' : `it has ${n}, [0]${n > 1 ? ` to [${n - 1}]` : ''}`;
        return `no entry [${index}] in ${where} (${has}; [${n}] adds one)`;
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
  return overrideOf(text, set).target;
}

/**
 * One assignment as `formatProblem` needs it: the path it sets, and the first part of that path the
 * file did not have (the override adds it: `clients[3].name=x` adds clients[3], and a problem there,
 * such as its missing arrival, is the override's, not a line of the file's).
 */
export function overrideOf(text: string, set: string): Override {
  const eq = set.indexOf('=');
  const path = eq > 0 ? parseKeyPath(set.slice(0, eq).trim()) : null;
  if (path === null) return { set, target: null };
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return { set, target: null };
  const resolved = resolvePath(doc, path);
  if (typeof resolved === 'string') return { set, target: null };
  for (let i = 1; i < resolved.length; i++)
    if (!doc.hasIn(resolved.slice(0, i))) return { set, target: resolved, created: resolved.slice(0, i) };
  return { set, target: resolved };
}

/**
 * Apply `key.path=value` assignments to a scenario: to its text (returns the new text, comments
 * kept) or to a plain value (returns a modified deep copy).
 */
export function applyOverrides(text: string, sets: readonly string[], lead?: OverrideLead): Result<string>;
export function applyOverrides(value: object, sets: readonly string[]): Result<unknown>;
export function applyOverrides(
  input: string | object,
  sets: readonly string[],
  lead: OverrideLead = '--set',
): Result<unknown> {
  return typeof input === 'string' ? applyToText(input, sets, lead) : applyOverridesToValue(input, sets);
}

/**
 * How a message names an assignment: `--set` on the command line, `override` on the page (where
 * nothing is typed after `--set`).
 */
export type OverrideLead = '--set' | 'override';

function applyToText(text: string, sets: readonly string[], lead: OverrideLead): Result<string> {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return { ok: true, value: text }; // let the validator report syntax errors
  const problems = [];
  for (const set of sets) {
    const eq = set.indexOf('=');
    if (eq <= 0) {
      problems.push(problem(1, 1, `${lead} ${set}: expected key.path=value`));
      continue;
    }
    const keyText = set.slice(0, eq).trim();
    const path = parseKeyPath(keyText);
    if (!path) {
      problems.push(problem(1, 1, `${lead} ${keyText}: malformed key path (use a.b.c or a.b[2].c)`));
      continue;
    }
    const resolved = resolvePath(doc, path);
    if (typeof resolved === 'string') {
      problems.push(problem(1, 1, `${lead} ${keyText}: ${resolved}`, path));
      continue;
    }
    let value: unknown;
    try {
      // integers read exactly (quanta and limits are unsigned 64-bit), as the file's own are read
      value = parse(set.slice(eq + 1), { intAsBigInt: true });
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      problems.push(problem(1, 1, `${lead} ${keyText}: value is not valid YAML (${why})`, path));
      continue;
    }
    try {
      doc.setIn(resolved, doc.createNode(value ?? null));
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      problems.push(problem(1, 1, `${lead} ${keyText}: cannot set this path (${why})`, path));
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: doc.toString() };
}

/** The same on a plain value (returns a modified deep copy). */
export function applyOverridesToValue(value: unknown, sets: readonly string[]): Result<unknown> {
  const doc = new Document(value);
  const res = applyToText(doc.toString(), sets, '--set');
  return res.ok ? { ok: true, value: parse(res.value) } : res;
}

/** One `--set` assignment and the document path it sets (null when it could not be resolved). */
export interface Override {
  set: string;
  target: Path | null;
  /** The shortest part of `target` the file does not have, when the override adds it. */
  created?: Path;
}

const startsWith = (path: Path, prefix: Path): boolean =>
  prefix.length <= path.length && prefix.every((seg, i) => path[i] === seg);

/**
 * `file:line:col: message`, except for a problem in a value given by `--set` (its path lies at or
 * under the override's): that one names the override and the column inside it,
 * `--set scheduler.policy=lpmx:18: policy must be one of …`, since the file's line would blame text
 * the user did not write. The last override of a path wins, as when they were applied.
 */
export function formatProblem(
  p: Problem,
  file: string,
  sets: readonly Override[],
  lead: OverrideLead = '--set',
): string {
  const unknownKey = /^(?:[\w.[\]-]+: )?unknown key/.test(p.message);
  // an unknown key the override itself introduced (`--set bogus.key=1`) sits above the override's path
  const by = [...sets]
    .reverse()
    .find(
      (o) =>
        o.target !== null &&
        (startsWith(p.path, o.target) ||
          (o.created !== undefined && startsWith(p.path, o.created)) ||
          (unknownKey && p.path.length > 0 && startsWith(o.target, p.path))),
    );
  if (by === undefined || by.target === null) return formatProblems([p], file);
  // the message's own `key.path: ` lead is the override's key, already named
  const own = /^[\w.[\]-]+: /.exec(p.message);
  const message = own ? p.message.slice(own[0].length) : p.message;
  return `${lead} ${quote(by.set)}:${overrideColumn(by.set, by.target, p.path, message)}: ${message}`;
}

/**
 * The 1-based column inside `key.path=value` of what a problem is about: the key's last segment for
 * an unknown key, else the value (or, in a flow value such as `{mode: fixd}`, the part of it the
 * problem's path names).
 */
function overrideColumn(set: string, target: Path, path: Path, message: string): number {
  const eq = set.indexOf('=');
  const valueText = set.slice(eq + 1);
  const valueCol = eq + 2 + (valueText.length - valueText.trimStart().length);
  const unknownKey = message.startsWith('unknown key');
  if (path.length < target.length) {
    // the unknown key is one of the override's own segments: point at it in `key.path`
    // the segments as written (`clients.alice.arival`), not as resolved (`clients[0].arival`)
    const key = set.slice(0, eq);
    const written = parseKeyPath(key.trim()) ?? path;
    let from = 0;
    let at = -1;
    for (const seg of written.slice(0, path.length)) {
      at = key.indexOf(String(seg), from);
      if (at < 0) return 1;
      from = at + String(seg).length;
    }
    return at + 1;
  }
  const rel = path.slice(target.length);
  if (rel.length === 0) {
    if (!unknownKey) return valueCol;
    const at = set.slice(0, eq).lastIndexOf(String(target[target.length - 1]));
    return at >= 0 ? at + 1 : 1;
  }
  const parsed = parseYaml(valueText);
  if (!parsed.ok) return valueCol;
  const at = parsed.value.locate(rel, { key: unknownKey });
  return at.line === 1 ? eq + 1 + at.col : valueCol;
}
