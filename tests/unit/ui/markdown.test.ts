import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Inline, parseInline, parseMarkdownish, takeScanned } from '../../../src/ui/markdown';

describe('markdown-ish descriptions', () => {
  it('splits paragraphs on blank lines and joins wrapped lines', () => {
    expect(parseMarkdownish('one\ntwo\n\nthree')).toEqual([
      { kind: 'p', inlines: [{ kind: 'text', text: 'one two' }] },
      { kind: 'p', inlines: [{ kind: 'text', text: 'three' }] },
    ]);
  });
  it('reads bullet and numbered lists, code fences and headings', () => {
    const blocks = parseMarkdownish('# Title\n- a\n- b `x`\n\n1. first\n2. second\n```\nq: 1\n```');
    expect(blocks.map((b) => b.kind)).toEqual(['h', 'ul', 'ol', 'code']);
    expect(blocks[1]).toEqual({
      kind: 'ul',
      items: [
        [{ kind: 'text', text: 'a' }],
        [
          { kind: 'text', text: 'b ' },
          { kind: 'code', text: 'x' },
        ],
      ],
    });
    expect(blocks[3]).toEqual({ kind: 'code', text: 'q: 1' });
  });
  it('keeps HTML as literal text', () => {
    expect(parseInline('<img src=x onerror=alert(1)> **bold** *em*')).toEqual([
      { kind: 'text', text: '<img src=x onerror=alert(1)> ' },
      { kind: 'strong', text: 'bold' },
      { kind: 'text', text: ' ' },
      { kind: 'em', text: 'em' },
    ]);
  });
  it('leaves unclosed markers alone', () => {
    expect(parseInline('a `b and 2 * 3')).toEqual([{ kind: 'text', text: 'a `b and 2 * 3' }]);
  });
});

describe('underscores inside words', () => {
  it('keeps snake_case names literal', () => {
    expect(parseInline('set num_requests and duration_s here')).toEqual([
      { kind: 'text', text: 'set num_requests and duration_s here' },
    ]);
    expect(parseInline('a_b_c and x_1_')).toEqual([{ kind: 'text', text: 'a_b_c and x_1_' }]);
  });
  it('still reads underscore emphasis at word edges', () => {
    expect(parseInline('an _idle_ worker (_really_).')).toEqual([
      { kind: 'text', text: 'an ' },
      { kind: 'em', text: 'idle' },
      { kind: 'text', text: ' worker (' },
      { kind: 'em', text: 'really' },
      { kind: 'text', text: ').' },
    ]);
  });
  it('lets emphasis hold an intraword underscore and ignores a closing one before a letter', () => {
    expect(parseInline('_max_tokens_ wins')).toEqual([
      { kind: 'em', text: 'max_tokens' },
      { kind: 'text', text: ' wins' },
    ]);
    expect(parseInline('_open but_never closed')).toEqual([{ kind: 'text', text: '_open but_never closed' }]);
  });
});

/**
 * The renderer as it was, with regular expressions: its output is the reference for the linear
 * scanner (same leftmost-first rules), but its underscore rule is quadratic on adversarial text.
 */
const REGEX_INLINE =
  /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|(?<![\p{L}\p{N}_])_([^_\s](?:.*?[^_\s])?)_(?![\p{L}\p{N}_])/gu;
function regexInline(text: string): Inline[] {
  const out: Inline[] = [];
  const re = new RegExp(REGEX_INLINE);
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

describe('the scanner reads inline markers exactly as the regular expressions did', () => {
  const alphabet = ['_', '*', '`', 'a', 'é', '1', ' ', '\u00a0', '(', '.', '\u2028', '😀', '\ud800', '#'];
  const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }).map((a) => a.join(''));
  it('on random runs of markers, letters, spaces and separators', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(parseInline(t)).toEqual(regexInline(t));
      }),
      { numRuns: 20_000 },
    );
  });
  it('block structure: lists, headings and fences as before', () => {
    expect(
      parseMarkdownish('  -   item _x_\n    more\n3) three\n####### seven\n###  six\n- a\u2028b'),
    ).toEqual([
      {
        kind: 'ul',
        items: [
          [
            { kind: 'text', text: 'item ' },
            { kind: 'em', text: 'x' },
            { kind: 'text', text: ' ' },
            { kind: 'text', text: 'more' },
          ],
        ],
      },
      { kind: 'ol', items: [[{ kind: 'text', text: 'three' }]] },
      { kind: 'p', inlines: [{ kind: 'text', text: '####### seven' }] },
      { kind: 'h', inlines: [{ kind: 'text', text: 'six' }] },
      { kind: 'p', inlines: [{ kind: 'text', text: '- a\u2028b' }] },
    ]);
  });
});

/**
 * Adversarial descriptions. The old renderer took 84 s on 900k characters of `_a_b `. The work is
 * measured by counting the characters the scanner's searches go over (a wall-clock bound on a
 * shared 2-core box swings tenfold with load): at most a few times the text's length, whatever it
 * holds. A loose wall-clock ceiling stays as a backstop (on an idle machine these take 10–40 ms).
 */
describe('adversarial descriptions of 1 MB render in linear time', () => {
  const MB = 1 << 20;
  const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
  const inputs: [string, string][] = [
    ['underscore runs (the 84-second share link)', fill('_a_b ')],
    ['openers never closed', fill('_a ')],
    ['openers closed only at the very end', `${fill('_a ').slice(0, MB - 3)}b_.`],
    ['stars never closed', fill('*a ')],
    ['double stars', fill('**a*')],
    ['backticks', fill('`a')],
    ['underscores before a separator', `${fill('_ab_c ')}\u2028_`],
    ['one long bullet with a separator at the end', `- ${' '.repeat(MB - 4)}\u2028x`],
    ['one long heading', `# ${' '.repeat(MB - 3)}\u2029`],
    ['a long list of numbered items', fill('1. _a_b\n')],
    ['indented continuation lines', `- a\n${fill('  b _c\n')}`],
    // its inline runs were spread into one call's arguments: a RangeError past ~120,000 of them
    ['one continuation line of many emphases', `- a\n  ${fill('*a* ')}`],
  ];
  for (const [what, input] of inputs) {
    it(what, () => {
      takeScanned();
      const t0 = performance.now();
      parseMarkdownish(input);
      const ms = performance.now() - t0;
      expect(takeScanned()).toBeLessThanOrEqual(5 * input.length);
      expect(ms).toBeLessThan(5000);
    });
  }
  it('the measure sees the quadratic scan of a naive search (the test can fail)', () => {
    // re-searching from every opener, as a backtracking regex does, counts ~n²/6 characters here
    const text = fill('_a ').slice(0, 30_000);
    let naive = 0;
    for (let i = text.indexOf('_'); i >= 0; i = text.indexOf('_', i + 1)) naive += text.length - i;
    expect(naive).toBeGreaterThan(5 * text.length);
    takeScanned();
    parseInline(text);
    expect(takeScanned()).toBeLessThanOrEqual(5 * text.length);
  });
});
