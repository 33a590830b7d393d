/** Files are read with limits first (#15.2): devices, pipes, directories and oversized files get a located error fast. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { FILE_LIMITS, readTextLimited } from '../../../src/cli/read-limited';
import { runCommand } from '../../../src/cli/run';
import { streamTraceFile } from '../../../src/cli/trace-file';
import { validateCommand } from '../../../src/cli/validate';
import { MAX_TRACE_LINE_CHARS, TraceReader } from '../../../src/format/trace/reader';

const dir = mkdtempSync(join(tmpdir(), 'fg-read-'));
const scenarioWith = (policyFile: string) =>
  [
    'version: 1',
    'name: z',
    'duration_s: 10',
    'cluster: {workers: 1, gpu: a10g-24gb, model: llama-3.1-8b}',
    `router: {routing: round-robin, policy_file: ${policyFile}}`,
    'scheduler: {policy: fcfs}',
    'clients:',
    '  - name: a',
    '    arrival: { process: poisson, rate: 1 }',
    '    program: { type: single, prompt_tokens: 16, output_tokens: 16 }',
    '',
  ].join('\n');

describe('readTextLimited', () => {
  it('reads a regular file', () => {
    const p = join(dir, 'ok.yaml');
    writeFileSync(p, 'a: 1\n');
    expect(readTextLimited(p)).toBe('a: 1\n');
  });

  it('refuses a device, a directory and a missing file with a reason', () => {
    expect(() => readTextLimited('/dev/zero')).toThrow('it is a device, not a regular file');
    expect(() => readTextLimited(dir)).toThrow('it is a directory, not a regular file');
    expect(() => readTextLimited(join(dir, 'nope'))).toThrow('no such file');
  });

  it('refuses a pipe without blocking on it', () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(() => readTextLimited(fifo)).toThrow('it is a pipe, not a regular file');
  });

  it('refuses an oversized (sparse, 5 GB) file before reading it', () => {
    const big = join(dir, 'big.yaml');
    writeFileSync(big, '');
    truncateSync(big, 5e9);
    const t0 = performance.now();
    expect(() => readTextLimited(big)).toThrow(
      `it is 5000 MB; the limit is ${(FILE_LIMITS.textBytes / 1e6).toFixed(1)} MB`,
    );
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(() => readTextLimited(join(dir, 'ok.yaml'), 2)).toThrow('the limit is');
  });
});

describe('a referenced policy_file is read with limits', () => {
  it('/dev/zero as policy_file: a located error, fast', async () => {
    const p = join(dir, 's.yaml');
    writeFileSync(p, scenarioWith('/dev/zero'));
    const io = memoryIO();
    expect(await validateCommand([p], io)).toBe(1);
    expect(io.stderr.join('\n')).toContain(
      `${p}:5:45: cannot read policy_file '/dev/zero': it is a device, not a regular file`,
    );
  });

  it('/dev/zero as an arbitration script policy_file: a located error', async () => {
    const p = join(dir, 'script.yaml');
    writeFileSync(p, 'policy_file: /dev/zero\nops:\n  - pop: {}\n');
    const io = memoryIO();
    expect(await validateCommand([p], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(
      /script\.yaml:1:14: cannot read policy_file '\/dev\/zero'.*a device/,
    );
  });
});

// A scenario replaying `file` (a trace client would read it the same way).
const traceScenario = (file: string) =>
  [
    'version: 1',
    'name: t',
    'duration_s: 10',
    'cluster: {workers: 1, gpu: a10g-24gb, model: llama-3.1-8b}',
    'scheduler: {policy: fcfs}',
    'trace:',
    `  file: ${file}`,
    '  format: mooncake',
    'clients: []',
    '',
  ].join('\n');

describe('trace files are read with limits first (#15 re-check)', () => {
  // Before: `run` opened a trace file without a check. A pipe blocked it forever, /dev/zero and a
  // sparse 2 GB file were read to the end as one line (a 200 MB file of NULs: 3.6 GB and > 60 s),
  // and `validate` read traces with the 4 MB YAML cap, refusing traces `run` accepts.
  const fifo = join(dir, 'trace-fifo');
  execFileSync('mkfifo', [fifo]);
  const sparse = join(dir, 'sparse.jsonl');
  writeFileSync(sparse, '');
  truncateSync(sparse, 2 ** 31);
  const nuls = join(dir, 'nuls.jsonl');
  writeFileSync(nuls, '');
  truncateSync(nuls, 3e6);

  it('streamTraceFile refuses a pipe, a device, a directory and a file over the trace cap, by name', () => {
    // line 0: the file as a whole (it printed a line 1 that nothing was read from)
    const why = (p: string, shownAs = p) => {
      const r = streamTraceFile(p, shownAs, {});
      return r.ok ? 'read' : r.problems.map((q) => `${q.line}: ${q.message}`).join('\n');
    };
    expect(why(fifo)).toBe('0: cannot read the trace file: it is a pipe, not a regular file');
    expect(why('/dev/zero')).toBe('0: cannot read the trace file: it is a device, not a regular file');
    expect(why(dir)).toBe('0: cannot read the trace file: it is a directory, not a regular file');
    expect(why(sparse)).toBe(
      `0: cannot read the trace file: it is 2147 MB; the limit is ${FILE_LIMITS.traceBytes / 1e6} MB`,
    );
    expect(why(join(dir, 'none.jsonl'))).toBe('0: cannot read the trace file: no such file');
    // a name relative to the scenario says where it was looked for
    expect(why(join(dir, 'none.jsonl'), 'none.jsonl')).toBe(
      `0: cannot read the trace file (looked for ${join(dir, 'none.jsonl')}: a relative path is read from the scenario's folder): no such file`,
    );
  });

  it('a file of NULs within the cap is one over-long line: refused, and reading stops there', () => {
    const r = streamTraceFile(nuls, 'nuls.jsonl', {});
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.problems).toEqual([
        {
          line: 1,
          col: 1,
          message: `a line longer than ${MAX_TRACE_LINE_CHARS.toLocaleString('en')} characters: is this a trace (Mooncake JSONL, Azure or BurstGPT CSV)?`,
        },
      ]);
    const reader = new TraceReader('x', {});
    const mb = '\0'.repeat(600_000);
    reader.push(mb);
    expect(reader.stopped).toBe(false);
    reader.push(mb);
    expect(reader.stopped).toBe(true);
    reader.push(mb); // ignored: nothing more is gathered
    expect(reader.end().ok).toBe(false);
  });

  it('validate and run give the same located message for each, and neither hangs', async () => {
    for (const [file, reason] of [
      [fifo, 'it is a pipe, not a regular file'],
      ['/dev/zero', 'it is a device, not a regular file'],
      [sparse, 'it is 2147 MB; the limit is 256 MB'],
      [nuls, 'a line longer than'],
    ]) {
      const p = join(dir, 'replay.yaml');
      writeFileSync(p, traceScenario(file));
      for (const command of [validateCommand, runCommand]) {
        const io = memoryIO();
        expect(await command([p], io)).toBe(1);
        // at its place in the trace (the file as a whole, or its over-long first line, is 1:1), then
        // where the scenario names it: one location each
        const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        expect(io.stderr.join('\n')).toMatch(
          new RegExp(`^${esc(file)}:1:1: .*${reason}.* \\(trace\\.file at ${esc(p)}:7:9\\)$`),
        );
      }
      const io = memoryIO();
      expect(
        await runCommand(
          [join(import.meta.dirname, '../../../scenarios/default.yaml'), '--replay', file],
          io,
        ),
      ).toBe(1);
      expect(io.stderr.join('\n')).toContain(reason);
    }
  });

  it('validate accepts a trace over the 4 MB YAML cap, as run does', async () => {
    const big = join(dir, 'big.jsonl');
    const line = (i: number) =>
      `${JSON.stringify({ timestamp: i, input_length: 600, output_length: 20, hash_ids: [i % 97, 1000 + (i % 13)] })}\n`;
    const lines: string[] = [];
    for (let i = 0, n = 0; n <= FILE_LIMITS.textBytes + 1000; i++) {
      lines.push(line(i));
      n += lines[lines.length - 1].length;
    }
    writeFileSync(big, lines.join(''));
    const p = join(dir, 'big.yaml');
    writeFileSync(p, traceScenario(big).replace('  format: mooncake', '  format: mooncake\n  stop_s: 1'));
    const io = memoryIO();
    expect(await validateCommand([p], io)).toBe(0);
    expect(io.stderr).toEqual([]);
  });
});
