/**
 * Hand-derived vectors for exact-worker lanes, due_at deadlines and credit above 2^53
 * (tests/golden/drr-lanes-deadlines-u64.yaml) through the library and the CLI in-process. Deficits
 * are compared as decimal text, so a value above 2^53 must match in every digit.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { arbitrateCommand } from '../../../src/cli/arbitrate';
import { memoryIO } from '../../../src/cli/io';
import { outputLineJson, runScript } from '../../../src/core/drr';
import { parseYaml } from '../../../src/format/yaml';
import { parseScriptValue } from '../../../src/policy';
import { repoRoot } from './helpers';

const FILE = path.join(repoRoot, 'tests/golden/drr-lanes-deadlines-u64.yaml');
const text = readFileSync(FILE, 'utf8');
const parsed = parseYaml(text);
if (!parsed.ok) throw new Error('golden file does not parse');

interface Expect {
  id: string | null;
  deficits: Record<string, number | bigint>;
  expired?: { id: string; class: string; overdue_ms: number }[];
}
const cases = (parsed.value.value as { cases: { name: string; expect_pops: Expect[] }[] }).cases;

/** JSON lines -> pops with deficits as decimal text (big integers quoted before JSON.parse). */
function pops(lines: string[]) {
  return lines
    .map((l) => JSON.parse(l.replace(/:(\d{16,})/g, ':"$1"')))
    .filter((o) => o.op === 'pop')
    .map((o) => {
      const out: { id: string | null; deficits: Record<string, string>; expired?: unknown } = {
        id: o.id,
        deficits: Object.fromEntries(Object.entries(o.deficits).map(([k, v]) => [k, String(v)])),
      };
      if (o.expired) out.expired = o.expired;
      return out;
    });
}

function expected(e: Expect[]) {
  return e.map((p) => {
    const out: { id: string | null; deficits: Record<string, string>; expired?: unknown } = {
      id: p.id,
      deficits: Object.fromEntries(Object.entries(p.deficits).map(([k, v]) => [k, String(v)])),
    };
    if (p.expired) out.expired = p.expired;
    return out;
  });
}

/** One case's script as its own YAML document (cut from the file, re-indented). */
function scriptText(i: number): string {
  const ok = parsed.ok ? parsed.value : null;
  if (!ok) throw new Error('unreachable');
  const start = ok.locate(['cases', i, 'script']).line;
  const end = i + 1 < cases.length ? ok.locate(['cases', i + 1]).line : text.split('\n').length + 1;
  const lines = text.split('\n').slice(start - 1, end - 1);
  const stop = lines.findIndex((l, k) => k > 0 && /^ {4}expect_pops:/.test(l));
  return lines
    .slice(0, stop)
    .map((l) => l.slice(6))
    .join('\n');
}

describe('golden vectors of later releases (lanes, due_at, u64 credit)', () => {
  cases.forEach((c, i) => {
    it(`library: ${c.name}`, () => {
      const doc = parseYaml(scriptText(i));
      if (!doc.ok) throw new Error(JSON.stringify(doc.problems));
      const res = parseScriptValue(doc.value);
      if (!res.ok) throw new Error(JSON.stringify(res.problems));
      expect(pops(runScript(res.value).map(outputLineJson))).toEqual(expected(c.expect_pops));
    });
    it(`CLI in-process: ${c.name}`, async () => {
      const io = memoryIO({ 'case.yaml': scriptText(i) });
      const code = await arbitrateCommand(['case.yaml'], io);
      expect(io.stderr).toEqual([]);
      expect(code).toBe(0);
      expect(pops(io.stdout.join('\n').split('\n'))).toEqual(expected(c.expect_pops));
    });
  });
});
