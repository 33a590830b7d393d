/**
 * A dropped trace is replayed the way the scenario reads it. The page reads a dropped file once, with
 * no options; a scenario's `time_unit`, `columns` or `format` used to be ignored for it (the held table
 * was replayed whatever the scenario said, so the page and the command line replayed different
 * traces), and a CSV of no known layout could not be replayed in the page at all: it failed on the
 * drop, and the scenario's `trace.columns` was never used for it.
 */
import { describe, expect, it } from 'vitest';
import { sameReading, type TraceReadOptions } from '../../../src/format/trace';
import { parseScenarioText, traceReadingsOf } from '../../../src/scenario';
import { pageTraceSource } from '../../../src/worker/page-traces';
import { droppedTrace, readTraceBlob, rereadFor } from '../../../src/worker/trace-upload';

const CSV = ['when,prompt_len,gen_len,who', '0,100,10,a', '1500,200,20,b', '3000,300,30,a', ''].join('\n');
const blob = (text: string) => new Blob([text]);
const COLUMNS = { timestamp: 'when', input: 'prompt_len', output: 'gen_len', client: 'who' };

const scenario = (trace: string) =>
  [
    'version: 1',
    'name: t',
    'duration_s: 5',
    'cluster: { workers: 1, gpu: a100-80gb, model: llama-3.1-8b }',
    'router: { routing: round-robin }',
    'scheduler: { policy: fcfs }',
    'clients: []',
    `trace: ${trace}`,
    '',
  ].join('\n');

const span = (name: string, want?: TraceReadOptions) => {
  const t = droppedTrace(name, want);
  return t === null ? null : t.arrivalS[t.count - 1] - t.arrivalS[0];
};

describe('sameReading', () => {
  it('compares columns (case and spaces aside), time unit, block size and format', () => {
    const csv: TraceReadOptions = { format: 'csv', columns: { timestamp: 'When ', input: 'p', output: 'o' } };
    expect(sameReading(csv, 'csv', { ...csv, columns: { output: 'O', input: 'p', timestamp: 'when' } })).toBe(
      true,
    );
    expect(sameReading(csv, 'csv', { ...csv, timeUnit: 'ms' })).toBe(false);
    expect(sameReading(csv, 'csv', { ...csv, columns: { timestamp: 'when', input: 'p', output: 'x' } })).toBe(
      false,
    );
    // `auto` matches a table read with auto, or one whose detected format is asked for by name
    expect(sameReading({}, 'mooncake', { format: 'auto', blockTokens: 512 })).toBe(true);
    expect(sameReading({}, 'mooncake', { format: 'mooncake' })).toBe(true);
    expect(sameReading({}, 'mooncake', { format: 'azure' })).toBe(false);
    expect(sameReading({}, 'mooncake', { blockTokens: 16 })).toBe(false);
  });
});

describe('a dropped trace read the scenario’s way', () => {
  it('a CSV of no known layout fails on the drop with its header, and loads with the scenario’s columns', async () => {
    const res = await readTraceBlob(blob(CSV), 'odd.csv', {});
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.csvHeader).toEqual(['when', 'prompt_len', 'gen_len', 'who']);
    const text = scenario(
      `{ file: odd.csv, format: csv, time_unit: ms, columns: ${JSON.stringify(COLUMNS)} }`,
    );
    const readings = traceReadingsOf(text);
    expect(readings).toEqual([
      { file: 'odd.csv', opts: expect.objectContaining({ format: 'csv', columns: COLUMNS, timeUnit: 'ms' }) },
    ]);
    // before the load, the kept file is read the scenario's way: 3 requests over 3 s
    await rereadFor(readings);
    expect(span('odd.csv', readings[0].opts)).toBeCloseTo(3, 9);
    const parsed = parseScenarioText(text, pageTraceSource());
    expect(parsed.ok).toBe(true);
  });

  it('a table read one way is not replayed for a scenario that reads it another: it is read again', async () => {
    const s = { format: 'csv' as const, columns: COLUMNS };
    const first = await readTraceBlob(blob(CSV), 'unit.csv', { ...s, timeUnit: 's' });
    expect(first.ok).toBe(true);
    expect(span('unit.csv', { ...s, timeUnit: 's' })).toBe(3000);
    // the scenario says milliseconds: the seconds table is not what it asks for
    const ms: TraceReadOptions = { ...s, timeUnit: 'ms' };
    expect(droppedTrace('unit.csv', ms)).toBeNull();
    await rereadFor([{ file: 'unit.csv', opts: ms }]);
    expect(span('unit.csv', ms)).toBeCloseTo(3, 9);
  });

  it('a reading that fails the scenario’s way gives the scenario its problems, located in the trace', async () => {
    await readTraceBlob(blob(CSV), 'bad.csv', {});
    // numbers read as date-times: every row fails, at its line in the trace
    const text = scenario(
      '{ file: bad.csv, format: csv, time_unit: datetime, columns: { timestamp: when, input: prompt_len, output: gen_len } }',
    );
    await rereadFor(traceReadingsOf(text));
    const parsed = parseScenarioText(text, pageTraceSource());
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      const p = parsed.problems.find((q) => q.source !== undefined);
      expect(p?.source).toMatchObject({ file: 'bad.csv', line: 2 });
    }
  });
});

describe('a columns entry naming a column the header lacks', () => {
  it('is reported at the scenario’s columns key, not in the trace (the tryout: it pointed at the CSV)', () => {
    const text = scenario(
      '\n  file: odd.csv\n  format: csv\n  columns:\n    timestamp: when\n    input: prompt_len\n    output: gen_len\n    client: usr',
    );
    const res = parseScenarioText(text, { readFile: () => CSV });
    expect(res.ok).toBe(false);
    if (!res.ok) {
      const p = res.problems.find((q) => /no column 'usr'/.test(q.message));
      expect(p).toMatchObject({ line: 15, col: 13, path: ['trace', 'columns', 'client'] });
      expect(p?.source).toBeUndefined();
      expect(p?.message).toMatch(
        /^odd\.csv: no column 'usr' \(for the client\) in the header: when,prompt_len,gen_len,who$/,
      );
    }
  });
});
