import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';
import { detectKind, validateCommand } from '../../../src/cli/validate';

const root = join(import.meta.dirname, '../../..');

describe('validate', () => {
  it('tells the three kinds of file apart by their keys', () => {
    expect(detectKind({ ops: [] })).toBe('script');
    expect(detectKind({ version: 1, cluster: {}, clients: [] })).toBe('scenario');
    expect(detectKind({ policy_classes: [] })).toBe('policy');
    expect(detectKind({ models: {} })).toBe('policy');
    expect(detectKind({ hello: 1 })).toBeNull();
  });

  it('accepts every shipped scenario, script and policy', async () => {
    const files = readdirSync(join(root, 'scenarios'))
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => join(root, 'scenarios', f));
    const io = memoryIO();
    const code = await validateCommand(files, io);
    expect(io.stderr).toEqual([]);
    expect(code).toBe(0);
    expect(io.stdout).toEqual(files.map((f) => `ok: ${f}`));
  });

  it('reports every problem of every file as file:line:col and exits 1', async () => {
    const io = memoryIO({
      'typo.yaml': 'policy_classes:\n  - {name: a, quantum: 2}\n  - {name: b, quantm: 3}\n',
      'zero.yaml': 'ops: []\npolicy:\n  policy_classes: [{name: A, quantum: 0}]\n',
      'what.yaml': 'hello: 1\n',
      'syntax.yaml': 'ops: [\n',
      't.yaml': 'policy_classes:\n  - {name: a, quantum: 2\n',
    });
    const code = await validateCommand(
      ['typo.yaml', 'zero.yaml', 'what.yaml', 'syntax.yaml', 't.yaml', 'missing.yaml'],
      io,
    );
    expect(code).toBe(1);
    const err = io.stderr.join('\n');
    expect(err).toMatch(/^typo\.yaml:3:\d+: .*unknown key 'quantm' \(did you mean 'quantum'\?\)/m);
    expect(err).toMatch(/^zero\.yaml:3:\d+: .*quantum/m);
    expect(err).toMatch(/^what\.yaml:1:1: cannot tell what kind of file this is/m);
    // an unclosed `[` is reported at the `[` (#14), not past the end of the file
    expect(err).toMatch(/^syntax\.yaml:1:6: this `\[` is never closed/m);
    expect(err).toMatch(/^t\.yaml:2:5: this `\{` is never closed/m);
    expect(err).toMatch(/^missing\.yaml:1:1: cannot read the file/m);
    expect(io.stdout).toEqual([]);
  });

  it('an unclosed quote is reported at the opening quote by validate and run (#15 leftover)', async () => {
    // before: 'q.yaml:5:1: Missing closing "quote', one line past the end of the file
    const scenario = readFileSync(join(root, 'scenarios/default.yaml'), 'utf8');
    const io = memoryIO({
      'q.yaml': 'policy_classes:\n  - name: "a\n    quantum: 2\n  - {name: b, quantum: 3}\n',
      's.yaml': "ops:\n  - {op: enqueue, id: 'a0, class: A}\n",
      'scen.yaml': scenario.replace(/^name: .*$/m, 'name: "default'),
    });
    expect(await validateCommand(['q.yaml', 's.yaml', 'scen.yaml'], io)).toBe(1);
    const line = scenario.split('\n').findIndex((l) => l.startsWith('name: ')) + 1;
    expect(io.stderr).toEqual([
      'q.yaml:2:11: unclosed quote: this `"` is never closed (end the text with `"`; a `"` inside the text is written `\\"`)',
      "s.yaml:2:23: unclosed quote: this `'` is never closed (end the text with `'`; a `'` inside the text is written `''`)",
      `scen.yaml:${line}:7: unclosed quote: this \`"\` is never closed (end the text with \`"\`; a \`"\` inside the text is written \`\\"\`)`,
    ]);
    const run = memoryIO({ 'scen.yaml': scenario.replace(/^name: .*$/m, 'name: "default') });
    expect(await runCommand(['scen.yaml'], run)).toBe(1);
    expect(run.stderr.join('\n')).toMatch(new RegExp(`^scen\\.yaml:${line}:7: unclosed quote`));
    const pol = memoryIO({ 'p.yaml': "default_policy_family: 'fam\n" });
    expect(await runCommand([join(root, 'scenarios/default.yaml'), '--policy', 'p.yaml'], pol)).toBe(1);
    expect(pol.stderr.join('\n')).toMatch(/^p\.yaml:1:24: unclosed quote: this `'`/);
  });

  it('asks for a file when given none', async () => {
    const io = memoryIO();
    expect(await validateCommand([], io)).toBe(1);
    expect(io.stderr.join('')).toMatch(/name at least one file/);
  });
});

describe('the sim command line as a process', () => {
  const tsx = join(root, 'node_modules/.bin/tsx');
  const main = join(root, 'src/cli/main.ts');

  it('help prints the usage on stdout and exits 0', () => {
    const out = execFileSync(tsx, [main, 'help'], { encoding: 'utf8' });
    expect(out).toMatch(/run <scenario\.yaml>/);
    expect(out).toMatch(/arbitrate <script\.yaml>/);
    expect(out).toMatch(/validate <file\.yaml>/);
  });

  it('an unknown command exits 1 with a message on stderr and nothing on stdout', () => {
    const r = spawnSync(tsx, [main, 'frobnicate'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
  });

  it('validate exits 1 on a bad file, with no stack trace', () => {
    const r = spawnSync(tsx, [main, 'validate', join(root, 'package.json')], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/package\.json:\d+:\d+: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('did-you-mean hints', () => {
  it('suggest the one close candidate and stay silent on a tie', async () => {
    const { didYouMean } = await import('../../../src/format/yaml');
    expect(didYouMean('quantm', ['name', 'quantum', 'queue_policy'])).toBe('quantum');
    expect(didYouMean('v3', ['v1', 'v2'])).toBeUndefined();
    expect(didYouMean('lcfs', ['fcfs', 'wspt'])).toBe('fcfs');
    expect(didYouMean('zzzzzz', ['fcfs', 'wspt'])).toBeUndefined();
  });

  it('every format gets enum hints from the shared issue converter', async () => {
    const io = memoryIO({
      'p.yaml': 'policy_classes:\n  - {name: a, quantum: 2, queue_policy: lcfs}\n',
    });
    expect(await validateCommand(['p.yaml'], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/^p\.yaml:2:\d+: .*lcfs.*|^p\.yaml:2:\d+: .*queue_policy/m);
  });
});
