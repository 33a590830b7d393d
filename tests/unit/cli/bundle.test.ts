/**
 * The CLI bundle (#12.8) runs the same code as the sources: a run through `dist-cli/fairground.mjs`
 * (rebuilt first when stale) prints the same JSON as the in-process command, wall time aside, and
 * validate's exit codes and messages are the same.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';
// @ts-expect-error: a plain .mjs helper without type declarations
import { ensureCliBundle } from '../../../scripts/cli-bundle.mjs';

describe('the CLI bundle', () => {
  it('gives the sources’ run result, and their exit codes', async () => {
    const bundle: string = await ensureCliBundle();
    const p = spawnSync(process.execPath, [bundle, 'run', 'bench/cold-start.yaml', '--json'], {
      encoding: 'utf8',
    });
    expect(p.stderr).toBe('');
    expect(p.status).toBe(0);
    const io = memoryIO();
    expect(await runCommand(['bench/cold-start.yaml', '--json'], io)).toBe(0);
    const strip = (s: string) => ({ ...JSON.parse(s), wall_time_s: 0 });
    expect(strip(p.stdout)).toEqual(strip(io.stdout.join('')));

    const bad = spawnSync(process.execPath, [bundle, 'validate', '/dev/zero'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe('/dev/zero:1:1: cannot read the file: it is a device, not a regular file\n');
  }, 120_000);
});
