/**
 * A bad trace given to `run --replay` is reported as the CLI contract says every invalid input is:
 * `file:line:col: message`, one line per problem, exit 1 (#tryout: trace lines came as `file:line:`,
 * with no column, and a missing file as `file:`, with neither). The column is that of the value to
 * change, of a JSON syntax error's position, or 1 for the line as a whole.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';

const dir = mkdtempSync(join(tmpdir(), 'fg-trace-loc-'));
const scenario = join(dir, 's.yaml');
writeFileSync(
  scenario,
  'version: 1\nname: replay target\nduration_s: 5\ncluster: { workers: 1 }\nclients:\n  - name: alice\n    arrival: { process: poisson, rate: 2 }\n    program: { type: single, prompt_tokens: 100, output_tokens: 5 }\n',
);

async function replay(file: string): Promise<{ code: number; lines: string[] }> {
  const io = memoryIO();
  const code = await runCommand([scenario, '--replay', file, '--json'], io);
  expect(io.stdout).toEqual([]);
  return { code, lines: io.stderr.join('\n').split('\n') };
}

describe('run --replay: trace problems as file:line:col: message', () => {
  it('Mooncake lines: the column of the wrong value, of a JSON error, or 1', async () => {
    const trace = join(dir, 'bad.jsonl');
    writeFileSync(
      trace,
      [
        '{"timestamp": 0, "input_length": 10, "output_length": 1}',
        '{"timestamp": 10, "input_length": "abc", "output_length": 5}',
        '{"timestamp": 11, "input_length": 10, "output_length": 5',
        '{"timestamp": 12, "input_length": 10, "output_length": 5}x',
        '{"timestamp": 13}',
        '{"timestamp": 14, "input_length": 10,   "output_length": -1}',
      ].join('\n'),
    );
    const { code, lines } = await replay(trace);
    expect(code).toBe(1);
    expect(lines).toEqual([
      `${trace}:2:35: "input_length" must be a whole number, got "abc"`,
      `${trace}:3:57: not a JSON object: Expected ',' or '}' after property value`,
      // Node's "after JSON at position 57" becomes the column too, never a position in the text
      `${trace}:4:58: not a JSON object: Unexpected non-whitespace character after the JSON value`,
      `${trace}:5:1: missing "input_length"`,
      `${trace}:6:58: "output_length" must be ≥ 0, got -1`,
    ]);
  });

  it('CSV rows: the column where the wrong field starts', async () => {
    const trace = join(dir, 'az.csv');
    writeFileSync(
      trace,
      'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.68,10,5\n2023-11-16 18:15:47.1, abc,5\nfoo,1,1\n2023-11-16 18:15:48.1,5\n2023-11-16 18:15:49,"5,2\n',
    );
    const { code, lines } = await replay(trace);
    expect(code).toBe(1);
    expect(lines).toEqual([
      `${trace}:3:24: input tokens 'abc' is not a number`,
      `${trace}:4:1: timestamp 'foo' is not a date-time like 2023-11-16 18:15:46.68`,
      `${trace}:5:24: expected at least 3 fields, got 2`,
      `${trace}:6:21: unterminated quoted field`,
    ]);
  });

  it('a file that cannot be read is at 1:1, like a scenario that cannot be read', async () => {
    const missing = join(dir, 'none.jsonl');
    const { code, lines } = await replay(missing);
    expect(code).toBe(1);
    expect(lines).toEqual([`${missing}:1:1: cannot read the trace file: no such file`]);
  });
});

describe('run --replay on a scenario whose trace.format is fixed', () => {
  // README's fourth command line replays a file on trace-synthetic-chat.yaml, whose trace section
  // says `format: mooncake`: an Azure CSV was read as JSON lines and every line failed with a JSON
  // error, nothing saying that the scenario chose the format or how to choose another (#tryout)
  const shipped = join(import.meta.dirname, '../../../scenarios/trace-synthetic-chat.yaml');
  const csv = join(dir, 'azure.csv');
  writeFileSync(csv, 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.68,100,5\n');

  it('says, at trace.format, that the file was read in that format and what to add', async () => {
    const io = memoryIO();
    expect(await runCommand([shipped, '--replay', csv], io)).toBe(1);
    const lines = io.stderr.join('\n').split('\n');
    expect(lines[0]).toMatch(/azure\.csv:1:1: not a JSON object/);
    expect(lines.at(-1)).toMatch(
      /trace-synthetic-chat\.yaml:\d+:\d+: --replay reads .*azure\.csv as mooncake, the format this scenario's trace\.format names; if the file has another layout, add --set trace\.format=auto/,
    );
    for (const line of lines) expect(line).toMatch(/^[^:]+:\d+:\d+: /);
  });

  it('with the suggested --set the same file replays', async () => {
    const io = memoryIO();
    expect(await runCommand([shipped, '--replay', csv, '--set', 'trace.format=auto', '--json'], io)).toBe(0);
    expect(JSON.parse(io.stdout.join('')).requests.injected).toBe(1);
  });

  it('a Mooncake file with a bad row further down gets no format hint', async () => {
    const jsonl = join(dir, 'later.jsonl');
    writeFileSync(
      jsonl,
      '{"timestamp": 0, "input_length": 10, "output_length": 1}\n{"timestamp": 1, "input_length": 0, "output_length": 1}\n',
    );
    const io = memoryIO();
    expect(await runCommand([shipped, '--replay', jsonl], io)).toBe(1);
    expect(io.stderr.join('\n')).toBe(`${jsonl}:2:34: "input_length" must be ≥ 1, got 0`);
  });
});
