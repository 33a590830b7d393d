/** (d) Random mutations of valid files never make the parsers throw: only positioned problems come out. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runScript, totalSteps } from '../../../src/core/drr';
import { parseYaml } from '../../../src/format/yaml';
import { parsePolicyValue, validatePolicyText, validateScriptText } from '../../../src/policy';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const seeds = [
  'dynamo-sample-policy.yaml',
  'drr-burst.yaml',
  'drr-sample-policy.yaml',
  'drr-blocked-class.yaml',
].map((f) => readFileSync(path.join(repoRoot, 'scenarios', f), 'utf8'));

const ALPHABET = [
  ':',
  '-',
  ' ',
  '{',
  '}',
  '[',
  ']',
  '&a ',
  '*a',
  '\n',
  '\t',
  '"',
  "'",
  '#',
  '!',
  '|',
  '>',
  '%',
  '@',
  '`',
  '0',
  '-1',
  '1e400',
  'x',
  '~',
  'null',
  ',',
  '? ',
  '<<: ',
  '.inf',
];

type Mutation =
  | { kind: 'delete'; at: number; len: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'dupLine'; line: number }
  | { kind: 'dropLine'; line: number }
  | { kind: 'swapLines'; a: number; b: number }
  | { kind: 'number'; at: number; value: string };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...ALPHABET) }),
  fc.record({ kind: fc.constant('dupLine' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('dropLine' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('swapLines' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({
    kind: fc.constant('number' as const),
    at: fc.nat(),
    value: fc.constantFrom('0', '-5', '1.5', '99999999999999999999', 'abc', '[]', '{}', '""', '0.0', '.nan'),
  }),
);

function apply(text: string, m: Mutation): string {
  const lines = text.split('\n');
  switch (m.kind) {
    case 'delete': {
      const at = m.at % Math.max(1, text.length);
      return text.slice(0, at) + text.slice(at + m.len);
    }
    case 'insert': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'dupLine': {
      const i = m.line % lines.length;
      lines.splice(i, 0, lines[i]);
      return lines.join('\n');
    }
    case 'dropLine':
      lines.splice(m.line % lines.length, 1);
      return lines.join('\n');
    case 'swapLines': {
      const a = m.a % lines.length;
      const b = m.b % lines.length;
      [lines[a], lines[b]] = [lines[b], lines[a]];
      return lines.join('\n');
    }
    case 'number': {
      // replace the value after the n-th ': '
      const parts = text.split(': ');
      if (parts.length < 2) return text;
      const i = 1 + (m.at % (parts.length - 1));
      parts[i] = parts[i].replace(/^[^,}\n]*/, m.value);
      return parts.join(': ');
    }
  }
}

function expectPositioned(res: {
  ok: boolean;
  problems?: { line: number; col: number; message: string }[];
}): void {
  if (res.ok) return;
  expect(res.problems?.length).toBeGreaterThan(0);
  for (const p of res.problems ?? []) {
    expect(Number.isInteger(p.line) && p.line >= 1).toBe(true);
    expect(Number.isInteger(p.col) && p.col >= 1).toBe(true);
    expect(typeof p.message).toBe('string');
    expect(p.message.length).toBeGreaterThan(0);
  }
}

describe('(d) mutated YAML gives positioned problems, never exceptions', () => {
  it('policy and script parsers survive random mutations', () => {
    let rejected = 0;
    fc.assert(
      fc.property(
        fc.nat(seeds.length - 1),
        fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
        (s, muts) => {
          const text = muts.reduce(apply, seeds[s]);
          const a = validatePolicyText(text);
          const b = validateScriptText(text);
          expectPositioned(a);
          expectPositioned(b);
          if (b.ok) {
            // a mutated script that still validates must run to the end, one line per step
            const lines = runScript(b.value);
            expect(lines.length).toBe(totalSteps(b.value.ops));
          }
          const own = s === 0 ? a : b; // the validator of the seed's own kind
          if (!own.ok) rejected++;
          const parsed = parseYaml(text);
          if (parsed.ok) expectPositioned(parsePolicyValue(parsed.value, ['policy']));
        },
      ),
      { numRuns: 400 },
    );
    // the mutations must actually break things, or the test proves nothing
    expect(rejected).toBeGreaterThan(80);
    // ~20 s alone on the shared 2-core box; the default 30 s timed out under a full parallel run
  }, 90_000);
});
