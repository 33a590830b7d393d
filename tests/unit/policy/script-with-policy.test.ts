/**
 * A DRR script run with the playground's policy in place of its own (scriptWithPolicy): its ops'
 * class names are checked against the policy it will run with. They were checked against the
 * script's own policy, so a class only the Policy tab has was refused, and one only the script's
 * own policy had was accepted and then ran against a policy without it.
 */
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../../src/format/yaml';
import { scriptWithPolicy } from '../../../src/policy';

const script = `policy:
  policy_classes:
    - {name: A, quantum: 10}
    - {name: B, quantum: 10}
ops:
  - enqueue: {id: a0, class: A, cost: 3}
  - enqueue: {id: c0, class: C, cost: 3}
  - pop: {count: 2}
`;
const withC = `policy_classes:
  - {name: A, quantum: 10}
  - {name: C, quantum: 5}
`;
const withoutA = `policy_classes:
  - {name: B, quantum: 10}
  - {name: C, quantum: 5}
`;

function run(policyText?: string) {
  const parsed = parseYaml(script);
  if (!parsed.ok) throw new Error('test script does not parse');
  return scriptWithPolicy(parsed.value, policyText);
}

describe("a script run with the Policy tab's policy", () => {
  it("accepts an op's class that only the Policy tab's policy has", () => {
    const res = run(withC);
    expect(res.ok ? res.value.policy?.root?.classes.map((c) => c.name) : res.problems).toEqual(['A', 'C']);
  });

  it("refuses an op's class that the Policy tab's policy lacks, at the op", () => {
    const res = run(withoutA);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.source).toBe('scenario');
    expect(res.problems.map((p) => `${p.line}: ${p.message}`).join('\n')).toMatch(/^6: .*\bA\b/);
  });

  it("without a Policy tab's policy, the script's own policy decides (C is unknown there)", () => {
    const res = run('   ');
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.problems.map((p) => p.line)).toEqual([7]);
  });
});
