/**
 * A tiny, safe reader for scenario descriptions: paragraphs, bullet and numbered lists (an ordered
 * list keeps its first number) nested by indentation, their items' later paragraphs and nested lists
 * kept in the order written, a line right after an item's text continuing it even when not indented
 * (CommonMark's lazy continuation), headings (a closing run of `#` dropped),
 * fenced code, and inline `code`, **bold** and *emphasis* nested in one another, a backslash making
 * a marker literal (`\*`). It produces plain data; the component renders it as React elements and
 * text nodes, so no HTML from a description ever reaches the page.
 *
 * Bounded whatever it is given (#15.1): it formats at most FORMAT_LIMITS.chars characters into at
 * most FORMAT_LIMITS.blocks blocks (a list item counts as one, at any depth) and FORMAT_LIMITS.runs
 * inline runs (text, code, bold and emphasis nodes, at any depth); past any of those, what is left
 * is one `more` block: the next FORMAT_LIMITS.restChars characters as written, and how many are not
 * shown. Lists and emphasis nest at most MAX_NESTING deep. The formats cap a description at 20,000
 * characters, so only a pathological text meets a limit; before the limits, 1 MB of 333,000
 * one-letter paragraphs took 150 ms to read here (and far longer for React to draw), now under a
 * millisecond.
 */

/** A run of a line: text and code hold their characters, bold and emphasis hold runs. */
export type Inline = { kind: 'text' | 'code'; text: string } | { kind: 'strong' | 'em'; children: Inline[] };

/** A paragraph: its inline runs. */
export type Para = { kind: 'p'; inlines: Inline[] };

/**
 * A list item: its first paragraph, then what comes under it in the order written: the lists nested
 * under it (a new list where the marker kind changes) and the paragraphs after a blank line (a
 * loose item).
 */
export type ListItem = { inlines: Inline[]; body?: (Para | ListBlock)[] };

export type ListBlock = {
  kind: 'ul' | 'ol';
  items: ListItem[];
  /** An ordered list's first number, when not 1. */
  start?: number;
};

export type Block =
  | Para
  | ListBlock
  | { kind: 'code'; text: string }
  | { kind: 'h'; inlines: Inline[] }
  /** The rest of a text too long to format: its start as written, and the characters left out. */
  | { kind: 'more'; text: string; omitted: number };

/** How much of a description is formatted (see the file's comment). */
export const FORMAT_LIMITS = {
  /** Characters read for structure (five times the formats' description cap). */
  chars: 100_000,
  /** Blocks, counting each list item. */
  blocks: 2_000,
  /** Inline runs in all. */
  runs: 10_000,
  /** Characters of the unformatted rest shown as written. */
  restChars: 20_000,
};

/**
 * How deep lists nest in lists, and bold and emphasis in one another. An item indented deeper is
 * text of the deepest item (its marker as written); emphasis deeper is text, its markers as written.
 */
export const MAX_NESTING = 8;

/**
 * Inline markers, read as CommonMark reads them, in time linear in the text whatever it holds (a
 * backtracking regex was quadratic on runs like `_a_b _a_b …`):
 * - `` `code` ``: a backtick, at least one character, the next backtick; nothing inside is read;
 * - a backslash before ASCII punctuation makes it literal (the text run ends there, the character
 *   starts the next one);
 * - bold and emphasis: CommonMark's delimiter runs. A run of `*` or `_` can open when it is
 *   left-flanking (not followed by a space, and not followed by punctuation unless preceded by a
 *   space or punctuation), close when right-flanking (the mirror); `_` inside a word does neither,
 *   so `num_requests` and `duration_s` stay literal while `_this_` and `(_this_)` are emphasis. A
 *   closer takes the nearest opener of its character (two characters each make bold, one makes
 *   emphasis), what lies between them that is still open stays literal, and the rule of 3 holds
 *   (`*foo**bar**baz*` is emphasis around bold). So `**bold with *italic* inside**` nests.
 * Unclosed markers stay literal text.
 *
 * Linear: each closer finds its opener through a chain of the open runs of its character, skipping
 * only openers the rule of 3 refuses; those lie above the found one (and leave the stack with it),
 * or, when none is found, below a floor kept per kind of closer (CommonMark's `openers_bottom`).
 */

const SPACE = /\s/;
const PUNCT = /[\p{P}\p{S}]/u;
/** What a backslash makes literal (CommonMark's ASCII punctuation). */
const ESCAPABLE = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** JavaScript's `\s` for one UTF-16 unit (every space is a single unit). */
function isSpaceCode(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c >= 128 && SPACE.test(String.fromCharCode(c));
}

const isSpace = (ch: string) => isSpaceCode(ch.charCodeAt(0));
const isLineEnd = (ch: string) => ch === '\n' || ch === '\r' || ch === '\u2028' || ch === '\u2029';

const SPACE_CLASS = 0;
const PUNCT_CLASS = 1;
const OTHER_CLASS = 2;

/** The class of each ASCII character. */
const ASCII_CLASS = (() => {
  const table = new Uint8Array(128).fill(OTHER_CLASS);
  for (const ch of ESCAPABLE) table[ch.charCodeAt(0)] = PUNCT_CLASS;
  for (const c of [9, 10, 11, 12, 13, 32]) table[c] = SPACE_CLASS;
  return table;
})();

/** Whether code point `cp` is a space, punctuation (`\p{P}`, `\p{S}`) or other. */
function classOf(cp: number): number {
  if (cp < 128) return ASCII_CLASS[cp];
  const ch = String.fromCodePoint(cp);
  if (cp < 0x10000 && SPACE.test(ch)) return SPACE_CLASS;
  return PUNCT.test(ch) ? PUNCT_CLASS : OTHER_CLASS;
}

/** The class of the code point that starts at `i` (past the end: a space, as the line's edge). */
function classAt(text: string, i: number): number {
  return i < text.length ? classOf(text.codePointAt(i) as number) : SPACE_CLASS;
}

/** The class of the code point that ends just before `i` (at the start: a space). */
function classBefore(text: string, i: number): number {
  if (i <= 0) return SPACE_CLASS;
  const lo = text.charCodeAt(i - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) {
    const hi = text.charCodeAt(i - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return classOf(text.codePointAt(i - 2) as number);
  }
  return classOf(lo);
}

/** Characters the searches of `parseInline` went over since the last `takeScanned()` (for tests). */
let scanned = 0;

/** The count of characters searched since the previous call: a test's measure of the work done. */
export function takeScanned(): number {
  const s = scanned;
  scanned = 0;
  return s;
}

const ESCAPE_TOKEN = 0;
const CODE_TOKEN = 1;
const RUN_TOKEN = 2;
const CAN_OPEN = 1;
const CAN_CLOSE = 2;

/** The reader's working arrays for a line of `n` characters (every count below is at most `n`). */
function makeScratch(n: number) {
  return {
    // tokens: kind, where it starts, a code span's closing backtick or a delimiter run's index
    tokKind: new Uint8Array(n),
    tokAt: new Int32Array(n),
    tokRef: new Int32Array(n),
    // delimiter runs: start, length, characters not matched yet, can open / close, and on the
    // stack the index of the open run of its character below
    runAt: new Int32Array(n),
    runLen: new Int32Array(n),
    runRem: new Int32Array(n),
    runFlags: new Uint8Array(n),
    runBelow: new Int32Array(n),
    // its newest (outermost) match as opener and the characters those use; its first (innermost)
    // and last matches as closer
    openHead: new Int32Array(n).fill(-1),
    openUsed: new Int32Array(n),
    closeHead: new Int32Array(n).fill(-1),
    closeTail: new Int32Array(n).fill(-1),
    // matches: 2 (bold) or 1 (emphasis), the same opener's previous match, the same closer's next
    // one, and whether it is nested too deep (left as its characters)
    uses: new Uint8Array(n),
    openNext: new Int32Array(n),
    closeNext: new Int32Array(n),
    flat: new Uint8Array(n),
    // runs that may still open, bottom first (so in the order of their indexes)
    stack: new Int32Array(n),
  };
}

/** Lines up to this long share one set of working arrays (2,000 short list items each allocated
 * theirs: 17 typed arrays per line were half the time of a list of 1 MB). */
const SHARED_SCRATCH = 4096;
let shared: ReturnType<typeof makeScratch> | null = null;

function scratchFor(n: number): ReturnType<typeof makeScratch> {
  if (n > SHARED_SCRATCH) return makeScratch(n);
  shared ??= makeScratch(SHARED_SCRATCH);
  // what is read before it is written starts as a new set does
  shared.openHead.fill(-1, 0, n);
  shared.closeHead.fill(-1, 0, n);
  shared.closeTail.fill(-1, 0, n);
  shared.openUsed.fill(0, 0, n);
  shared.flat.fill(0, 0, n);
  return shared;
}

/**
 * Splits a line into inline runs (a tree: bold and emphasis hold runs) in time linear in its
 * length; `count` is the number of nodes made. Past `maxRuns` nodes, the rest of the line is one
 * text run. Typed arrays rather than an object per token: 1 MB of `**a*` read three times slower,
 * most of it in the garbage collector, with objects.
 */
function readInline(text: string, maxRuns: number): { runs: Inline[]; count: number } {
  const n = text.length;
  scanned += n; // the marker scan
  // 1. tokens (escapes, code spans, delimiter runs) and the matching of delimiter runs as they come
  let tokens = 0;
  const {
    tokKind,
    tokAt,
    tokRef,
    runAt,
    runLen,
    runRem,
    runFlags,
    runBelow,
    openHead,
    openUsed,
    closeHead,
    closeTail,
    uses,
    openNext,
    closeNext,
    stack,
    flat,
  } = scratchFor(n);
  let runs = 0;
  let matches = 0;
  // runs that may still open, bottom first (so in the order of their indexes)
  let height = 0;
  const top = [-1, -1]; // per character (0: `*`, 1: `_`), the stack index of its topmost run
  // per kind of closer (character, length mod 3, can open): runs of a lower index are known not to
  // match it (the rule of 3 refused them all)
  const floor = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  let tickFrom = -1;
  let tickAt = -1;
  const tick = (from: number) => {
    if (from < tickFrom || from > tickAt) {
      tickFrom = from;
      const k = text.indexOf('`', from);
      tickAt = k < 0 ? n : k;
      scanned += tickAt - from;
    }
    return tickAt;
  };
  const popTop = () => {
    const r = stack[--height];
    top[text.charCodeAt(runAt[r]) === 42 ? 0 : 1] = runBelow[r];
  };
  let i = 0;
  while (i < n) {
    // the next marker: \ ` * _ (by hand: a regex's match objects were most of the time on `**a*`)
    let ch = text.charCodeAt(i);
    while (ch !== 92 && ch !== 96 && ch !== 42 && ch !== 95 && ++i < n) ch = text.charCodeAt(i);
    if (i >= n) break;
    if (ch === 92) {
      // \* \_ \` …: the next character is literal (it opens nothing)
      if (i + 1 < n && ESCAPABLE.includes(text[i + 1])) {
        tokKind[tokens] = ESCAPE_TOKEN;
        tokAt[tokens++] = i;
        i += 2;
      } else i++;
      continue;
    }
    if (ch === 96) {
      const j = tick(i + 1);
      if (j < n && j > i + 1) {
        tokKind[tokens] = CODE_TOKEN;
        tokAt[tokens] = i;
        tokRef[tokens++] = j;
        i = j + 1;
      } else i++;
      continue;
    }
    // a delimiter run of `*` or `_`
    let j = i + 1;
    while (j < n && text.charCodeAt(j) === ch) j++;
    const before = classBefore(text, i);
    const after = classAt(text, j);
    const left = after !== SPACE_CLASS && (after !== PUNCT_CLASS || before !== OTHER_CLASS);
    const right = before !== SPACE_CLASS && (before !== PUNCT_CLASS || after !== OTHER_CLASS);
    const star = ch === 42;
    const open = star ? left : left && (!right || before === PUNCT_CLASS);
    const close = star ? right : right && (!left || after === PUNCT_CLASS);
    const len = j - i;
    const r = runs++;
    runAt[r] = i;
    runLen[r] = len;
    runRem[r] = len;
    runFlags[r] = (open ? CAN_OPEN : 0) | (close ? CAN_CLOSE : 0);
    tokKind[tokens] = RUN_TOKEN;
    tokAt[tokens] = i;
    tokRef[tokens++] = r;
    const c = star ? 0 : 1;
    if (close) {
      const bucket = c * 6 + (len % 3) * 2 + (open ? 1 : 0);
      while (runRem[r] > 0) {
        let k = top[c];
        for (; k >= 0 && stack[k] >= floor[bucket]; k = runBelow[stack[k]]) {
          const o = stack[k];
          const both = runFlags[o] === (CAN_OPEN | CAN_CLOSE) || open;
          const sum = runLen[o] + len;
          if (!both || sum % 3 !== 0 || (runLen[o] % 3 === 0 && len % 3 === 0)) break;
        }
        if (k < 0 || stack[k] < floor[bucket]) {
          floor[bucket] = r;
          break;
        }
        const o = stack[k];
        const use = runRem[o] >= 2 && runRem[r] >= 2 ? 2 : 1;
        const mt = matches++;
        uses[mt] = use;
        openNext[mt] = openHead[o];
        openHead[o] = mt;
        openUsed[o] += use;
        closeNext[mt] = -1;
        if (closeTail[r] >= 0) closeNext[closeTail[r]] = mt;
        else closeHead[r] = mt;
        closeTail[r] = mt;
        runRem[o] -= use;
        runRem[r] -= use;
        // what was opened between them stays literal
        while (height - 1 > k) popTop();
        if (runRem[o] === 0) popTop();
      }
    }
    if (open && runRem[r] > 0) {
      runBelow[r] = top[c];
      top[c] = height;
      stack[height++] = r;
    }
    i = j;
  }
  // 2. the tree, in source order; a match deeper than MAX_NESTING is left as its characters
  const root: Inline[] = [];
  const frames: Inline[][] = [root];
  let count = 0;
  let last = 0; // start of the pending text
  const add = (node: Inline) => {
    if (count >= maxRuns) return false;
    frames[frames.length - 1].push(node);
    count++;
    return true;
  };
  const flush = (to: number) => {
    if (to <= last) return true;
    if (!add({ kind: 'text', text: text.slice(last, to) })) return false;
    last = to;
    return true;
  };
  build: for (let t = 0; t < tokens; t++) {
    const at = tokAt[t];
    if (tokKind[t] === ESCAPE_TOKEN) {
      if (!flush(at)) break;
      last = at + 1; // the escaped character starts the next text run
    } else if (tokKind[t] === CODE_TOKEN) {
      if (!flush(at) || !add({ kind: 'code', text: text.slice(at + 1, tokRef[t]) })) break;
      last = tokRef[t] + 1;
    } else {
      const r = tokRef[t];
      let p = at;
      for (let mt = closeHead[r]; mt >= 0; mt = closeNext[mt]) {
        if (!flat[mt]) {
          if (!flush(p)) break build;
          frames.pop();
          last = p + uses[mt];
        }
        p += uses[mt];
      }
      p = at + runLen[r] - openUsed[r];
      for (let mt = openHead[r]; mt >= 0; mt = openNext[mt]) {
        if (frames.length > MAX_NESTING) flat[mt] = 1;
        else {
          const node: Inline = { kind: uses[mt] === 2 ? 'strong' : 'em', children: [] };
          if (!flush(p) || !add(node)) break build;
          frames.push(node.children);
          last = p + uses[mt];
        }
        p += uses[mt];
      }
    }
  }
  if (last < n) {
    // the rest: once stopped, as written, into whatever is open
    frames[frames.length - 1].push({ kind: 'text', text: text.slice(last) });
    count++;
  }
  return { runs: root, count };
}

/** Splits a line into inline runs (see `readInline`). */
export function parseInline(text: string, maxRuns = Number.POSITIVE_INFINITY): Inline[] {
  return readInline(text, maxRuns).runs;
}

/** `^\s*[-*+]\s+(.*)$` by hand (linear); the item text, or null. */
function bullet(line: string): string | null {
  let i = 0;
  while (i < line.length && isSpace(line[i])) i++;
  if (!'-*+'.includes(line[i] ?? 'x')) return null;
  return afterSpace(line, i + 1);
}

/** `^\s*\d{1,9}[.)]\s+(.*)$` by hand (linear): CommonMark's at most nine digits. */
function numbered(line: string): string | null {
  let i = 0;
  while (i < line.length && isSpace(line[i])) i++;
  const digits = i;
  while (i < line.length && line[i] >= '0' && line[i] <= '9') i++;
  if (i === digits || i - digits > 9 || (line[i] !== '.' && line[i] !== ')')) return null;
  return afterSpace(line, i + 1);
}

/** `^#{1,6}\s+(.*)$` by hand (linear), without an optional closing run of `#` (`## Title ##`). */
function heading(line: string): string | null {
  let i = 0;
  while (i < 6 && line[i] === '#') i++;
  if (i === 0) return null;
  const rest = afterSpace(line, i);
  if (rest === null) return null;
  let end = rest.length;
  while (end > 0 && isSpace(rest[end - 1])) end--;
  let hashes = end;
  while (hashes > 0 && rest[hashes - 1] === '#') hashes--;
  // a closing run counts only after a space (`C#` stays), or as the whole text (`## ##`)
  if (hashes < end && (hashes === 0 || isSpace(rest[hashes - 1]))) end = hashes;
  while (end > 0 && isSpace(rest[end - 1])) end--;
  return rest.slice(0, end);
}

/** An item's marker as CommonMark tells lists apart: its bullet (`-`, `*`, `+`) or delimiter (`.`, `)`). */
function markerOf(line: string): string {
  let i = 0;
  while (i < line.length && isSpace(line[i])) i++;
  while (i < line.length && line[i] >= '0' && line[i] <= '9') i++;
  return line[i] ?? '';
}

/** The number an ordered list item starts with (`10) tenth` → 10). */
function itemNumber(line: string): number {
  let i = 0;
  while (i < line.length && isSpace(line[i])) i++;
  let j = i;
  while (j < line.length && line[j] >= '0' && line[j] <= '9') j++;
  // (at most nine digits: `numbered` reads no more as an item; leading zeros count for nothing)
  return Number(line.slice(i, j));
}

/** `\s+(.*)$` from `i`: at least one space, then the rest of the line if it has no separator in it. */
function afterSpace(line: string, i: number): string | null {
  let j = i;
  while (j < line.length && isSpace(line[j])) j++;
  if (j === i) return null;
  for (let k = j; k < line.length; k++) if (isLineEnd(line[k])) return null;
  return line.slice(j);
}

/** `^\s*\`\`\`` */
function isFence(line: string): boolean {
  let i = 0;
  while (i < line.length && isSpace(line[i])) i++;
  return line.startsWith('```', i);
}

/** `^\s{2,}\S`: a continuation line of a list item. */
function isContinuation(line: string): boolean {
  let i = 0;
  while (i < line.length && isSpace(line[i])) i++;
  return i >= 2 && i < line.length;
}

/** The columns of a line's leading spaces (a tab to the next multiple of 4). */
function indentOf(line: string): number {
  let col = 0;
  for (let i = 0; i < line.length && isSpace(line[i]); i++)
    col = line[i] === '\t' ? col + 4 - (col % 4) : col + 1;
  return col;
}

/** An empty list of `kind` that starts with the item on `line` (its first number kept). */
function newList(kind: 'ul' | 'ol', line: string): ListBlock {
  const start = kind === 'ol' ? itemNumber(line) : 1;
  return start !== 1 ? { kind, items: [], start } : { kind, items: [] };
}

export function parseMarkdownish(source: string): Block[] {
  const text = source.replace(/\r\n?/g, '\n');
  // structure is read from the first FORMAT_LIMITS.chars characters, cut at a line end
  let cut = text.length;
  if (cut > FORMAT_LIMITS.chars) {
    const nl = text.lastIndexOf('\n', FORMAT_LIMITS.chars);
    cut = nl > 0 ? nl : FORMAT_LIMITS.chars;
  }
  const lines = text.slice(0, cut).split('\n');
  const blocks: Block[] = [];
  let units = 0; // blocks and list items
  let runsLeft = FORMAT_LIMITS.runs;
  const inline = (t: string) => {
    const { runs, count } = readInline(t, Math.max(1, runsLeft));
    runsLeft -= count; // every node, at any depth
    return runs;
  };
  const full = () => units >= FORMAT_LIMITS.blocks || runsLeft <= 0;
  let para: string[] = [];
  let paraAt = 0; // offset of the paragraph's first line
  const flush = () => {
    if (para.length) {
      blocks.push({ kind: 'p', inlines: inline(para.join(' ')) });
      units++;
    }
    para = [];
  };
  let at = 0; // offset of line i in `text`
  let restAt = text.charCodeAt(cut) === 10 ? cut + 1 : cut;
  const next = (i: number) => {
    at += lines[i].length + 1;
  };
  /**
   * The list that starts at line `first`, nested by indentation, up to the first line that is
   * neither an item, nor indented, nor blank, nor a lazy continuation line; returns the index of its
   * last line. An item deeper than its item above starts a list under it, one as deep as an item
   * above goes back to that one's list; another marker (bullet character, or number delimiter)
   * starts a new list there. A line that is not an item continues the deepest item's open paragraph
   * (its text, or its last paragraph) when it follows without a blank line — indented, or not
   * (CommonMark's lazy continuation line, unless a heading or a fence); after a blank line an
   * indented line starts a paragraph of the deepest item whose marker it is indented past, and the
   * lists nested deeper than that item are closed, so the item's blocks keep the order written.
   */
  const readList = (first: number): number => {
    type Level = { list: ListBlock; indent: number; siblings: Block[]; marker: string };
    const levels: Level[] = [];
    const deepest = () => {
      const items = levels[levels.length - 1].list.items;
      return items[items.length - 1];
    };
    const append = (item: ListItem, t: string) => {
      // the item's open paragraph takes the line: its last block when that is a paragraph (a loose
      // item's, after a blank line), else its text (nothing is nested under it yet)
      const last = item.body?.[item.body.length - 1];
      if (last && last.kind !== 'p') {
        // (not reached: the lists nested under an item are closed before its paragraphs take lines)
        item.body?.push({ kind: 'p', inlines: inline(t) });
        units++;
        return;
      }
      const target = last?.inlines ?? item.inlines;
      target.push({ kind: 'text', text: ' ' });
      runsLeft--;
      // one by one: spread into push's arguments, a long line's runs overflowed the stack
      for (const run of inline(t)) target.push(run);
    };
    let blank = false; // a blank line since the last item or continuation line
    let i = first;
    for (; i < lines.length && !full(); next(i++)) {
      const line = lines[i];
      const b = bullet(line);
      const content = b ?? numbered(line);
      if (content === null) {
        if (line.trim() === '') {
          blank = true;
          continue; // a blank line: the list goes on if an item or an indented line comes next
        }
        if (blank) {
          if (!isContinuation(line)) break;
          // after a blank line an indented line starts a paragraph (a loose item) of the deepest
          // item it is indented past; what is nested deeper is closed
          const d = indentOf(line);
          let k = levels.length - 1;
          while (k > 0 && d <= levels[k].indent) k--;
          levels.length = k + 1;
          const item = deepest();
          item.body ??= [];
          item.body.push({ kind: 'p', inlines: inline(line.trim()) });
          units++;
        } else if (isContinuation(line) || (heading(line) === null && !isFence(line))) {
          append(deepest(), line.trim());
        } else break;
        blank = false;
        continue;
      }
      blank = false;
      const kind = b !== null ? 'ul' : 'ol';
      const marker = markerOf(line);
      const d = indentOf(line);
      // back up to the level this item belongs to
      while (levels.length > 1 && d <= levels[levels.length - 2].indent) levels.pop();
      let level = levels[levels.length - 1];
      if (!level) {
        level = { list: newList(kind, line), indent: d, siblings: blocks, marker };
        blocks.push(level.list);
        levels.push(level);
      } else if (d > level.indent) {
        if (levels.length >= MAX_NESTING) {
          append(deepest(), line.trim()); // too deep: text of the deepest item
          continue;
        }
        const parent = deepest();
        parent.body ??= [];
        level = { list: newList(kind, line), indent: d, siblings: parent.body, marker };
        parent.body.push(level.list);
        levels.push(level);
      } else if (level.marker !== marker) {
        // CommonMark: another bullet character or number delimiter starts a new list
        level.list = newList(kind, line);
        level.marker = marker;
        level.siblings.push(level.list);
      }
      level.list.items.push({ inlines: inline(content) });
      units++;
    }
    return i - 1;
  };
  for (let i = 0; i < lines.length; i++) {
    if (full()) {
      restAt = para.length ? paraAt : at;
      para = [];
      break;
    }
    const line = lines[i];
    if (isFence(line)) {
      flush();
      const code: string[] = [];
      for (next(i++); i < lines.length && !isFence(lines[i]); next(i++)) code.push(lines[i]);
      if (i < lines.length) next(i);
      blocks.push({ kind: 'code', text: code.join('\n') });
      units++;
      continue;
    }
    if (bullet(line) !== null || numbered(line) !== null) {
      flush();
      i = readList(i);
      continue;
    }
    const h = heading(line);
    if (h !== null) {
      flush();
      blocks.push({ kind: 'h', inlines: inline(h) });
      units++;
    } else if (line.trim() === '') flush();
    else {
      if (!para.length) paraAt = at;
      para.push(line.trim());
    }
    next(i);
  }
  flush();
  if (restAt < text.length) {
    const rest = text.slice(restAt, restAt + FORMAT_LIMITS.restChars);
    blocks.push({ kind: 'more', text: rest, omitted: text.length - restAt - rest.length });
  }
  return blocks;
}
