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
      `${trace}:4:58: not a JSON object: Unexpected non-whitespace character after the JSON object`,
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
