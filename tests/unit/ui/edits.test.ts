import { describe, expect, it } from 'vitest';
import { extractPolicy, policyOverride } from '../../../src/state/edits';

const script = 'name: s\npolicy:\n  policy_classes:\n    - {name: A, quantum: 10}\nops:\n  - pop: {}\n';
const scenario =
  'version: 1\nname: c\nrouter:\n  routing: round-robin\n  policy:\n    policy_classes:\n      - {name: X, quantum: 5}\n';

describe('policy text of a scenario', () => {
  it("is the script's `policy` or the scenario's `router.policy`, as YAML", () => {
    expect(extractPolicy(script)).toBe('policy_classes:\n  - name: A\n    quantum: 10\n');
    expect(extractPolicy(scenario)).toBe('policy_classes:\n  - name: X\n    quantum: 5\n');
  });
  it('is empty when there is none or the text does not parse', () => {
    expect(extractPolicy('version: 1\nname: c\n')).toBe('');
    expect(extractPolicy('a: [')).toBe('');
    expect(extractPolicy('- just a list')).toBe('');
  });
});

describe('policy override', () => {
  const original = { scenario: script, policy: extractPolicy(script) };
  it('is absent while the policy editor holds the scenario’s own policy (whitespace aside)', () => {
    expect(policyOverride({ scenario: script, policy: `${original.policy}\n\n` }, original)).toBeUndefined();
  });
  it('is the edited text once it differs, and absent when cleared', () => {
    const edited = 'policy_classes:\n  - {name: A, quantum: 3}\n';
    expect(policyOverride({ scenario: script, policy: edited }, original)).toBe(edited);
    expect(policyOverride({ scenario: script, policy: '  ' }, original)).toBeUndefined();
  });
});
