/**
 * A CSV trace of no known layout, in the page: the Import dialog asks which column is which (guessed
 * from the header's names first) and the replay scenario writes the answer as `trace.columns` and
 * `time_unit`, so the command line and a shared link read the file the same way. Before, the page
 * could only say "give trace.columns.timestamp", which nothing in it could give.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  guessColumns,
  loadedMessage,
  mappingHint,
  mappingOptions,
  replayScenarioText,
  unitHint,
} from '../../../src/ui/features/trace-import';
import { traceReadingsOf } from '../../../src/scenario';

describe('a CSV trace’s columns in the page', () => {
  it('guesses each role from the header’s names, each field at most once', () => {
    expect(guessColumns(['arrival_time', 'prompt_tokens', 'completion_tokens', 'user_id'])).toEqual({
      timestamp: 'arrival_time',
      input: 'prompt_tokens',
      output: 'completion_tokens',
      client: 'user_id',
      timeUnit: 's',
    });
    // a time column whose name states its unit: the unit is guessed too (was: seconds, and `ts_ms`
    // was not taken for the time column at all)
    expect(guessColumns(['ts_ms', 'prompt', 'completion', 'user'])).toEqual({
      timestamp: 'ts_ms',
      input: 'prompt',
      output: 'completion',
      client: 'user',
      timeUnit: 'ms',
    });
    expect(guessColumns(['arrival_ms', 'prompt_tokens', 'completion_tokens']).timeUnit).toBe('ms');
    expect(guessColumns(['time (us)', 'in_tok', 'out_tok']).timeUnit).toBe('us');
    expect(guessColumns(['timestamp_micros', 'in_tok', 'out_tok']).timeUnit).toBe('us');
    // no unit in the name (or a word that merely contains the letters): seconds
    expect(guessColumns(['timestamp', 'in_tok', 'out_tok']).timeUnit).toBe('s');
    expect(guessColumns(['status_time', 'in_tok', 'out_tok']).timeUnit).toBe('s');
    // nothing that reads like a role: left to the user
    expect(guessColumns(['a', 'b', 'c'])).toMatchObject({ timestamp: '', input: '', output: '', client: '' });
  });

  it('the replay scenario carries the mapping, and reads back as the same options', () => {
    const mapping = { timestamp: 'when', input: 'p', output: 'o', client: '', timeUnit: 'ms' as const };
    const opts = mappingOptions(mapping);
    expect(opts).toEqual({
      format: 'csv',
      columns: { timestamp: 'when', input: 'p', output: 'o' },
      timeUnit: 'ms',
    });
    const one = replayScenarioText('version: 1\nname: base\nclients: []\n', [
      { name: 'odd.csv', requests: 3, spanS: 3, opts },
    ]);
    expect(parse(one).trace).toEqual({
      file: 'odd.csv',
      format: 'csv',
      columns: { timestamp: 'when', input: 'p', output: 'o' },
      time_unit: 'ms',
    });
    expect(traceReadingsOf(one)[0].opts).toMatchObject(opts);
    // several files: each client's trace section says how its file reads
    const two = replayScenarioText('version: 1\nname: base\nclients: []\n', [
      { name: 'odd.csv', requests: 3, spanS: 3, opts },
      { name: 'day.jsonl', requests: 3, spanS: 3 },
    ]);
    expect(parse(two).clients.map((c: { trace: unknown }) => c.trace)).toEqual([
      {
        file: 'odd.csv',
        format: 'csv',
        columns: { timestamp: 'when', input: 'p', output: 'o' },
        time_unit: 'ms',
      },
      { file: 'day.jsonl', format: 'auto' },
    ]);
  });

  it('a read with the chosen columns that fails names the form’s field to change, not only the CSV’s line', () => {
    const m = { timestamp: 'ts_ms', input: 'text', output: 'completion', client: '', timeUnit: 's' as const };
    expect(mappingHint("t.csv:2:17: input tokens 'hello world 0' is not a number\nt.csv:3:18: …", m)).toBe(
      "The column chosen for Prompt (input) tokens (now 'text') does not hold token counts: choose another one there.",
    );
    expect(mappingHint("t.csv:2:3: output tokens 'x' is not a number", { ...m, output: 'user' })).toMatch(
      /^The column chosen for Output tokens \(now 'user'\)/,
    );
    expect(
      mappingHint("t.csv:2:1: timestamp '118' is not a date-time like 2023-11-16 18:15:46.68", {
        ...m,
        timeUnit: 'datetime',
      }),
    ).toMatch(
      /Arrival time \(now 'ts_ms'\) does not hold dates and times: choose another unit in Times are in/,
    );
    expect(
      mappingHint("t.csv:2:1: timestamp 'ann' is not a number ≥ 0", { ...m, timestamp: 'user' }),
    ).toMatch(/Arrival time \(now 'user'\) does not hold times as numbers/);
    expect(mappingHint('t.csv:1:1: the trace has a header but no requests', m)).toBe(
      'Change the columns or the unit above, then read again.',
    );
  });

  it('the replay drops the base scenario’s opening comment, which describes the base (tryout)', () => {
    const base =
      "# The playground's default scenario: every view has something to show.\nversion: 1\nname: base\nclients: []\n";
    const text = replayScenarioText(base, [{ name: 'day.jsonl', requests: 3, spanS: 3 }]);
    expect(text).not.toMatch(/default scenario/);
    expect(parse(text).name).toBe('Replay of day.jsonl');
  });

  it('asks about the unit when a chosen one makes the arrivals implausibly sparse or dense (tryout)', () => {
    const csv = (timeUnit: 's' | 'ms') => ({
      format: 'csv' as const,
      columns: { timestamp: 't', input: 'i', output: 'o' },
      timeUnit,
    });
    // 200 requests 250 ms apart, read as seconds: 250 s apart
    const slow = { name: 'x.csv', requests: 200, spanS: 49_750, format: 'csv', opts: csv('s') };
    expect(unitHint(slow)).toBe(
      "x.csv's requests are 250 s apart on average: if its times are milliseconds, import it again and choose milliseconds.",
    );
    expect(loadedMessage([slow])).toMatch(
      /as the workload\. x\.csv's requests are 250 s apart .* Press Play\.$/,
    );
    // 200 requests 0.25 s apart, read as milliseconds: 4,000 a second
    expect(unitHint({ ...slow, spanS: 0.04975, opts: csv('ms') })).toMatch(
      /arrive within 0\.05 s: if its times are seconds/,
    );
    // plausible spacing, or a layout's own unit (not chosen here): no question
    expect(unitHint({ ...slow, spanS: 49.75 })).toBeNull();
    expect(unitHint({ ...slow, opts: {} })).toBeNull();
  });
});
