/**
 * The public DRR vectors (../shared/golden/drr-public.yaml) through the library, the CLI in-process
 * and the CLI as a real subprocess.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { arbitrateCommand } from '../../../src/cli/arbitrate';
import { memoryIO } from '../../../src/cli/io';
import { runScript } from '../../../src/core/drr';
import { validateScriptText } from '../../../src/policy';
import { repoRoot, sharedDir } from './helpers';

interface GoldenCase {
  name: string;
  script: unknown;
  expect_pops: { id: string | null; deficits: Record<string, number> }[];
}

const golden = parse(readFileSync(path.join(sharedDir(), 'golden/drr-public.yaml'), 'utf8')) as {
  cases: GoldenCase[];
};

function popsOfJsonLines(lines: string[]): { id: string | null; deficits: Record<string, number> }[] {
  return lines
    .map((l) => JSON.parse(l))
    .filter((o) => o.op === 'pop')
    .map((o) => ({ id: o.id, deficits: o.deficits }));
}

describe('golden DRR vectors', () => {
  it('has cases to check', () => {
    expect(golden.cases.length).toBeGreaterThanOrEqual(4);
  });

  for (const c of golden.cases) {
    it(`library: ${c.name}`, () => {
      const res = validateScriptText(stringify(c.script));
      if (!res.ok) throw new Error(JSON.stringify(res.problems));
      const pops = runScript(res.value)
        .filter((l) => l.op === 'pop')
        .map((l) => ({
          id: l.id,
          deficits: Object.fromEntries(l.op === 'pop' ? l.deficits.map((d) => [d.class, d.deficit]) : []),
        }));
      expect(pops).toEqual(c.expect_pops);
    });

    it(`CLI in-process: ${c.name}`, async () => {
      const io = memoryIO({ 'case.yaml': stringify(c.script) });
      const code = await arbitrateCommand(['case.yaml'], io);
      expect(io.stderr).toEqual([]);
      expect(code).toBe(0);
      const lines = io.stdout.join('\n').split('\n');
      expect(popsOfJsonLines(lines)).toEqual(c.expect_pops);
      // key order of the contract
      for (const l of lines) {
        const o = JSON.parse(l);
        const keys = Object.keys(o);
        if (o.op === 'enqueue') expect(keys.slice(0, 4)).toEqual(['op', 'id', 'class', 'accepted']);
        else if (o.id === null) expect(keys).toEqual(['op', 'id', 'deficits', 'cursor', 'carry']);
        else expect(keys).toEqual(['op', 'id', 'class', 'cost', 'deficits', 'cursor', 'carry']);
      }
    });
  }

  it('CLI as a subprocess: exit code 0 and the expected stdout', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'drr-golden-'));
    const c = golden.cases[0];
    const file = path.join(dir, 'case.yaml');
    writeFileSync(file, stringify(c.script));
    const out = execFileSync('npx', ['tsx', 'src/cli/main.ts', 'arbitrate', file], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines = out.trim().split('\n');
    expect(popsOfJsonLines(lines)).toEqual(c.expect_pops);
    expect(lines[0]).toBe('{"op":"enqueue","id":"a0","class":"A","accepted":true}');
    expect(lines[8]).toBe(
      '{"op":"pop","id":"a0","class":"A","cost":3,"deficits":{"A":7,"B":0},"cursor":"B","carry":"A"}',
    );
  }, 30_000);

  it('CLI as a subprocess: invalid input exits 1 with file:line:col on stderr', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'drr-bad-'));
    const file = path.join(dir, 'bad.yaml');
    writeFileSync(file, 'policy:\n  policy_classes:\n    - {name: A, quantum: 0}\nops: []\n');
    let code = 0;
    let stderr = '';
    let stdout = '';
    try {
      execFileSync('npx', ['tsx', 'src/cli/main.ts', 'arbitrate', file], {
        cwd: repoRoot,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (e) {
      const err = e as { status: number; stderr: string; stdout: string };
      code = err.status;
      stderr = err.stderr;
      stdout = err.stdout;
    }
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${file}:3:26: policy.policy_classes[0].quantum: quantum must be ≥ 1`);
  }, 30_000);
});
