/**
 * YAML with positions: parse a document, validate it against a zod schema, and report every problem
 * as `line:col: message` (1-based), never as a stack trace. Shared by the policy, scenario and
 * arbitration-script formats.
 */
import {
  Composer,
  type CST,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  type Node,
  Parser,
  visit,
  YAMLParseError,
} from 'yaml';
import type { z } from 'zod';
import { flattenIssues, issueProblem } from './issues';

export type Path = (string | number)[];

export interface Problem {
  line: number;
  col: number;
  message: string;
  path: Path;
  /**
   * The problem is in another file the document brings in (a `policy_file`, the command line's
   * `--policy`): where in that file. `line`/`col` stay the document's own place that names it.
   */
  source?: ProblemSource;
}

/** Where, in a file a document brings in, a problem is (see Problem.source). */
export interface ProblemSource {
  /** The file as the user named it. */
  file: string;
  /**
   * How it was named: the document's key (`policy_file`, `trace.file`, …; the file is relative to the
   * document) or a command-line flag (`--policy`; the file is as given).
   */
  by: string;
  line: number;
  col: number;
}

/**
 * `problems` of a file the document brings in, placed at `at` (where the document names it), each
 * keeping its own place in that file.
 */
export function fromFile(
  problems: readonly Pick<Problem, 'line' | 'col' | 'message'>[],
  file: string,
  by: string,
  at: { line: number; col: number },
  path: Path,
): Problem[] {
  return problems.map((p) => ({
    ...problem(at.line, at.col, p.message, path),
    source: { file, by, line: p.line, col: p.col },
  }));
}

/**
 * A problem's text where the document's place is already shown (the editor's marker and list): a
 * problem of a brought-in file leads with its place there, `traces/x.jsonl:12:3: …`.
 */
export function problemText(p: Problem): string {
  const s = p.source;
  return s === undefined ? p.message : `${quoteFile(s.file)}:${s.line}:${s.col}: ${p.message}`;
}

const byFlag = (s: ProblemSource) => s.by.startsWith('--');

/** A brought-in file's name as the user can open it: one a document's key names is relative to it. */
function sourcePath(document: string | undefined, s: ProblemSource): string {
  const file = quoteFile(s.file);
  if (byFlag(s) || document === undefined || /^(?:[/\\]|[A-Za-z]:)/.test(s.file)) return file;
  const cut = Math.max(document.lastIndexOf('/'), document.lastIndexOf('\\'));
  return cut < 0 ? file : `${document.slice(0, cut + 1)}${file}`;
}

/** At most ~80 characters of a file name a user wrote (#15.1). */
function quoteFile(name: string): string {
  return name.length <= 80 ? name : `${name.slice(0, 77)}...`;
}

/** Limits that keep a pasted or shared document from hanging the tab or the CLI. */
export const YAML_LIMITS = {
  maxBytes: 1_000_000,
  maxAliasCount: 100,
  maxDepth: 64,
  /** Longest mapping key (names of classes, clients, … are keys or short values). */
  maxKeyChars: 256,
  /** Longest text under a `description` key (what a scenario or script shows; rendered as markdown). */
  maxDescriptionChars: 20_000,
  /** Longest other text value (names, paths, labels). */
  maxTextChars: 4_096,
} as const;

export interface ParsedYaml {
  value: unknown;
  /** Position of the node at `path` (or of its key with `key: true`), falling back to the nearest ancestor. */
  locate(path: Path, opts?: { key?: boolean }): { line: number; col: number };
}

export type Result<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

export function problem(line: number, col: number, message: string, path: Path = []): Problem {
  return { line, col, message, path };
}

export function parseYaml(text: string): Result<ParsedYaml> {
  if (isTooLong(text)) {
    return {
      ok: false,
      problems: [problem(1, 1, tooLongMessage(text.length))],
    };
  }
  const lineCounter = new LineCounter();
  const pos = (offset: number) => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, col: p.col };
  };
  // The concrete syntax tree first: its parser is iterative, so a document nested 100,000 deep costs
  // time linear in its length and no stack. Composing the document is recursive (in a Web Worker's
  // smaller stack 1,000 levels overflow, and 10,000 exhaust the heap in Node), so depth is checked on
  // the tree before composing, with the same message and position everywhere.
  // The parser itself is slow on deep flow nesting: 1 MB of `[` took 2.4 s and 950 MB of memory
  // before the check below. In a large text, the lexer finds the first flow opener too deep (and
  // stops there); the tree of the text up to it holds a node too deep, found as in the whole text.
  const deepAt = text.length > DEEP_SCAN_CHARS ? flowTooDeepAt(text, YAML_LIMITS.maxDepth) : null;
  if (deepAt !== null) {
    const cut = new LineCounter();
    const early = firstTooDeep(
      [...new Parser(cut.addNewLine).parse(text.slice(0, deepAt + 1))],
      YAML_LIMITS.maxDepth,
    );
    if (early !== null) {
      const p = cut.linePos(early);
      return { ok: false, problems: [problem(p.line, p.col, NESTING_MESSAGE)] };
    }
  }
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  const tooDeep = firstTooDeep(tokens, YAML_LIMITS.maxDepth);
  if (tooDeep !== null) {
    const p = pos(tooDeep);
    return { ok: false, problems: [problem(p.line, p.col, NESTING_MESSAGE)] };
  }
  const doc = composeFirst(tokens, text.length);
  if (doc.errors.length > 0) {
    // One slip (a line indented one space too little) makes the parser report a cascade of errors on
    // the lines after it, none of them real: report the first one only, as a compiler stops at the
    // first syntax error. The editor shows exactly this list too.
    const first = doc.errors.reduce((a, b) => (b.pos[0] < a.pos[0] ? b : a));
    // An unclosed `{` or `[` is reported by the parser where it gave up (the end of the file, or the
    // next line that is not indented enough): point at the opener instead, unless an error comes
    // before it.
    const open = unclosedFlow(tokens);
    // An unclosed quote likewise runs to the end of the file (a quoted text may span lines), where
    // the parser reports it; point at the opening quote. A flow collection that holds it is left
    // open only because the quote swallowed its closer, so the quote is the slip.
    const inFlow = open !== null ? firstUnclosedQuote([open]) : null;
    const quoted = inFlow ?? firstUnclosedQuote(tokens);
    const flowOk = open !== null && open.start.offset <= first.pos[0];
    if (
      quoted !== null &&
      quoted.offset <= first.pos[0] &&
      (inFlow !== null || !flowOk || quoted.offset < (open?.start.offset ?? 0))
    ) {
      const p = pos(quoted.offset);
      return { ok: false, problems: [problem(p.line, p.col, unclosedQuoteMessage(quoted))] };
    }
    if (open !== null && flowOk) {
      const p = pos(open.start.offset);
      return { ok: false, problems: [problem(p.line, p.col, unclosedMessage(open, pos))] };
    }
    const p = pos(first.pos[0]);
    if (NESTED_COMPACT.test(first.message)) {
      const slip = compactMappingSlip(text, first.pos[0]);
      if (slip !== null) {
        const at = pos(slip.offset);
        return { ok: false, problems: [problem(at.line, at.col, slip.message)] };
      }
    }
    const message = STACK_OVERFLOW.test(first.message) ? NESTING_MESSAGE : syntaxMessage(first.message);
    return { ok: false, problems: [problem(p.line, p.col, message)] };
  }
  // A mapping or list used as a key (`? {a: 1}`, `[a, b]: 1`): no format has such keys, and turned
  // into a plain object it would become the text '{ a: 1 }' (with a warning printed on stderr)
  const complexKey = firstComplexKey(doc);
  if (complexKey !== null) {
    const p = pos(complexKey.offset);
    return {
      ok: false,
      problems: [
        problem(p.line, p.col, `a key must be plain text, not a ${complexKey.what} (write it as a name)`),
      ],
    };
  }
  let value: unknown;
  try {
    value = narrowInts(doc.toJS({ maxAliasCount: YAML_LIMITS.maxAliasCount }));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // `*name` with no `&name` before it: the yaml package throws on it here, and the word "alias" in
    // its message made it read as an alias bomb ("too many alias expansions", at 1:1)
    const unresolved = /^Unresolved alias\b.*?: (.*)$/.exec(message);
    if (unresolved) {
      const name = unresolved[1];
      let at = 0;
      visit(doc, {
        Alias(_, node) {
          if (node.source !== name || !node.range) return undefined;
          at = node.range[0];
          return visit.BREAK;
        },
      });
      const p = pos(at);
      return {
        ok: false,
        problems: [
          problem(
            p.line,
            p.col,
            `*${quote(name, 40)} names no anchor before it: mark the value it should repeat with &${quote(name, 40)} on an earlier line, or write the value out`,
          ),
        ],
      };
    }
    const alias = /alias/i.test(message);
    if (!alias && (err instanceof RangeError || STACK_OVERFLOW.test(message)))
      return { ok: false, problems: [problem(1, 1, NESTING_MESSAGE)] };
    return {
      ok: false,
      problems: [
        problem(
          1,
          1,
          alias
            ? `too many alias expansions (limit ${YAML_LIMITS.maxAliasCount}); write the repeated parts out or use fewer aliases`
            : `cannot read the document: ${quote(message)}`,
        ),
      ],
    };
  }
  if (depthOf(value, 0) > YAML_LIMITS.maxDepth) {
    return { ok: false, problems: [problem(1, 1, NESTING_MESSAGE)] };
  }

  const locate = (path: Path, opts: { key?: boolean } = {}) => {
    let node: unknown = doc.contents;
    let best: Node | null = (doc.contents as Node | null) ?? null;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i];
      const last = i === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find(
          (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg),
        );
        if (!pair) break;
        if (last && opts.key && pair.key && (pair.key as Node).range) {
          best = pair.key as Node;
          break;
        }
        node = pair.value;
        if (node && (node as Node).range) best = node as Node;
        else if (pair.key && (pair.key as Node).range) best = pair.key as Node;
      } else if (isSeq(node) && typeof seg === 'number') {
        const item = node.items[seg];
        if (!item) break;
        node = item;
        if ((item as Node).range) best = item as Node;
      } else break;
    }
    if (best?.range) return pos(best.range[0]);
    return { line: 1, col: 1 };
  };
  const tooLong = textTooLong(value);
  if (tooLong.length > 0) {
    return {
      ok: false,
      problems: tooLong.map((t) => {
        const at = locate(t.path, { key: t.key });
        return problem(at.line, at.col, t.message, t.path);
      }),
    };
  }
  return { ok: true, value: { value, locate } };
}

const SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** BigInt integers within ±(2^53 - 1) become numbers; larger ones stay BigInt (exact). In place. */
function narrowInts(v: unknown): unknown {
  if (typeof v === 'bigint') return v <= SAFE_BIG && v >= -SAFE_BIG ? Number(v) : v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = narrowInts(v[i]);
    return v;
  }
  if (v && typeof v === 'object') {
    const o = v as { [k: string]: unknown };
    for (const k of Object.keys(o)) o[k] = narrowInts(o[k]);
  }
  return v;
}

/** Texts longer than this are scanned for deep flow nesting before they are parsed (see parseYaml). */
const DEEP_SCAN_CHARS = 65_536;

const NESTING_MESSAGE = `nesting deeper than ${YAML_LIMITS.maxDepth} levels`;
/** What engines say when a recursion runs out of stack (V8, SpiderMonkey, JavaScriptCore). */
const STACK_OVERFLOW = /Maximum call stack|too much recursion|call stack size exceeded/i;

/**
 * The first document of a token stream, composed as the yaml package's `parseDocument` does (a second
 * document is an error). Integers are read as BigInt and turned back into numbers where a double holds
 * them exactly, so a 64-bit value (a quantum up to 2^64 - 1) keeps every digit instead of rounding.
 */
function composeFirst(tokens: CST.Token[], length: number): Document.Parsed {
  const composer = new Composer({ prettyErrors: false, uniqueKeys: true, intAsBigInt: true });
  let doc: Document.Parsed | null = null;
  for (const d of composer.compose(tokens, true, length)) {
    if (!doc) doc = d;
    else {
      doc.errors.push(
        new YAMLParseError(
          [d.range[0], d.range[1]],
          'MULTIPLE_DOCS',
          'Source contains multiple documents; please use YAML.parseAllDocuments()',
        ),
      );
      break;
    }
  }
  // compose(…, forceDoc = true) always yields at least one document
  return doc as Document.Parsed;
}

/** The first key of the document that is a mapping or a list (or an alias of one), or null. */
function firstComplexKey(doc: Document.Parsed): { offset: number; what: string } | null {
  let found: { offset: number; what: string } | null = null;
  visit(doc, {
    Pair(_, pair) {
      let key: unknown = pair.key;
      const at = (key as Node | null)?.range?.[0] ?? 0;
      if (isAlias(key)) key = key.resolve(doc);
      if (isMap(key) || isSeq(key)) {
        found = { offset: at, what: isMap(key) ? 'mapping' : 'list' };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

const COLLECTIONS = new Set(['block-map', 'block-seq', 'flow-collection']);

/** Offset of the first collection nested deeper than `max` in a syntax tree, or null; iterative. */
function firstTooDeep(tokens: readonly CST.Token[], max: number): number | null {
  const stack: { token: CST.Token; depth: number }[] = tokens.map((token) => ({ token, depth: 0 }));
  stack.reverse();
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { token, depth } = top;
    let d = depth;
    if (COLLECTIONS.has(token.type)) {
      d = depth + 1;
      if (d > max) return token.offset;
    }
    const children: CST.Token[] = [];
    if ('value' in token && token.value && typeof token.value === 'object') children.push(token.value);
    if ('items' in token && Array.isArray(token.items)) {
      for (const item of token.items as CST.CollectionItem[]) {
        if (item.key) children.push(item.key);
        if (item.value) children.push(item.value);
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push({ token: children[i], depth: d });
  }
  return null;
}

const CLOSER: Record<string, string> = { '{': 'flow-map-end', '[': 'flow-seq-end' };

/** Whether a flow collection ends with the closer of its own opener (`}` for `{`, `]` for `[`). */
function flowClosed(t: CST.FlowCollection): boolean {
  return t.end.some((e) => e.type === CLOSER[t.start.source]);
}

/**
 * The flow collection (`{…}` or `[…]`) whose opener is never closed, or null: the first unclosed one
 * in document order and, inside it, the deepest unclosed one (in `{b: [1, 2}` the `[` is the slip,
 * and the `}` then ends the `{` as the writer meant). Iterative.
 */
function unclosedFlow(tokens: readonly CST.Token[]): CST.FlowCollection | null {
  let found: CST.FlowCollection | null = null;
  const stack: CST.Token[] = [...tokens].reverse();
  for (let t = stack.pop(); t !== undefined; t = stack.pop()) {
    if (t.type === 'flow-collection' && !flowClosed(t)) {
      found = t;
      // look no further than inside this one
      stack.length = 0;
    }
    const children = childrenOf(t);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return found;
}

/** The children of a syntax-tree node, in document order. */
function childrenOf(t: CST.Token): CST.Token[] {
  const children: CST.Token[] = [];
  if ('value' in t && t.value && typeof t.value === 'object') children.push(t.value);
  if ('items' in t && Array.isArray(t.items)) {
    for (const item of t.items as CST.CollectionItem[]) {
      if (item.key) children.push(item.key);
      if (item.value) children.push(item.value);
    }
  }
  return children;
}

/** Whether a quoted scalar's source ends with the quote that closes its opening one. */
function quoteClosed(source: string): boolean {
  const q = source[0];
  for (let i = 1; i < source.length; i++) {
    const ch = source[i];
    if (q === '"' && ch === '\\') i++;
    else if (ch === q) {
      if (q === "'" && source[i + 1] === "'") i++;
      else return i === source.length - 1;
    }
  }
  return false;
}

/** The first quoted scalar (in document order) whose quote is never closed, or null. Iterative. */
function firstUnclosedQuote(tokens: readonly CST.Token[]): CST.FlowScalar | null {
  const stack: CST.Token[] = [...tokens].reverse();
  for (let t = stack.pop(); t !== undefined; t = stack.pop()) {
    if ((t.type === 'double-quoted-scalar' || t.type === 'single-quoted-scalar') && !quoteClosed(t.source))
      return t;
    const children = childrenOf(t);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return null;
}

function unclosedQuoteMessage(t: CST.FlowScalar): string {
  const q = t.source[0];
  const inside = q === '"' ? '`\\"`' : "`''`";
  return `unclosed quote: this \`${q}\` is never closed (end the text with \`${q}\`; a \`${q}\` inside the text is written ${inside})`;
}

function unclosedMessage(
  t: CST.FlowCollection,
  pos: (offset: number) => { line: number; col: number },
): string {
  const opener = t.start.source;
  const wrong = t.end.find((e) => e.type === 'flow-map-end' || e.type === 'flow-seq-end');
  if (wrong) {
    const at = pos(wrong.offset);
    return `this \`${opener}\` is never closed: the \`${wrong.source}\` at ${at.line}:${at.col} does not match it (close it with \`${opener === '{' ? '}' : ']'}\`)`;
  }
  return `this \`${opener}\` is never closed (close it with \`${opener === '{' ? '}' : ']'}\`, or write the entries as indented lines)`;
}

/**
 * Whether `text` nests flow collections (`[`, `{`) deeper than `max` levels, read by the lexer alone:
 * linear, and it stops at the first level too deep. The yaml package's parser takes seconds on deep
 * flow nesting (1 MB of `[`: 4.5 s, before its composer overflows the stack), so readers that parse
 * a text no format has accepted yet (a share link's scenario on the page's main thread: its policy,
 * the trace files it names) ask this first; a text it answers true for is refused by parseYaml.
 * Brackets inside quotes, comments and block scalars are text, as the lexer reads them.
 */
export function flowTooDeep(text: string, max: number = YAML_LIMITS.maxDepth): boolean {
  return flowTooDeepAt(text, max) !== null;
}

/** The lexer's tokens that stand for no text of the source (document start, scalar, flow error end). */
const SYNTHETIC_TOKENS = new Set(['\x02', '\x1f', '\x18']);

/** The offset of the first flow opener `max` levels deep inside other flow collections, or null. */
function flowTooDeepAt(text: string, max: number): number | null {
  let depth = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '[' || token === '{') {
      if (++depth > max) return offset;
    } else if ((token === ']' || token === '}') && depth > 0) depth--;
    if (!SYNTHETIC_TOKENS.has(token)) offset += token.length;
  }
  return null;
}

/** At most ~80 characters of user text for a message: longer text keeps its head and tail. */
export function quote(text: string, max = 80): string {
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) * 0.75);
  const tail = max - 1 - head;
  return `${text.slice(0, head)}…${text.slice(text.length - tail)} (${text.length.toLocaleString('en-US')} characters)`;
}

/**
 * User-written names for a message (`a, b and 7 more`): each at most 40 characters, and no more
 * names than fit in about `budget` characters (at least one), so a list of long or many names still
 * quotes only ~80 characters of user input.
 */
export function nameList(names: readonly string[], budget = 80): string {
  const shown: string[] = [];
  let used = 0;
  for (const n of names) {
    const q = quote(n, 40);
    if (shown.length > 0 && used + q.length > budget) break;
    shown.push(q);
    used += q.length + 2;
  }
  const rest = names.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

/**
 * Every text of a document within its cap (YAML_LIMITS): keys, descriptions, other strings. Checked
 * for every format before its schema sees the document, so no later message, hint or renderer ever
 * handles a giant name or description. Iterative; reports at most 20 texts.
 */
function textTooLong(root: unknown): { path: Path; key: boolean; message: string }[] {
  const out: { path: Path; key: boolean; message: string }[] = [];
  const stack: { v: unknown; path: Path }[] = [{ v: root, path: [] }];
  const n = groupDigits;
  while (stack.length > 0 && out.length < 20) {
    const { v, path } = stack.pop() as { v: unknown; path: Path };
    if (typeof v === 'string') {
      const isDescription = path[path.length - 1] === 'description';
      const max = isDescription ? YAML_LIMITS.maxDescriptionChars : YAML_LIMITS.maxTextChars;
      if (v.length > max)
        out.push({
          path,
          key: false,
          message: `${pathText(path) || 'text'}: ${isDescription ? 'a description' : 'text'} of ${n(v.length)} characters; the limit is ${n(max)}`,
        });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: [...path, i] });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i];
        if (k.length > YAML_LIMITS.maxKeyChars) {
          out.push({
            path: [...path, k],
            key: true,
            message: `${pathText(path) ? `${pathText(path)}: ` : ''}a key of ${n(k.length)} characters ('${quote(k)}'); the limit is ${n(YAML_LIMITS.maxKeyChars)}`,
          });
          continue;
        }
        stack.push({ v: x, path: [...path, k] });
      }
    }
  }
  return out;
}

function depthOf(v: unknown, d: number): number {
  if (d > YAML_LIMITS.maxDepth) return d;
  if (Array.isArray(v)) return v.reduce((m: number, x) => Math.max(m, depthOf(x, d + 1)), d + 1);
  if (v && typeof v === 'object') {
    let m = d + 1;
    for (const x of Object.values(v)) m = Math.max(m, depthOf(x, d + 1));
    return m;
  }
  return d;
}

/**
 * A whole number with commas between groups of three digits ("1,000,000"), the same in every locale
 * and runtime (no Intl): the messages of the CLI and the page must read alike.
 */
export function groupDigits(n: number): string {
  if (!Number.isInteger(n)) return String(n);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${digits}` : digits;
}

/** Whether a text is over the size a document may have (checked before any parsing). */
export function isTooLong(text: string): boolean {
  return text.length > YAML_LIMITS.maxBytes;
}

/** The problem of a text over the size limit: too long, not malformed. */
export function tooLongMessage(chars: number): string {
  return `too long: the document is ${groupDigits(chars)} characters; the limit is ${groupDigits(YAML_LIMITS.maxBytes)}. Split it or remove unused parts.`;
}

const NESTED_COMPACT = /^Nested mappings are not allowed in compact mappings/;

/**
 * The yaml package says "Nested mappings are not allowed in compact mappings" at the start of a
 * value for two different slips, told apart here by the text:
 * - a second ": " on the same line (`queue_policy: wsptx: []`): the value itself reads as
 *   "key: value"; reported where it is, with what to change;
 * - a "key: value" line indented deeper than a key that already has its value on its own line
 *   (`c: 2` then `    d: 3`): the parser takes the deeper line as more of that value, so it
 *   reports the line above; reported at the deeper line instead.
 * Null when the text matches neither (the generic hint then stands).
 */
function compactMappingSlip(text: string, at: number): { offset: number; message: string } | null {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const lineEndAt = text.indexOf('\n', at);
  const lineEnd = lineEndAt < 0 ? text.length : lineEndAt;
  const rest = text.slice(at, lineEnd).replace(/\s+#.*$/, '');
  const second = /:(\s|$)/.exec(rest);
  if (second !== null && !/^["']/.test(rest)) {
    const key = text.slice(lineStart, at).trim().replace(/^-\s+/, '').replace(/:$/, '');
    return {
      offset: at,
      message: `a second ": " on this line: the value of '${quote(key, 40)}' reads as "${quote(rest.trim(), 40)}", itself a "key: value", which YAML does not allow on one line. Put that on a line of its own, indented under '${quote(key, 40)}', or quote the value`,
    };
  }
  const indentOf = (line: string) => line.length - line.trimStart().length;
  const keyLine = text.slice(lineStart, lineEnd);
  const keyIndent = indentOf(keyLine);
  let start = lineEnd + 1;
  while (start < text.length) {
    const endAt = text.indexOf('\n', start);
    const end = endAt < 0 ? text.length : endAt;
    const line = text.slice(start, end);
    const trimmed = line.trim();
    if (trimmed !== '' && !trimmed.startsWith('#')) {
      const indent = indentOf(line);
      if (indent <= keyIndent) return null;
      if (/^[^\s#'"[{][^:#]*:(\s|$)/.test(trimmed)) {
        const key = keyLine.trim().replace(/^-\s+/, '').split(':')[0];
        return {
          offset: start + indent,
          message: `this line is indented deeper than '${quote(key, 40)}' above it, which already has a value after its ":" (check the indentation: line this key up with the keys above; or, if it belongs under '${quote(key, 40)}', remove the value after '${quote(key, 40)}:')`,
        };
      }
    }
    start = end + 1;
  }
  return null;
}

/** Plain-words hints for the yaml package's commonest syntax errors, which mostly mean "indentation". */
const SYNTAX_HINTS: [RegExp, string][] = [
  [
    /^Sequence item without - indicator/,
    'check the indentation of this line: it lines up with list items but has no "- "',
  ],
  [
    /^Nested mappings are not allowed in compact mappings/,
    'check the indentation: a "key: value" line ended up inside a one-line entry',
  ],
  [/^Implicit keys need to be on a single line/, 'check the indentation or a missing ":" on this line'],
  [
    /^All mapping items must start at the same column/,
    'keys of one mapping must line up: check the indentation of this line',
  ],
  [/^Map keys must be unique/, 'this key appears twice in the same mapping'],
  [
    // `key: value` followed by indented `- item` lines, or one item indented unlike its list's others
    /^A block sequence may not be used as an implicit map key/,
    'this "- " item belongs to no list: check that the key above it has nothing after its ":", and that the item is indented like the other items of its list',
  ],
];

function syntaxMessage(message: string): string {
  // The yaml package's words here name one of its functions, which a reader of the file cannot use.
  if (/^Source contains multiple documents/.test(message))
    return 'a second document starts here (a "---" line): a file holds one document; remove this line and what follows it, or merge it into the document above';
  const m = cleanYamlMessage(message);
  const hint = SYNTAX_HINTS.find(([re]) => re.test(m));
  return hint ? `${m} (${hint[1]})` : m;
}

function cleanYamlMessage(message: string): string {
  // The yaml package appends "at line L, column C" and a code excerpt; we give the position ourselves.
  const clean = message
    .replace(/ at line \d+, column \d+[\s\S]*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  // Some messages end with the offending source text in quotes (`Unexpected scalar token in YAML
  // stream: "…"`): keep at most ~80 characters of it.
  const colon = clean.indexOf(': "');
  if (colon >= 0 && clean.endsWith('"'))
    return `${clean.slice(0, colon)}: "${quote(clean.slice(colon + 3, -1))}"`;
  return clean.length > 240 ? quote(clean, 240) : clean;
}

/** Render a path as `a.b[2].c` for messages. */
export function pathText(path: Path): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${quote(seg, 40)}` : quote(seg, 40);
  }
  return out;
}

/**
 * Closest candidate by edit distance, when close enough to be a plausible typo and unambiguous (two
 * equally close candidates, like 'v1' and 'v2' for 'v3', give no hint rather than a coin flip).
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  let tied = false;
  for (const c of new Set(candidates)) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
      tied = false;
    } else if (d === bestD) tied = true;
  }
  if (best === undefined || tied) return undefined;
  const limit = Math.max(2, Math.floor(Math.max(word.length, best.length) / 3));
  return bestD <= limit ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

// ---- zod → positioned problems (the conversion itself lives in ./issues) ------------------------

/** Validate a parsed document against a zod schema; every issue becomes a positioned problem. */
export function validate<S extends z.ZodType>(
  schema: S,
  parsed: ParsedYaml,
  basePath: Path = [],
  input: unknown = parsed.value,
): Result<z.output<S>> {
  const res = schema.safeParse(input);
  if (res.success) return { ok: true, value: res.data };
  const problems = flattenIssues(res.error.issues, input).map((issue) => {
    const p = issueProblem(issue, schema, parsed, input, basePath);
    return p;
  });
  return { ok: false, problems: sortProblems(problems) };
}

export function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.col - b.col);
}

/** `file:line:col: message`, one line per problem (the CLI's and the editor's format). */
/**
 * `file:line:col: message`, one per line. A problem in a brought-in file (Problem.source) is given at
 * its own place there, first, so that editors jump to it, and then where the document names the file:
 * `policy.yaml:5:19: … (policy_file at scenario.yaml:35:16)`.
 */
export function formatProblems(problems: Problem[], file?: string): string {
  return problems
    .map((p) => {
      const here = `${file ? `${file}:` : ''}${p.line}:${p.col}`;
      if (p.source === undefined) return `${here}: ${p.message}`;
      const s = p.source;
      const named = byFlag(s) ? `given with ${s.by}` : `${s.by} at ${here}`;
      return `${sourcePath(file, s)}:${s.line}:${s.col}: ${p.message} (${named})`;
    })
    .join('\n');
}

/** Thrown (or rejected) by loaders; carries every problem. */
export class FormatError extends Error {
  constructor(
    readonly problems: Problem[],
    file?: string,
  ) {
    super(formatProblems(problems, file));
    this.name = 'FormatError';
  }
}
