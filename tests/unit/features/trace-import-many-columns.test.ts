/**
 * A CSV of no known layout with more than 200 columns (#15): the reader hands the Import dialog the
 * header's first 200 fields, and the form offered those without a word, so a column past them could
 * not be chosen and the user was not told why. The reader now says how many columns the header has,
 * and the form says that only the first 200 are offered, and how to reach the others.
 */
import { describe, expect, it } from 'vitest';
import { readTraceText } from '../../../src/format/trace';
import { columnsCutText } from '../../../src/ui/features/trace-import';

const names = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);

describe('a CSV header of more columns than the form offers', () => {
  it('the reader says how many columns the header has, beside the first 200 it hands on', () => {
    const header = names(1234);
    const row = header.map((_, i) => String(i)).join(',');
    const res = readTraceText('wide.csv', `${header.join(',')}\n${row}\n`);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.csvHeader).toHaveLength(200);
    expect(res.csvColumns).toBe(1234);
    // a column past the 200th can still be named in the scenario's trace.columns
    const named = readTraceText('wide.csv', `${header.join(',')}\n${row}\n`, {
      format: 'csv',
      columns: { timestamp: 'c1000', input: 'c1001', output: 'c1233' },
    });
    expect(named.ok).toBe(true);
  });

  it('a header within 200 columns: its count is every field', () => {
    const res = readTraceText('odd.csv', 'a,b,c\n1,2,3\n');
    expect(!res.ok && res.csvColumns).toBe(3);
  });

  it('the form says so when it offers fewer columns than the file has, and not otherwise', () => {
    const text = columnsCutText(1234, 200) ?? '';
    expect(text).toMatch(/^This file has 1.234 columns; the first 200 are offered\./);
    expect(text).toContain('trace.columns');
    expect(columnsCutText(200, 200)).toBeNull();
    expect(columnsCutText(3, 3)).toBeNull();
  });
});
