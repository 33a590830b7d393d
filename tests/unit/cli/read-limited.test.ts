/** Files are read with limits first (#15.2): devices, pipes, directories and oversized files get a located error fast. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { FILE_LIMITS, readTextLimited } from '../../../src/cli/read-limited';
import { validateCommand } from '../../../src/cli/validate';

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
