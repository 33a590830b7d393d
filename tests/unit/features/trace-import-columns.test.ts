/**
 * A CSV trace of no known layout, in the page: the Import dialog asks which column is which (guessed
 * from the header's names first) and the replay scenario writes the answer as `trace.columns` and
 * `time_unit`, so the command line and a shared link read the file the same way. Before, the page
 * could only say "give trace.columns.timestamp", which nothing in it could give.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { guessColumns, mappingOptions, replayScenarioText } from '../../../src/ui/features/trace-import';
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
});
