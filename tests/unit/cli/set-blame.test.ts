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

describe('overrides that add or address list entries (new-user tryout)', () => {
  it('an index past the end is refused with the count, instead of padding the list with empty entries', async () => {
    // it used to fill clients[3] to [8] with nulls and crash validation ("internal error", exit 2)
    const { code, err } = await runErr('--set', 'clients[9].arrival.rate=1');
    expect(code).toBe(1);
    expect(err).toBe(
      '--set clients[9].arrival.rate: no entry [9] in clients (it has 3, [0] to [2]; [3] adds one)',
    );
    expect((await runErr('--set', 'router.policy.policy_classes[9].quantum=5')).err).toMatch(
      /^--set router\.policy\.policy_classes\[9\]\.quantum: no entry \[9\] in router\.policy\.policy_classes /,
    );
  });

  it('a client set to null is a type problem of the override, not a crash', async () => {
    const { code, err } = await runErr('--set', 'clients.alice=null');
    expect(code).toBe(1);
    expect(err).toBe(
      '--set clients.alice=null:15: expected a mapping (key: value lines), got an empty value (null)',
    );
  });

  it("an entry the override adds is the override's: its missing keys are not blamed on a line of the file", async () => {
    const { err } = await runErr('--set', 'clients[3].name=x');
    expect(err.split('\n')).toEqual([
      "--set clients[3].name=x:17: missing required key 'arrival'",
      "--set clients[3].name=x:17: missing required key 'program'",
    ]);
    // a whole new entry runs
    const io = memoryIO();
    const add =
      'clients[3]={name: zed, arrival: {process: poisson, rate: 1}, program: {type: single, prompt_tokens: 10, output_tokens: 5}}';
    expect(await runCommand([scenario, '--json', '--set', add, 'duration_s=5'], io)).toBe(0);
    expect(Object.keys(JSON.parse(io.stdout.join('')).clients)).toContain('zed');
  });

  it('an unknown key under a client named in the path points at that key', async () => {
    expect((await runErr('--set', 'clients.alice.arival.rate=2')).err).toMatch(
      /^--set clients\.alice\.arival\.rate=2:15: unknown key 'arival'/,
    );
  });

  it('integers are read exactly, as in the file: a quantum of 2^64 - 2 is accepted', async () => {
    const io = memoryIO();
    const set = 'router.policy.policy_classes[0].quantum=18446744073709551614';
    expect(await runCommand([scenario, '--json', '--set', set, 'duration_s=2'], io)).toBe(0);
    // the run JSON keeps the digits a JSON number cannot hold
    const row = JSON.parse(io.stdout.join('')).classes.interactive_cached;
    expect(row.quantum_exact).toBe('18446744073709551614');
    expect(
      (await runErr('--set', 'router.policy.policy_classes[0].quantum=18446744073709551616')).err,
    ).toMatch(/quantum must be ≤ 18446744073709551615/);
  });
});

describe('--trace names a file that can be written, checked before the run (new-user tryout)', () => {
  it('a missing folder, a folder, or an input of the run: exit 1 with what to change, no internal error', async () => {
    const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'fg-trace-'));
    const own = join(dir, 'own.yaml');
    const text = readFileSync(scenario, 'utf8');
    writeFileSync(own, text);
    const run = async (...args: string[]) => {
      // files written to the disk, as the command line writes them
      const io = { ...memoryIO(), writeFile: (p: string, d: string) => writeFileSync(p, d) };
      const code = await runCommand(args, io);
      return { code, err: io.stderr.join('\n') };
    };
    const missing = await run(own, '--trace', join(dir, 'nodir', 'x.jsonl'));
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^--trace .*nodir.x\.jsonl: its folder .* does not exist: create it first/);
    const folder = await run(own, '--trace', dir);
    expect(folder.code).toBe(1);
    expect(folder.err).toMatch(/: it is a folder: name a file in it, e\.g\. --trace .*trace\.jsonl$/);
    const self = await run(own, '--trace', own);
    expect(self.code).toBe(1);
    expect(self.err).toMatch(/: that is an input of this run/);
    // the scenario is untouched, and a good path is written
    expect(readFileSync(own, 'utf8')).toBe(text);
    const good = await run(own, '--set', 'duration_s=1', '--trace', join(dir, 'out.jsonl'));
    expect(good.code).toBe(0);
    expect(readFileSync(join(dir, 'out.jsonl'), 'utf8').split('\n').length).toBeGreaterThan(10);
  });
});
