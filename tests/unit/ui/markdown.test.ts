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
