/**
 * A CSV whose header has a column name longer than trace.columns can hold (200 characters): the
 * Import dialog offered it cut to 200 characters, a name the header does not have, so every read
 * with it failed ("no column 'ttt…'") and the form came back, with no way out. The reader now keeps
 * one character past the cap, and the form offers such a column as not choosable, saying why; the
 * guess never picks one.
 */
import { describe, expect, it } from 'vitest';
import { readTraceText } from '../../../src/format/trace';
import { choosableColumn, columnLabel, guessColumns } from '../../../src/ui/features/trace-import';

const LONG_TIME = `arrival_time_${'t'.repeat(237)}`;

describe('a header name longer than trace.columns holds', () => {
  it('is offered whole enough to tell it is too long, and never guessed', () => {
    const res = readTraceText('long.csv', `${LONG_TIME},prompt,out\n0,100,10\n`);
    expect(res.ok).toBe(false);
    const header = res.ok ? [] : (res.csvHeader ?? []);
    expect(header.slice(1)).toEqual(['prompt', 'out']);
    expect(choosableColumn(header[0])).toBe(false);
    expect(choosableColumn('prompt')).toBe(true);
    expect(choosableColumn('t'.repeat(200))).toBe(true);
    expect(guessColumns(header).timestamp).toBe('');
    expect(guessColumns([`time_${'t'.repeat(250)}`, 'time', 'prompt', 'out']).timestamp).toBe('time');
    expect(columnLabel(header[0])).toMatch(
      /^arrival_time_t{47}… \(a name over 200 characters: shorten it in the file to choose it\)$/,
    );
  });
});
