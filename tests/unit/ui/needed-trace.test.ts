/**
 * The words about a shared link's dropped trace quote its name as every message quotes user input, at
 * most ~80 characters (#15): a link's `trace.file` may be 4,096 characters, and the banner quoted it
 * whole three times (12,310 characters of banner, and a button as wide).
 */
import { describe, expect, it } from 'vitest';
import {
  neededTraceText,
  otherCopyText,
  pickTraceLabel,
  shareTraceText,
} from '../../../src/ui/share/needed-trace';

const LONG = `${'L'.repeat(4000)}.jsonl`;

/** The longest run of the name's letter in a text: how much of the name it quotes. */
const quoted = (text: string) => Math.max(0, ...(text.match(/L+/g) ?? []).map((m) => m.length));

describe('a dropped trace named in words', () => {
  it('quotes a short name whole', () => {
    expect(neededTraceText('mini.jsonl')).toContain('the request trace “mini.jsonl”');
    expect(shareTraceText(['mini.jsonl'])).toContain('“mini.jsonl”, a trace file you dropped');
    expect(pickTraceLabel('mini.jsonl')).toBe('Pick mini.jsonl…');
    expect(otherCopyText('mini.jsonl', 2313, 5)).toMatch(
      /^This copy of mini\.jsonl is 2.313 bytes; the sender's was 5 bytes/,
    );
  });

  it('quotes at most ~80 characters of a long name, and says how long it is', () => {
    for (const text of [
      neededTraceText(LONG),
      shareTraceText([LONG]),
      shareTraceText([LONG, LONG.replace('.', '2.')]),
      pickTraceLabel(LONG),
      otherCopyText(LONG, 1, 2),
    ]) {
      expect(quoted(text)).toBeLessThanOrEqual(80);
      expect(text.length).toBeLessThan(700);
    }
    expect(neededTraceText(LONG)).toContain('(4,006 characters)');
  });

  it('lists many files by a few names and a count', () => {
    const names = Array.from({ length: 50 }, (_, i) => `trace-${i}.csv`);
    const text = shareTraceText(names);
    expect(text).toContain('trace-0.csv');
    expect(text).toMatch(/and \d+ more/);
    expect(text.length).toBeLessThan(700);
  });
});
