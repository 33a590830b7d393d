/**
 * `due_in_s` stands for the due time a request classifier sets (Dynamo's `due_at`), which only the
 * v1.6 releases have (shared/reference/dynamo-policy-generations.md §4). A scenario whose policy
 * file no v1.6 release accepts (here: per-class queue_admission, v1.4 only) refuses it at the key,
 * saying which releases have due times and which the policy file is valid for.
 */
import { describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../../src/scenario';

function scenario(classExtra: string, top = ''): string {
  return `version: 1
name: due and releases
duration_s: 1
cluster: { workers: 1 }
router:
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
    policy_classes:
      - {name: main, policy_family: std, cache_bucket: any, quantum: 100, prefill_busy_threshold: 0${classExtra}}
${top}clients:
  - name: c
    due_in_s: 2
    arrival: { process: constant, rate: 1 }
    program: { type: single, prompt_tokens: 10, output_tokens: 1 }
requests:
  - { t: 0, client: c, id: r0, prompt_tokens: 10, output_tokens: 1, due_in_s: 0.5 }
`;
}

function problems(text: string): string[] {
  const r = parseScenarioText(text);
  return r.ok ? [] : r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

describe('due_in_s needs a policy file a v1.6 release accepts', () => {
  it('is refused at each due_in_s key with a v1.4-only policy file (queue_admission)', () => {
    const msg =
      "due_in_s stands for a classifier's due_at, which only Dynamo v1.6.0 – v1.6.1 has; this policy file is valid for Dynamo v1.4.0 – v1.4.2 only";
    expect(problems(scenario(', queue_admission: {type: session_aware}'))).toEqual([
      `13:5: ${msg}`,
      `17:69: ${msg}`,
    ]);
  });

  it('is accepted with a file every release reads, and with a v1.6-only file (request_classifier)', () => {
    expect(problems(scenario(''))).toEqual([]);
    expect(problems(scenario('', '    request_classifier: {type: slo-classifier}\n'))).toEqual([]);
    // and a v1.4-only policy file without due_in_s stays accepted
    expect(
      problems(
        scenario(', queue_admission: {type: session_aware}').replace(
          /, due_in_s: 0\.5|\n {4}due_in_s: 2/g,
          '',
        ),
      ),
    ).toEqual([]);
  });
});
