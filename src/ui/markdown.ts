/**
 * A tiny, safe reader for scenario descriptions: paragraphs, bullet and numbered lists, fenced code,
 * and inline `code`, **bold** and *emphasis*. It produces plain data; the component renders it as
 * React text nodes, so no HTML from a description ever reaches the page.
 */

export type Inline = { kind: 'text' | 'code' | 'strong' | 'em'; text: string };

export type Block =
  | { kind: 'p'; inlines: Inline[] }
  | { kind: 'ul' | 'ol'; items: Inline[][] }
  | { kind: 'code'; text: string }
  | { kind: 'h'; inlines: Inline[] };

/**
 * Inline markers. Underscore emphasis only at word edges (CommonMark's intraword rule): the opening `_` may not follow
 * a letter or digit and the closing one may not precede one, so `num_requests` and `duration_s` stay
 * literal while `_this_` and `(_this_)` are emphasis. Underscores inside the emphasis are allowed.
 * Groups: 1 code, 2 strong, 3 star emphasis, 4 underscore emphasis.
 */
const INLINE =
  /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|(?<![\p{L}\p{N}_])_([^_\s](?:.*?[^_\s])?)_(?![\p{L}\p{N}_])/gu;

/** Splits a line into inline runs. Unclosed markers stay literal text. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const re = new RegExp(INLINE);
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ kind: 'code', text: m[1] });
    else if (m[2] !== undefined) out.push({ kind: 'strong', text: m[2] });
    else out.push({ kind: 'em', text: m[3] ?? m[4] });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;
const HEADING = /^#{1,6}\s+(.*)$/;

export function parseMarkdownish(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) blocks.push({ kind: 'p', inlines: parseInline(para.join(' ')) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*```/.test(line)) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) code.push(lines[i]);
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const list = BULLET.exec(line) ? 'ul' : NUMBERED.exec(line) ? 'ol' : null;
    if (list) {
      flush();
      const items: Inline[][] = [];
      const re = list === 'ul' ? BULLET : NUMBERED;
      for (; i < lines.length; i++) {
        const m = re.exec(lines[i]);
        if (m) items.push(parseInline(m[1]));
        else if (/^\s{2,}\S/.test(lines[i]) && items.length) {
          const prev = items[items.length - 1];
          prev.push({ kind: 'text', text: ' ' }, ...parseInline(lines[i].trim()));
        } else break;
      }
      i--;
      blocks.push({ kind: list, items });
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      flush();
      blocks.push({ kind: 'h', inlines: parseInline(h[1]) });
      continue;
    }
    if (line.trim() === '') flush();
    else para.push(line.trim());
  }
  flush();
  return blocks;
}
