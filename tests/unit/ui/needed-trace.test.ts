/**
 * The words about a shared link's dropped trace quote its name as every message quotes user input, at
 * most ~80 characters (#15): a link's `trace.file` may be 4,096 characters, and the banner quoted it
 * whole three times (12,310 characters of banner, and a button as wide).
 */
import { describe, expect, it } from 'vitest';
import {
  checkTraceCopies,
  neededTraceText,
  otherCopyText,
  pickTraceLabel,
  shareTraceText,
  unusedSizesNote,
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

/**
 * #15: which dropped trace a link's run replays is not the sender's copy, or cannot be told. A
 * malformed size record (`traceBytes`) was dropped without a word and the run opened as "the run as it
 * was shared"; an entry for a file the link's scenario does not replay put up the banner for that file.
 */
describe('a link’s record of its dropped traces’ sizes, against the copies held here', () => {
  const held: Record<string, number> = { 'mini.jsonl': 100, 'other.csv': 7 };
  const sizeOf = (name: string) => held[name];

  it('finds a copy of another size, and says so', () => {
    const c = checkTraceCopies({ traceBytes: { 'mini.jsonl': 99 } }, ['mini.jsonl'], sizeOf);
    expect(c).toMatchObject({ name: 'mini.jsonl', unchecked: false });
    expect(c?.message).toContain("the sender's was 99 bytes");
    expect(checkTraceCopies({ traceBytes: { 'mini.jsonl': 100 } }, ['mini.jsonl'], sizeOf)).toBeNull();
  });

  it('ignores entries for files the link’s scenario does not replay', () => {
    const s = { traceBytes: { 'mini.jsonl': 100, 'other.csv': 5 } };
    expect(checkTraceCopies(s, ['mini.jsonl'], sizeOf)).toBeNull();
    expect(checkTraceCopies(s, [], sizeOf)).toBeNull();
    const bad = {
      traceBytes: { 'mini.jsonl': 100 },
      unreadableTraceBytes: { entries: new Map([['other.csv', '-1']]) },
    };
    expect(checkTraceCopies(bad, ['mini.jsonl'], sizeOf)).toBeNull();
    // nor does a name shared with Object's prototype find a size (it has none recorded)
    expect(checkTraceCopies({ traceBytes: {} }, ['constructor'], () => 3)).toMatchObject({
      name: 'constructor',
      unchecked: true,
      unrecorded: true,
    });
  });

  it('an unreadable entry for a replayed file: cannot tell it is the sender’s copy, names the entry', () => {
    const s = { traceBytes: {}, unreadableTraceBytes: { entries: new Map([['mini.jsonl', '12.5']]) } };
    const c = checkTraceCopies(s, ['mini.jsonl'], sizeOf);
    expect(c).toMatchObject({ name: 'mini.jsonl', unchecked: true });
    expect(c?.message).toContain('unreadable: its entry for mini.jsonl is 12.5, not a byte count');
    expect(c?.message).toContain('cannot tell whether this copy of mini.jsonl');
    expect(c?.message).not.toContain('as it was shared');
    // a file the page does not hold is asked for first (missingTraceFile), not checked here
    expect(checkTraceCopies(s, ['absent.jsonl'], sizeOf)).toBeNull();
  });

  it('a record unreadable as a whole: every replayed file held is unchecked', () => {
    const s = { unreadableTraceBytes: { whole: 'a list' } };
    const c = checkTraceCopies(s, ['mini.jsonl'], sizeOf);
    expect(c).toMatchObject({ name: 'mini.jsonl', unchecked: true });
    expect(c?.message).toContain('is unreadable (it is a list, not sizes by file name)');
  });

  // The tryout after #15: a link that records no size for a replayed file (one made before sizes were
  // recorded, or edited by hand) opened with any copy as "the run as it was shared".
  it('no size recorded for a replayed file: cannot tell it is the sender’s copy, says why in plain words', () => {
    for (const s of [{}, { traceBytes: { 'other.csv': 7 } }]) {
      const c = checkTraceCopies(s, ['mini.jsonl'], sizeOf);
      expect(c, JSON.stringify(s)).toMatchObject({ name: 'mini.jsonl', unchecked: true, unrecorded: true });
      expect(c?.message).toContain("The link records no size for the sender's mini.jsonl");
      expect(c?.message).toContain("cannot tell whether this copy of mini.jsonl is the sender's");
      expect(c?.message).not.toContain('as it was shared');
    }
    // an unreadable entry is named as such, not as a missing one
    const bad = { unreadableTraceBytes: { entries: new Map([['mini.jsonl', '-1']]) } };
    expect(checkTraceCopies(bad, ['mini.jsonl'], sizeOf)).toMatchObject({
      unchecked: true,
      unrecorded: false,
    });
    expect(checkTraceCopies({}, [LONG], () => 1)?.message.length).toBeLessThan(700);
    expect(quoted(checkTraceCopies({}, [LONG], () => 1)?.message ?? '')).toBeLessThanOrEqual(80);
  });

  // The tryout after #15: an unreadable record in a link whose run replays no dropped trace was
  // ignored without a word. The run is the one shared, so the note says so and why it does not matter.
  it('an unreadable record not about the run: a short note that it changes nothing', () => {
    const whole = { unreadableTraceBytes: { whole: 'a list' } };
    expect(unusedSizesNote(whole, [])).toBe(
      'The link’s record of trace file sizes is unreadable; this run replays no dropped trace file, so that changes nothing.',
    );
    const other = { unreadableTraceBytes: { entries: new Map([['other.csv', '-1']]) } };
    expect(unusedSizesNote(other, [])).toContain('replays no dropped trace file');
    expect(unusedSizesNote(other, ['mini.jsonl'])).toBe(
      'Part of the link’s record of trace file sizes is unreadable, only for files this run does not replay, so that changes nothing.',
    );
    // about a replayed file: checkTraceCopies reports it (the copy is unchecked), not this note
    const mine = { unreadableTraceBytes: { entries: new Map([['mini.jsonl', '-1']]) } };
    expect(unusedSizesNote(mine, ['mini.jsonl'])).toBe('');
    expect(unusedSizesNote({ ...whole }, ['mini.jsonl'])).toBe('');
    expect(unusedSizesNote({}, [])).toBe('');
    expect(unusedSizesNote({ traceBytes: { 'x.csv': 3 } }, [])).toBe('');
  });

  it('quotes at most ~80 characters of a long name or value', () => {
    const s = { unreadableTraceBytes: { entries: new Map([[LONG, `"${'L'.repeat(20)}…"`]]) } };
    const c = checkTraceCopies(s, [LONG], () => 1);
    expect(quoted(c?.message ?? '')).toBeLessThanOrEqual(80);
    expect((c?.message ?? '').length).toBeLessThan(700);
  });
});
