/**
 * The trace import writes its numbers in the format of where they land: the banner and the dialog
 * are the page's text (12 345, U+202F grouping, as every view); the replay scenario's description is
 * YAML the editor shows and the CLI reads, so its numbers are plain digits (no comma, which is not
 * the page's format, and no U+202F, which Monaco marks as an invisible character). Before, both
 * said 12,345.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadedMessage, readList, replayScenarioText } from '../../../src/ui/features/trace-import';
import { parseScenarioText } from '../../../src/scenario';

const read = [
  { name: 'day.jsonl', requests: 23_608, format: 'mooncake', spanS: 3599.6, bytes: 1 },
  { name: 'b.csv', requests: 1_204_000, format: 'azure', spanS: 12.2, bytes: 1 },
];

describe('numbers of a trace import', () => {
  it('the banner and the dialog group thousands as the page does', () => {
    expect(readList(read)).toBe(
      '23\u202f608 requests (mooncake) from day.jsonl, 1\u202f204\u202f000 requests (azure) from b.csv',
    );
    expect(loadedMessage(read.slice(0, 1))).toBe(
      'Loaded 23\u202f608 requests (mooncake) from day.jsonl over 3\u202f600 s as the workload. Press Play.',
    );
  });

  it('a trace shorter than 10 s gives its span to two digits, not "over 0 s" (tryout)', () => {
    const short = [{ name: 'tiny.jsonl', requests: 3, format: 'mooncake', spanS: 0.25, bytes: 1 }];
    expect(loadedMessage(short)).toBe(
      'Loaded 3 requests (mooncake) from tiny.jsonl over 0.25 s as the workload. Press Play.',
    );
    const doc = parse(replayScenarioText('version: 1\nname: base\nclients: []\n', short)) as {
      description: string;
    };
    expect(doc.description).toContain('(3 requests over 0.25 s)');
    expect(loadedMessage([{ ...short[0], spanS: 3.456 }])).toContain('over 3.5 s');
    expect(loadedMessage([{ ...short[0], spanS: 0 }])).toContain('over 0 s');
  });

  it('the replay scenario writes plain digits, parses, and has no comma-grouped or invisible number', () => {
    for (const traces of [read.slice(0, 1), read]) {
      const text = replayScenarioText('version: 1\nname: base\nclients: []\n', traces);
      const doc = parse(text) as { description: string; duration_s: number };
      const requests = traces.reduce((n, t) => n + t.requests, 0);
      expect(doc.description).toContain(`(${requests} requests over 3600 s)`);
      expect(doc.duration_s).toBe(3600);
      expect(text).not.toMatch(/\d,\d{3}/);
      expect(text).not.toMatch(/[\u00a0\u2000-\u200f\u202f\u205f]/);
      // the text is a scenario that validates (its trace files are not read here)
      const res = parseScenarioText(text);
      expect(res.ok ? [] : res.problems.map((p) => p.message)).toEqual([]);
    }
  });
});
