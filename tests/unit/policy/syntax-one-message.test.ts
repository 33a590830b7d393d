/**
 * One YAML syntax slip gives one message (the yaml package reports a cascade of follow-on errors for
 * a line indented one space too little: 13 for line 28 of the sample policy). The editor shows the
 * same list as the CLI, so this holds for both.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../../src/format/yaml';
import { validatePolicyText } from '../../../src/policy';

const sample = readFileSync(
  path.resolve(import.meta.dirname, '../../../scenarios/dynamo-sample-policy.yaml'),
  'utf8',
).split('\n');

describe('a YAML syntax error is one message', () => {
  it('every one-space indentation slip of the sample policy yields exactly one problem, at or next to its line', () => {
    let slips = 0;
    sample.forEach((line, i) => {
      if (!/^ {3,}\S/.test(line)) return;
      for (const changed of [line.slice(1), ` ${line}`]) {
        const lines = [...sample];
        lines[i] = changed;
        const text2 = lines.join('\n');
        // Slips that still parse change the structure instead (reported by the schema, elsewhere).
        if (parseYaml(text2).ok) continue;
        const res = validatePolicyText(text2);
        if (res.ok) throw new Error('a syntax error must fail validation');
        slips++;
        expect(res.problems).toHaveLength(1);
        expect(res.problems[0].line).toBeLessThanOrEqual(i + 2);
        expect(res.problems[0].line).toBeGreaterThanOrEqual(i);
      }
    });
    expect(slips).toBeGreaterThan(10);
  });

  it('the message says what to check', () => {
    const lines = [...sample];
    const i = lines.findIndex((l) => /^ {4}\S/.test(l) && lines.indexOf(l) > 20);
    lines[i] = lines[i].slice(1);
    const res = validatePolicyText(lines.join('\n'));
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.problems[0].message).toMatch(/indentation/);
  });
});
