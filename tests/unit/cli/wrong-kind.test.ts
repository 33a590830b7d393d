import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { arbitrateCommand } from '../../../src/cli/arbitrate';
import { memoryIO } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';

const root = join(import.meta.dirname, '../../..');
const script = join(root, 'scenarios/drr-burst.yaml');
const scenario = join(root, 'scenarios/default.yaml');

describe('a file given to the wrong command (#tryout)', () => {
  it('run on an arbitration script says so and names `arbitrate`, with no scenario-key noise', async () => {
    const io = memoryIO();
    expect(await runCommand([script], io)).toBe(1);
    const err = io.stderr.join('\n');
    expect(err).toBe(
      `${script}:1:1: this is an arbitration script (it has \`ops\`), not a scenario; run it with \`fairground arbitrate ${script}\` (from the repository: \`npm run -s sim -- …\`)`,
    );
    expect(io.stdout).toEqual([]);
  });

  it('arbitrate on a scenario says so and names `run`', async () => {
    const io = memoryIO();
    expect(await arbitrateCommand([scenario], io)).toBe(1);
    const err = io.stderr.join('\n');
    expect(err).toMatch(
      /^.*default\.yaml:1:1: this is a scenario, not an arbitration script; simulate it with `fairground run .*default\.yaml`/,
    );
    expect(err).not.toMatch(/unknown key|missing required key/);
    expect(io.stdout).toEqual([]);
  });

  it('arbitrate on a policy file points to --policy and policy_file', async () => {
    const io = memoryIO({ 'p.yaml': 'policy_classes:\n  - {name: a, quantum: 2}\n' });
    expect(await arbitrateCommand(['p.yaml'], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(
      /^p\.yaml:1:1: this is a router policy file, not an arbitration script; .*--policy p\.yaml.*policy_file/,
    );
  });

  it('files of the right kind and files of no known kind are left to the command', async () => {
    const io = memoryIO({ 'what.yaml': 'hello: 1\n' });
    expect(await arbitrateCommand(['what.yaml'], io)).toBe(1);
    expect(io.stderr.join('\n')).not.toMatch(/this is a/);
    const ok = memoryIO();
    expect(await arbitrateCommand([script], ok)).toBe(0);
    expect(ok.stderr).toEqual([]);
  });
});
