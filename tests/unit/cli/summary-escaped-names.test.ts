/**
 * The run summary's tables are padded to the widest name. The command line writes control
 * characters as `\u001b`-style escapes (terminalSafe): a client named in a trace's client column as
 * `ev ESC [2J il BEL` is ten characters wider on the terminal than in the file, and the table,
 * measuring the raw name, came out misaligned. The tables measure names as they are written.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryIO, terminalSafe } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';
import { formatClasses } from '../../../src/cli/run-summary';

const dir = mkdtempSync(join(tmpdir(), 'fairground-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `run` on a CSV trace whose client column holds `names` in turn; the summary as a terminal shows it. */
async function runTrace(names: string[]): Promise<string[]> {
  const rows = ['ts,in,out,who'];
  for (let i = 0; i < 30; i++) rows.push(`${i * 0.5},200,20,${names[i % names.length]}`);
  writeFileSync(join(dir, 't.csv'), rows.join('\n'));
  writeFileSync(
    join(dir, 's.yaml'),
    [
      'version: 1',
      'name: escaped names',
      'seed: 1',
      'duration_s: 20',
      'cluster: { workers: 1, gpu: a100-80gb, model: llama-3.1-8b }',
      'trace:',
      '  file: t.csv',
      '  columns: { timestamp: ts, input: in, output: out, client: who }',
      '',
    ].join('\n'),
  );
  const io = memoryIO();
  expect(await runCommand([join(dir, 's.yaml')], io)).toBe(0);
  // what processIO writes: the text through terminalSafe
  return terminalSafe(io.stdout.join('')).split('\n');
}

/** The client table: header, rule, rows. */
function clientTable(lines: string[]): string[] {
  const head = lines.findIndex((l) => l.startsWith('client '));
  const end = lines.findIndex((l) => l.startsWith('(latencies'));
  expect(head).toBeGreaterThan(0);
  return lines.slice(head, end);
}

/** Where each cell ends (cells are parted by two or more spaces). */
const ends = (line: string): number[] =>
  [...line.matchAll(/\S+(?: \S+)*/g)].map((m) => m.index + m[0].length);

describe('run summary: names written with \\u escapes', () => {
  it("keeps the client table's columns aligned when a client name holds control characters", async () => {
    const [head, rule, ...rows] = clientTable(await runTrace(['alice', 'ev\u001b[2Jil\u0007', 'bob']));
    expect(rows.map((r) => r.split('  ')[0].trimEnd())).toEqual(['alice', 'ev\\u001b[2Jil\\u0007', 'bob']);
    const want = ends(head).slice(1); // the right-aligned columns end where their headings end
    for (const row of rows) expect(ends(row).slice(1)).toEqual(want);
    expect(rule.split('  ')[0]).toBe('-'.repeat('ev\\u001b[2Jil\\u0007'.length));
  });

  it('measures a name already written as escapes as it is (no second escaping)', async () => {
    const [head, rule, ...rows] = clientTable(await runTrace(['alice', 'b\\u001bob']));
    expect(rows.map((r) => r.split('  ')[0].trimEnd())).toEqual(['alice', 'b\\u001bob']);
    const want = ends(head).slice(1);
    for (const row of rows) expect(ends(row).slice(1)).toEqual(want);
    expect(rule.split('  ')[0]).toBe('-'.repeat('b\\u001bob'.length));
  });

  it("keeps the class table's columns aligned too", () => {
    const cls = (quantum: number) => ({
      quantum,
      served_uncached_tokens: 100,
      share: 0.5,
      quantum_share: 0.5,
      contended_share: null,
      contended_quantum_share: null,
      dispatched: 1,
      rejected: 0,
      shed: 0,
      queued: 0,
      p99_queue_wait_s: 0.1,
    });
    const lines = terminalSafe(
      formatClasses({ classes: { a: cls(512), 'b\u001b[31m': cls(2048) } as never }).join('\n'),
    ).split('\n');
    const [, head, , ...rows] = lines;
    const want = ends(head).slice(1);
    for (const row of rows.slice(0, 2)) expect(ends(row).slice(1)).toEqual(want);
  });
});
