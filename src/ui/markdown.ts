/**
 * A tiny, safe reader for scenario descriptions: paragraphs, bullet and numbered lists (an ordered
 * list keeps its first number), headings (a closing run of `#` dropped), fenced code, and inline
 * `code`, **bold** and *emphasis*, a backslash making a marker literal (`\*`). Nested lists and
 * nested emphasis are not read. It produces plain data; the component renders it as
 * React text nodes, so no HTML from a description ever reaches the page.
 *
 * Bounded whatever it is given (#15.1): it formats at most FORMAT_LIMITS.chars characters into at
 * most FORMAT_LIMITS.blocks blocks (a list item counts as one) and FORMAT_LIMITS.runs inline runs;
 * past any of those, what is left is one `more` block: the next FORMAT_LIMITS.restChars characters
 * as written, and how many are not shown. The formats cap a description at 20,000 characters, so
 * only a pathological text meets a limit; before the limits, 1 MB of 333,000 one-letter paragraphs
 * took 150 ms to read here (and far longer for React to draw), now under a millisecond.
 */

export type Inline = { kind: 'text' | 'code' | 'strong' | 'em'; text: string };

export type Block =
  | { kind: 'p'; inlines: Inline[] }
  | {
      kind: 'ul' | 'ol';
      items: Inline[][] /** An ordered list's first number, when not 1. */;
      start?: number;
    }
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
 * Inline markers, tried in this order at each position, leftmost match first (the rules a regex
 * alternation would give, scanned by hand so the time is linear in the text whatever it holds: a
 * backtracking regex was quadratic on runs like `_a_b _a_b …`):
 * - `` `code` ``: a backtick, at least one character, the next backtick;
 * - `**strong**`: two stars, at least one non-star, two stars;
 * - `*em*`: a star, a character that is neither a star nor a space, then up to the next star;
 * - `_em_`: underscore emphasis only at word edges (CommonMark's intraword rule): the opening `_`
 *   may not follow a letter, digit or `_`, and the closing one may not precede one, so
 *   `num_requests` and `duration_s` stay literal while `_this_` and `(_this_)` are emphasis.
 *   The first closing `_` that fits wins; underscores inside the emphasis are allowed; it ends
 *   within the line (no line or paragraph separator inside).
 * Unclosed markers stay literal text.
 */
const WORD = /[\p{L}\p{N}_]/u;
const SPACE = /\s/;
const LINE_END = /[\n\r\u2028\u2029]/g;
const MARKER = /[`*_\\]/g;
/** What a backslash makes literal (CommonMark's ASCII punctuation). */
const ESCAPABLE = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** JavaScript's `\s` for one UTF-16 unit (every space is a single unit). */
function isSpaceCode(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c >= 128 && SPACE.test(String.fromCharCode(c));
}

const isSpace = (ch: string) => isSpaceCode(ch.charCodeAt(0));
const isLineEnd = (ch: string) => ch === '\n' || ch === '\r' || ch === '\u2028' || ch === '\u2029';

/** Whether code point `cp` is a letter, a digit or `_` (`[\p{L}\p{N}_]`). */
function isWordPoint(cp: number): boolean {
  if (cp < 128)
    return (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95;
  return WORD.test(String.fromCodePoint(cp));
}

/** Whether the code point that starts at `i` is a letter, digit or `_` (false past the end). */
function wordAt(text: string, i: number): boolean {
  return i < text.length && isWordPoint(text.codePointAt(i) as number);
}

/** Whether the code point that ends just before `i` is a letter, digit or `_` (false at the start). */
function wordBefore(text: string, i: number): boolean {
  if (i <= 0) return false;
  const lo = text.charCodeAt(i - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) {
    const hi = text.charCodeAt(i - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return isWordPoint(text.codePointAt(i - 2) as number);
  }
  return isWordPoint(lo);
}

/** Length in UTF-16 units of the code point at `i` (1 or 2). */
function pointLength(text: string, i: number): number {
  const hi = text.charCodeAt(i);
  if (hi >= 0xd800 && hi <= 0xdbff && i + 1 < text.length) {
    const lo = text.charCodeAt(i + 1);
    if (lo >= 0xdc00 && lo <= 0xdfff) return 2;
  }
  return 1;
}

/** Characters the searches of `parseInline` went over since the last `takeScanned()` (for tests). */
let scanned = 0;

/** The count of characters searched since the previous call: a test's measure of the work done. */
export function takeScanned(): number {
  const s = scanned;
  scanned = 0;
  return s;
}

/**
 * Splits a line into inline runs in time linear in its length: each search below remembers its
 * last answer and is asked with non-decreasing starts, so every stretch of the text is searched at
 * most once per kind of marker. Unclosed markers stay literal text.
 */
export function parseInline(text: string, maxRuns = Number.POSITIVE_INFINITY): Inline[] {
  const n = text.length;
  scanned += n; // the marker scan
  const out: Inline[] = [];
  // Remembered searches: [asked from, found at] (found = n: none).
  let tickFrom = -1;
  let tickAt = -1;
  let starFrom = -1;
  let starAt = -1;
  let endFrom = -1;
  let endAt = -1;
  let closeFrom = -1;
  let closeAt = -1;
  const tick = (from: number) => {
    if (from < tickFrom || from > tickAt) {
      tickFrom = from;
      const k = text.indexOf('`', from);
      tickAt = k < 0 ? n : k;
      scanned += tickAt - from;
    }
    return tickAt;
  };
  const star = (from: number) => {
    if (from < starFrom || from > starAt) {
      starFrom = from;
      const k = text.indexOf('*', from);
      starAt = k < 0 ? n : k;
      scanned += starAt - from;
    }
    return starAt;
  };
  const lineEnd = (from: number) => {
    if (from < endFrom || from > endAt) {
      endFrom = from;
      LINE_END.lastIndex = from;
      const m = LINE_END.exec(text);
      endAt = m ? m.index : n;
      scanned += endAt - from;
    }
    return endAt;
  };
  // A `_` that can close underscore emphasis: the character before it is neither `_` nor a space,
  // and no letter, digit or `_` follows it.
  const closes = (c: number) => {
    const before = text.charCodeAt(c - 1);
    return c > 0 && before !== 95 && !isSpaceCode(before) && !wordAt(text, c + 1);
  };
  const closer = (from: number) => {
    if (from < closeFrom || from > closeAt) {
      closeFrom = from;
      closeAt = n;
      for (let c = text.indexOf('_', from); c >= 0; c = text.indexOf('_', c + 1))
        if (closes(c)) {
          closeAt = c;
          break;
        }
      scanned += closeAt - from;
    }
    return closeAt;
  };
  let last = 0;
  const emit = (kind: Inline['kind'], from: number, inner: string, to: number) => {
    if (from > last) out.push({ kind: 'text', text: text.slice(last, from) });
    out.push({ kind, text: inner });
    last = to;
  };
  let i = 0;
  // (past `maxRuns` the rest of the line is one text run)
  while (i < n && out.length < maxRuns) {
    MARKER.lastIndex = i;
    const m = MARKER.exec(text);
    if (!m) break;
    i = m.index;
    const ch = text.charCodeAt(i);
    if (ch === 92) {
      // \* \_ \` …: the next character is literal (it opens nothing)
      if (i + 1 < n && ESCAPABLE.includes(text[i + 1])) {
        if (i > last) out.push({ kind: 'text', text: text.slice(last, i) });
        last = i + 1; // the escaped character starts the next text run
        i += 2;
        continue;
      }
    } else if (ch === 96) {
      // `code`
      const j = tick(i + 1);
      if (j < n && j > i + 1) {
        emit('code', i, text.slice(i + 1, j), j + 1);
        i = j + 1;
        continue;
      }
    } else if (ch === 42) {
      if (text.charCodeAt(i + 1) === 42) {
        // **strong**
        const j = star(i + 2);
        if (j < n && j > i + 2 && text.charCodeAt(j + 1) === 42) {
          emit('strong', i, text.slice(i + 2, j), j + 2);
          i = j + 2;
          continue;
        }
      } else if (i + 1 < n && !isSpaceCode(text.charCodeAt(i + 1))) {
        // *em*
        const j = star(i + 1);
        if (j < n) {
          emit('em', i, text.slice(i + 1, j), j + 1);
          i = j + 1;
          continue;
        }
      }
    } else if (!wordBefore(text, i) && i + 1 < n) {
      // _em_
      const first = text.charCodeAt(i + 1);
      if (first !== 95 && !isSpaceCode(first)) {
        const rest = i + 1 + pointLength(text, i + 1);
        // As the regex `_([^_\s](?:.*?[^_\s])?)_` tries it: two or more characters up to the first
        // closing `_` on the line, else the first character alone.
        let c = closer(rest + 1);
        if (c >= n || lineEnd(rest) < c)
          c = rest < n && text.charCodeAt(rest) === 95 && closes(rest) ? rest : n;
        if (c < n) {
          emit('em', i, text.slice(i + 1, c), c + 1);
          i = c + 1;
          continue;
        }
      }
    }
    i++;
  }
  if (last < n) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

/** `^\s*[-*+]\s+(.*)$` by hand (linear); the item text, or null. */
function bullet(line: string): string | null {
  let i = 0;
  while (i < line.length && isSpace(line[i])) i++;
  if (!'-*+'.includes(line[i] ?? 'x')) return null;
  return afterSpace(line, i + 1);
}

/** `^\s*\d+[.)]\s+(.*)$` by hand (linear). */
function numbered(line: string): string | null {
  let i = 0;
  while (i < line.length && isSpace(line[i])) i++;
  const digits = i;
  while (i < line.length && line[i] >= '0' && line[i] <= '9') i++;
  if (i === digits || (line[i] !== '.' && line[i] !== ')')) return null;
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

/** The number an ordered list item starts with (`10) tenth` → 10). */
function itemNumber(line: string): number {
  let i = 0;
  while (i < line.length && isSpace(line[i])) i++;
  let j = i;
  while (j < line.length && line[j] >= '0' && line[j] <= '9') j++;
  return Number(line.slice(i, Math.min(j, i + 9)));
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
    const runs = parseInline(t, Math.max(1, runsLeft));
    runsLeft -= runs.length;
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
    const list = bullet(line) !== null ? 'ul' : numbered(line) !== null ? 'ol' : null;
    if (list) {
      flush();
      const items: Inline[][] = [];
      const item = list === 'ul' ? bullet : numbered;
      const first = i;
      for (; i < lines.length && !full(); next(i++)) {
        const m = item(lines[i]);
        if (m !== null) {
          items.push(inline(m));
          units++;
        } else if (isContinuation(lines[i]) && items.length) {
          const prev = items[items.length - 1];
          prev.push({ kind: 'text', text: ' ' });
          runsLeft--;
          // one by one: spread into push's arguments, a long line's runs overflowed the stack
          for (const run of inline(lines[i].trim())) prev.push(run);
        } else break;
      }
      i--;
      const start = list === 'ol' && items.length > 0 ? itemNumber(lines[first]) : 1;
      blocks.push(start !== 1 ? { kind: list, items, start } : { kind: list, items });
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
