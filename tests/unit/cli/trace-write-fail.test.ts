/**
 * `run --trace` onto a disk that fills during the run (`--trace /dev/full` shows it on Linux): the
 * write failed inside the run and the command ended as an internal error (exit 2). It now stops the
 * run and says what to change, exit 1, with nothing on stdout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';
import { SCENARIO_DIR } from '../shipped-scenarios';

describe('run --trace when the disk is full', () => {
  it('stops with a message naming the file and the cause, exit 1', async () => {
    const files: Record<string, string> = {
      's.yaml': readFileSync(join(SCENARIO_DIR, 'default.yaml'), 'utf8'),
    };
    const io = memoryIO(files);
    const write = io.writeFile;
    // the check before the run creates the file empty; the first part of the trace finds no room
    io.writeFile = (p, d) => {
      if (p === 't.jsonl' && d !== '')
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      write(p, d);
    };
    const code = await runCommand(['s.yaml', '--trace', 't.jsonl', '--set', 'duration_s=5'], io);
    expect(io.stderr.join('\n')).toMatch(
      /^--trace t\.jsonl: the disk is full: free some space, or name a file on another disk/,
    );
    expect(code).toBe(1);
    expect(io.stdout).toEqual([]);
  });
});
