/** (d) Random mutations of valid files never make the parsers throw: only positioned problems come out. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runScript, totalSteps } from '../../../src/core/drr';
import { parseYaml } from '../../../src/format/yaml';
import { parsePolicyValue, validatePolicyText, validateScriptText } from '../../../src/policy';
import { applyMutation, FUZZ_TOKENS, mutationArb } from '../../../scripts/fuzz/mutations';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const seeds = [
  'dynamo-sample-policy.yaml',
  'drr-burst.yaml',
  'drr-sample-policy.yaml',
  'drr-blocked-class.yaml',
].map((f) => readFileSync(path.join(repoRoot, 'scenarios', f), 'utf8'));

// the YAML-syntax part of the fuzzer's tokens (the rest target other formats and the fuzzer's judge)
const ALPHABET = FUZZ_TOKENS.slice(0, FUZZ_TOKENS.indexOf('1e-400'));

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
        fc.array(mutationArb(ALPHABET), { minLength: 1, maxLength: 4 }),
        (s, muts) => {
          const text = muts.reduce(applyMutation, seeds[s]);
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
