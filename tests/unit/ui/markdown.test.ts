import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdownish } from '../../../src/ui/markdown';

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
