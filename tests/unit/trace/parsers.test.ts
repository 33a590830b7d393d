/**
 * Trace parsers (#14.5/#14.6): Mooncake JSON lines, the Azure and BurstGPT CSV layouts and a mapped
 * CSV, on hand-made files and on the shared Mooncake trace; every malformed line is reported as
 * `file:line:col: message` (the column of the value that is wrong) and nothing throws; parsing in chunks of any size gives the same table.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TraceTable } from '../../../src/core/trace';
import {
  formatTraceProblems,
  parseDateTime,
  readTraceText,
  splitCsvLine,
  TraceReader,
  type TraceReadOptions,
} from '../../../src/format/trace';

const MOONCAKE = '../shared/data/traces/mooncake/conversation_trace.jsonl';

function table(text: string, opts: TraceReadOptions = {}, file = 't.jsonl'): TraceTable {
  const r = readTraceText(file, text, opts);
  if (!r.ok) throw new Error(formatTraceProblems(file, r.problems, r.more));
  return r.value;
}

function problems(text: string, opts: TraceReadOptions = {}, file = 't.jsonl'): string {
  const r = readTraceText(file, text, opts);
  if (r.ok) throw new Error('expected problems');
  return formatTraceProblems(file, r.problems, r.more);
}

const HAND = [
  '{"timestamp": 1000, "input_length": 1100, "output_length": 5, "hash_ids": [0, 1, 2]}',
  '',
  '{"timestamp": 1500, "input_length": 600, "output_length": 0, "hash_ids": [0, 3]}',
  '{"timestamp": 1200, "input_length": 40, "output_length": 7}',
].join('\n');

describe('Mooncake JSON lines', () => {
  it('reads rows, blocks and times (seconds from the first arrival)', () => {
    const t = table(HAND);
    expect(t.format).toBe('mooncake');
    expect(t.count).toBe(3);
    expect([...t.arrivalS]).toEqual([0, 0.5, 0.2]);
    expect([...t.input]).toEqual([1100, 600, 40]);
    // output 0 (a request that produced nothing) is replayed as one token
    expect([...t.output]).toEqual([5, 1, 7]);
    expect([...t.line]).toEqual([1, 3, 4]);
    expect([...(t.blockStart ?? [])]).toEqual([0, 3, 5, 5]);
    expect([...(t.blocks ?? [])]).toEqual([0, 1, 2, 0, 3]);
  });

  it('reports each malformed line as file:line:col: message and goes on', () => {
    const text = [
      '{"timestamp": 0, "input_length": 10, "output_length": 1}',
      '{"timestamp": 0, "input_length": 10, "output_length": 1',
      '{"timestamp": -4, "input_length": 10, "output_length": 1}',
      '{"timestamp": 0, "output_length": 1}',
      '{"timestamp": 0, "input_length": 1.5, "output_length": 1}',
      '{"timestamp": 0, "input_length": 0, "output_length": 1}',
      '{"timestamp": 0, "input_length": 10, "output_length": 1, "hash_ids": [1, "x"]}',
      '[1, 2]',
      '{"timestamp": 0, "input_length": 10, "output_length": 1, "hash_ids": 3}',
    ].join('\r\n');
    const out = problems(text, {}, 'bad.jsonl').split('\n');
    expect(out).toHaveLength(8);
    expect(out[0]).toBe("bad.jsonl:2:56: not a JSON object: Expected ',' or '}' after property value");
    // the position inside the line is its column, never a "line 1" beside the file's line 2
    expect(out[0]).not.toMatch(/line 1|position/);
    expect(out[1]).toBe('bad.jsonl:3:15: "timestamp" must be a number of milliseconds ≥ 0, got -4');
    expect(out[2]).toBe('bad.jsonl:4:1: missing "input_length"');
    expect(out[3]).toBe('bad.jsonl:5:34: "input_length" must be a whole number, got 1.5');
    expect(out[4]).toBe('bad.jsonl:6:34: "input_length" must be ≥ 1, got 0');
    expect(out[5]).toBe('bad.jsonl:7:70: "hash_ids"[1] must be a whole number from 0 to 2147483647, got "x"');
    expect(out[6]).toMatch(/^bad\.jsonl:8:1: expected a JSON object/);
    expect(out[7]).toBe('bad.jsonl:9:70: "hash_ids" must be a list of block ids');
  });

  it('caps the report at 50 lines and counts the rest; an empty file is a problem too', () => {
    const text = Array.from({ length: 70 }, () => 'nope').join('\n');
    const r = readTraceText('x.jsonl', `{${text}`, { format: 'mooncake' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problems).toHaveLength(50);
      expect(r.more).toBe(20);
      // the count is located too, at the first problem left out (line 51 here)
      expect(formatTraceProblems('x.jsonl', r.problems, r.more, r.moreFrom)).toMatch(
        /\nx\.jsonl:51:1: … and 20 more problems from here on \(the first 50 are listed\)$/,
      );
    }
    expect(problems('\n\n   \n')).toBe('t.jsonl:3:1: the trace is empty (no requests)');
  });

  it('any split of the text into chunks gives the same table', () => {
    const whole = table(HAND);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: HAND.length }), { maxLength: 8 }), (cuts) => {
        const at = [...new Set(cuts)].sort((a, b) => a - b);
        const r = new TraceReader('t.jsonl');
        let from = 0;
        for (const c of [...at, HAND.length]) {
          r.push(HAND.slice(from, c));
          from = c;
        }
        const res = r.end();
        expect(res.ok).toBe(true);
        if (res.ok) expect(res.value).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });

  it('reads the shared Mooncake conversation trace: 12,031 requests, its README averages', () => {
    const text = readFileSync(MOONCAKE, 'utf8');
    const r = new TraceReader('conversation_trace.jsonl');
    // feed it in 64 KiB pieces, as a stream would
    for (let i = 0; i < text.length; i += 65536) r.push(text.slice(i, i + 65536));
    const res = r.end();
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const t = res.value;
    expect(t.count).toBe(12031);
    let input = 0;
    let output = 0;
    for (let i = 0; i < t.count; i++) {
      input += t.input[i];
      output += t.output[i];
      // a row's blocks cover its prompt: ceil(input / 512) of them
      expect((t.blockStart as Int32Array)[i + 1] - (t.blockStart as Int32Array)[i]).toBe(
        Math.ceil(t.input[i] / 512),
      );
    }
    expect(Math.round(input / t.count)).toBe(12035);
    expect(Math.round(output / t.count)).toBe(343);
    expect(t.arrivalS[0]).toBe(0);
    expect(t.arrivalS[t.count - 1]).toBeGreaterThan(3000);
    expect(t.arrivalS[t.count - 1]).toBeLessThan(3600);
  });
});

describe('CSV traces', () => {
  it('recognises the Azure LLM inference layout and reads its date-times', () => {
    const text = [
      'TIMESTAMP,ContextTokens,GeneratedTokens',
      '2023-11-16 18:15:46.6805900,374,44',
      '2023-11-16 18:15:50.9951690,396,109',
      '2023-11-16 18:16:46.6805900,879,0',
    ].join('\n');
    const t = table(text, {}, 'azure.csv');
    expect(t.format).toBe('azure');
    expect(t.arrivalS[0]).toBe(0);
    expect(t.arrivalS[1]).toBeCloseTo(4.314579, 5);
    expect(t.arrivalS[2]).toBeCloseTo(60, 6);
    expect([...t.input]).toEqual([374, 396, 879]);
    expect([...t.output]).toEqual([44, 109, 1]);
    expect(t.blocks).toBeNull();
  });

  it('recognises the BurstGPT layout; its Model column becomes the request model', () => {
    const text = [
      'Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type',
      '5,ChatGPT,472,18,490,Conversation log',
      '45,GPT-4,1087,0,1087,API log',
    ].join('\n');
    const t = table(text, {}, 'burst.csv');
    expect(t.format).toBe('burstgpt');
    expect([...t.arrivalS]).toEqual([0, 40]);
    expect(t.model && [...t.model].map((i) => t.names[i])).toEqual(['ChatGPT', 'GPT-4']);
  });

  it('maps any CSV by column names, with client, model and class columns and quoted fields', () => {
    const text = [
      'when_ms,user,"prompt, tokens",completion,tier',
      '100,alice,"1,000",20,latency',
      '350,bob,2000,30,',
      '"400","al""ice",10,1,batch',
    ].join('\n');
    // "1,000" is not a number: a problem at line 2
    expect(
      problems(
        text,
        {
          format: 'csv',
          columns: {
            timestamp: 'when_ms',
            input: 'prompt, tokens',
            output: 'completion',
            client: 'user',
            class: 'tier',
          },
          timeUnit: 'ms',
        },
        'm.csv',
      ),
    ).toBe("m.csv:2:11: input tokens '1,000' is not a number");
    const ok = text.replace('"1,000"', '1000');
    const t = table(
      ok,
      {
        format: 'csv',
        columns: {
          timestamp: 'when_ms',
          input: 'prompt, tokens',
          output: 'completion',
          client: 'user',
          class: 'tier',
        },
        timeUnit: 'ms',
      },
      'm.csv',
    );
    expect([...t.arrivalS].map((x) => Math.round(x * 1000))).toEqual([0, 250, 300]);
    const name = (col: Int32Array | null, i: number) => (col === null || col[i] < 0 ? null : t.names[col[i]]);
    expect([0, 1, 2].map((i) => name(t.client, i))).toEqual(['alice', 'bob', 'al"ice']);
    expect([0, 1, 2].map((i) => name(t.policyClass, i))).toEqual(['latency', null, 'batch']);
  });

  it('says which column is missing, and what a bad row is', () => {
    expect(problems('a,b,c\n1,2,3', {}, 'x.csv')).toMatch(
      /^x\.csv:1:1: which column holds the timestamp\? The header \(a,b,c\) is not an Azure or BurstGPT layout: give trace\.columns\.timestamp/,
    );
    expect(
      problems('t,i\n1,2', { format: 'csv', columns: { timestamp: 't', input: 'i', output: 'o' } }, 'x.csv'),
    ).toBe("x.csv:1:1: no column 'o' (for the output) in the header: t,i");
    const bad = [
      'TIMESTAMP,ContextTokens,GeneratedTokens',
      'yesterday,1,1',
      '2023-11-16 18:15:46,1',
      '2023-11-16 18:15:46,"1,1',
    ].join('\n');
    expect(problems(bad, {}, 'az.csv').split('\n')).toEqual([
      "az.csv:2:1: timestamp 'yesterday' is not a date-time like 2023-11-16 18:15:46.68",
      'az.csv:3:22: expected at least 3 fields, got 2',
      'az.csv:4:21: unterminated quoted field',
    ]);
  });

  it('splits CSV lines and parses date-times exactly', () => {
    expect(splitCsvLine('a,"b,c",,"d""e"')).toEqual(['a', 'b,c', '', 'd"e']);
    expect(splitCsvLine('a,')).toEqual(['a', '']);
    expect(splitCsvLine('"a"x')).toMatch(/expected ','/);
    expect(parseDateTime('1970-01-01 00:01:00')).toBe(60);
    expect(parseDateTime('1970-01-01T01:00:00+01:00')).toBe(0);
    expect(parseDateTime('2023-13-01 00:00:00')).toBeNull();
  });
});
