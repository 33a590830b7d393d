/**
 * A class with policy_family but no cache_bucket (or the reverse) is neither a matrix class nor an
 * explicit one: its message says which key to add or remove, at that key, and the rules that need
 * every family of the profile (default_policy_family names a family, missing matrix cells, an
 * explicit class named like a family) are skipped instead of reading it as explicit. Before, two
 * classes `policy_family: bulk` without cache_bucket made default_policy_family 'bulk' "not a family:
 * no class of this profile has a policy_family" (a first-time user's report, editor and CLI alike).
 */
import { describe, expect, it } from 'vitest';
import { validatePolicyText } from '../../../src/policy';

function lines(text: string): string[] {
  const res = validatePolicyText(text);
  return res.ok ? [] : res.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

const HALF = 'has policy_family but no cache_bucket: a matrix class needs both, an explicit class neither';

describe('a class with only one of policy_family and cache_bucket', () => {
  it("two bulk classes without cache_bucket: no false 'not a family', what to add at each class", () => {
    const text = [
      'default_policy_family: bulk',
      'uncached_isl_buckets:',
      '  - {min_tokens: 0, bucket: cached}',
      '  - {min_tokens: 100, bucket: fresh}',
      'policy_classes:',
      '  - name: a',
      '    policy_family: bulk',
      '    quantum: 10',
      '  - name: b',
      '    policy_family: bulk',
      '    quantum: 100',
      '',
    ].join('\n');
    expect(lines(text)).toEqual([
      `7:5: class 'a' ${HALF}; add cache_bucket (buckets: cached, fresh) or remove policy_family`,
      `10:5: class 'b' ${HALF}; add cache_bucket (buckets: cached, fresh) or remove policy_family`,
    ]);
  });

  it("the tester's editor text (no uncached_isl_buckets, quantum 0, lifo, a duplicate name)", () => {
    const text = [
      'default_policy_family: bulk',
      'policy_classes:',
      '  - name: bulk_a',
      '    policy_family: bulk',
      '    quantum: 0',
      '    queue_policy: lifo',
      '  - name: bulk_a',
      '    policy_family: bulk',
      '    quantum: 100',
      '',
    ].join('\n');
    expect(lines(text)).toEqual([
      '1:1: the root profile needs all of default_policy_family, uncached_isl_buckets and policy_classes, or none of them; missing: uncached_isl_buckets',
      `4:5: class 'bulk_a' ${HALF}; add cache_bucket or remove policy_family`,
      '5:14: policy_classes[0].quantum: quantum must be ≥ 1',
      "6:19: policy_classes[0].queue_policy: queue_policy must be 'fcfs' or 'wspt'",
      "7:11: duplicate class name 'bulk_a' (first declared at line 3)",
      `8:5: class 'bulk_a' ${HALF}; add cache_bucket or remove policy_family`,
    ]);
  });

  it('a half class named like a family is not called explicit, and hides no family from a full one', () => {
    const text = [
      'default_policy_family: std',
      'uncached_isl_buckets:',
      '  - {min_tokens: 0, bucket: c}',
      'policy_classes:',
      '  - {name: x, policy_family: std, cache_bucket: c, quantum: 1}',
      '  - {name: std, cache_bucket: c, quantum: 1}',
      '',
    ].join('\n');
    expect(lines(text)).toEqual([
      "6:17: class 'std' has cache_bucket but no policy_family: a matrix class needs both, an explicit class neither; add policy_family or remove cache_bucket",
    ]);
  });

  it('a whole matrix class beside explicit ones still gets the family verdicts', () => {
    const text = [
      'default_policy_family: bulk',
      'uncached_isl_buckets:',
      '  - {min_tokens: 0, bucket: c}',
      'policy_classes:',
      '  - {name: x, policy_family: std, cache_bucket: c, quantum: 1}',
      '  - {name: std, quantum: 1}',
      '',
    ].join('\n');
    expect(lines(text)).toEqual([
      "1:24: default_policy_family 'bulk' is not a family of any matrix class; families: std",
      "6:12: explicit class 'std' has the name of a policy family; rename it or make it a matrix class of that family",
    ]);
  });
});
