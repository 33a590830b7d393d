import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { HELP } from '../../../src/cli/help';
import { runCommand } from '../../../src/cli/run';

const scenario = join(import.meta.dirname, '../../../scenarios/default.yaml');

async function runErr(...args: string[]): Promise<{ code: number; err: string }> {
  const io = memoryIO();
  const code = await runCommand([scenario, ...args], io);
  expect(io.stdout).toEqual([]);
  return { code, err: io.stderr.join('\n') };
}

describe('a bad value given by --set names the override and the column inside it, not the file (tryout)', () => {
  it('an unknown policy: the override and the suggestion, no file:line:col', async () => {
    const { code, err } = await runErr('--set', 'scheduler.policy=lpmx');
    expect(code).toBe(1);
    expect(err).toMatch(
      /^--set scheduler\.policy=lpmx:18: policy must be one of .*\(did you mean 'lpm'\?\)$/,
    );
    expect(err).not.toContain('default.yaml');
  });

  it('a client named in the key path, and a misspelt key under an overridden mapping', async () => {
    expect((await runErr('--set', 'clients.alice.arrival.rate=-1')).err).toBe(
      '--set clients.alice.arrival.rate=-1:28: rate must be > 0',
    );
    expect((await runErr('--set', 'scheduler.polcy=lpm')).err).toMatch(
      /^--set scheduler\.polcy=lpm:11: unknown key 'polcy' \(did you mean 'policy'\?\)/,
    );
  });

  it('one line per bad override; a key path that names nothing says so without a file position', async () => {
    const { err } = await runErr('--set', 'cluster.workers=0', 'scheduler.policy=x');
    expect(err.split('\n')).toEqual([
      '--set cluster.workers=0:17: workers must be ≥ 1',
      expect.stringMatching(/^--set scheduler\.policy=x:18: policy must be one of /),
    ]);
    expect((await runErr('--set', 'clients.zed.arrival.rate=1')).err).toBe(
      "--set clients.zed.arrival.rate: no entry named 'zed' in clients",
    );
  });

  it('the column points into a flow value at the part that is wrong (a value, or an unknown key)', async () => {
    expect((await runErr('--set', 'cluster.chunking={mode: fixd}')).err).toMatch(
      /^--set cluster\.chunking=\{mode: fixd\}:25: mode must be one of 'fixed', 'dynamic'/,
    );
    expect((await runErr('--set', 'cluster.chunking={mod: fixed}')).err).toMatch(
      /^--set cluster\.chunking=\{mod: fixed\}:19: unknown key 'mod' \(did you mean 'mode'\?\)/,
    );
    // blanks after '=' are skipped: the column is the value's first character
    expect((await runErr('--set', 'cluster.workers= 0')).err).toBe(
      '--set cluster.workers= 0:18: workers must be ≥ 1',
    );
  });

  it('help documents the form', () => {
    expect(HELP).toContain('--set k.p=v:COL: message');
  });

  it('a problem elsewhere in the file still blames the file', async () => {
    const io = memoryIO({ 's.yaml': 'version: 1\ncluster: {workers: 0}\nclients: []\n' });
    expect(await runCommand(['s.yaml', '--set', 'duration_s=2'], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/^s\.yaml:2:\d+: cluster\.workers: /m);
  });
});
