/**
 * Policy files of every released Dynamo generation (shared/reference/dynamo-policy-generations.md):
 * each release line's additions are accepted, with the release range the file is valid for; what
 * every release rejects is rejected at the right line; the unreleased flat/SLO line is refused with
 * a message that says so.
 */
import { describe, expect, it } from 'vitest';
import { parsePolicyText, validatePolicyText } from '../../../src/policy';
import { releaseRangeText } from '../../../src/policy/generations';

const MATRIX = `default_policy_family: standard
uncached_isl_buckets:
  - {min_tokens: 0, bucket: cached}
  - {min_tokens: 3072, bucket: uncached}
policy_classes:
  - {name: cached, policy_family: standard, cache_bucket: cached, quantum: 2048, prefill_busy_threshold_frac: 16.0}
  - {name: uncached, policy_family: standard, cache_bucket: uncached, quantum: 512, prefill_busy_threshold_frac: 16.0}
`;

function releases(text: string): string {
  const res = parsePolicyText(text);
  if (!res.ok) throw new Error(res.problems.map((p) => `${p.line}:${p.col}: ${p.message}`).join('\n'));
  return releaseRangeText(res.value.releases ?? ['v1.3', 'v1.4', 'v1.5', 'v1.6']);
}

function problems(text: string): string[] {
  const res = validatePolicyText(text);
  expect(res.ok).toBe(false);
  return res.ok ? [] : res.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

describe('accepted, with the releases that accept them', () => {
  it('v1.3 matrix file: every release', () => {
    expect(releases(MATRIX)).toBe('Dynamo v1.3.0 – v1.6.1');
  });

  it('v1.4 per-class queue_admission, both forms: v1.4 only', () => {
    const sa = MATRIX.replace(
      'quantum: 512, prefill_busy_threshold_frac: 16.0}',
      'quantum: 512, prefill_busy_threshold_frac: 16.0, queue_admission: {type: session_aware, pause_threshold: 0.9, pause_target: 0.7, resume_timeout_seconds: 600}}',
    );
    expect(releases(sa)).toBe('Dynamo v1.4.0 – v1.4.2');
    const opaque = MATRIX.replace(
      'quantum: 512, prefill_busy_threshold_frac: 16.0}',
      'quantum: 512, prefill_busy_threshold_frac: 16.0, queue_admission: {type: my_gate, options: {k: 1}}}',
    );
    expect(releases(opaque)).toBe('Dynamo v1.4.0 – v1.4.2');
  });

  it('v1.5 worker_selection (aggregated/prefill/decode/encode), alone or with a profile: v1.5+', () => {
    const ws = `worker_selection:
  aggregated: two-tier
  prefill: default
  encode: default
  instances:
    - {name: two-tier, type: dynamo-two-tier-cost-fn, parameters: {overlap_weight: 1.0}}
`;
    expect(releases(MATRIX + ws)).toBe('Dynamo v1.5.0 – v1.6.1');
    expect(releases(ws)).toBe('Dynamo v1.5.0 – v1.6.1');
    const res = parsePolicyText(ws);
    expect(res.ok && res.value.root).toBe(null);
    expect(res.ok && res.value.notes?.[0]).toMatch(/worker_selection .* not run/);
  });

  it('v1.6 request_classifier: v1.6 only, with a note that the plugin is not simulated', () => {
    const text = `${MATRIX}request_classifier: {type: slo-classifier, parameters: {header: x-tier}}\n`;
    expect(releases(text)).toBe('Dynamo v1.6.0 – v1.6.1');
    const res = parsePolicyText(text);
    expect(res.ok && res.value.notes?.[0]).toMatch(/cannot run: requests keep the class they ask for/);
  });

  it('v1.6 router section (scoring knobs): v1.6 only, any mapping, with a note that it is not simulated', () => {
    const text = `${MATRIX}router: {overlap_score_weight: 1.5, temperature: 0.0}\n`;
    expect(releases(text)).toBe('Dynamo v1.6.0 – v1.6.1');
    const res = parsePolicyText(text);
    expect(res.ok && res.value.notes?.[0]).toMatch(
      /router holds Dynamo v1\.6's scoring knobs .* not simulated/,
    );
    expect(problems(`${MATRIX}router: [1, 2]\n`)).toEqual([
      expect.stringMatching(/^8:\d+: .*router must be a mapping/),
    ]);
    // with queue_admission (v1.4 only) no release accepts both
    const both = MATRIX.replace('16.0}', '16.0, queue_admission: {type: session_aware}}');
    expect(problems(`${both}router: {}\n`)).toEqual([
      expect.stringMatching(
        /no released Dynamo accepts both router \(Dynamo v1\.6\.0 – v1\.6\.1, line 8\) and queue_admission/,
      ),
    ]);
    expect(problems(MATRIX.replace('quantum: 512,', 'quantum: 512, router: {},'))).toEqual([
      expect.stringMatching(/'router' is a top-level key \(Dynamo v1\.6\.0\+/),
    ]);
  });

  it('policy_family: null (and other optional keys given as null) read as absent', () => {
    const text = `${MATRIX}  - {name: custom, quantum: 7, policy_family: null, cache_bucket: null, busy_worker_ratio: null}\n`;
    const res = parsePolicyText(text);
    expect(res.ok).toBe(true);
    if (res.ok)
      expect(res.value.root?.classes[2]).toEqual({ name: 'custom', quantum: 7, queuePolicy: 'fcfs' });
  });

  it('quanta up to 2^64 - 1 keep every digit', () => {
    const text = `policy_classes:\n  - {name: A, quantum: 18446744073709551615}\n  - {name: B, quantum: 9007199254740993}\ndefault_policy_family: f\nuncached_isl_buckets: [{min_tokens: 0, bucket: b}]\n`;
    const withCell = text.replace(
      'policy_classes:\n',
      'policy_classes:\n  - {name: c, policy_family: f, cache_bucket: b, quantum: 1}\n',
    );
    const res = parsePolicyText(withCell);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value.root?.classes[1].quantumBig).toBe(18446744073709551615n);
    expect(res.value.root?.classes[2].quantumBig).toBe(9007199254740993n);
    expect(res.value.root?.classes[0].quantumBig).toBeUndefined();
  });
});

describe('rejected as every release rejects them', () => {
  it('a quantum of 2^64 is out of range', () => {
    expect(problems(MATRIX.replace('quantum: 512', 'quantum: 18446744073709551616'))).toEqual([
      expect.stringMatching(/^7:\d+: .*quantum must be ≤ 18446744073709551615/),
    ]);
  });

  it('worker_selection: empty, instance named default, duplicates, unknown target, non-mapping parameters', () => {
    expect(problems(`${MATRIX}worker_selection: {}\n`)).toEqual([
      expect.stringMatching(/^8:1: worker_selection must not be empty/),
    ]);
    const bad = `${MATRIX}worker_selection:
  aggregated: twotier
  instances:
    - {name: default, type: x}
    - {name: two-tier, type: dynamo-two-tier-cost-fn}
    - {name: two-tier, type: y}
`;
    expect(problems(bad)).toEqual([
      expect.stringMatching(
        /^9:15: aggregated names no configured instance 'twotier' \(did you mean 'two-tier'\?\)/,
      ),
      expect.stringMatching(/^11:14: an instance may not be named 'default'/),
      expect.stringMatching(/^13:14: duplicate instance name 'two-tier' \(first at line 12\)/),
    ]);
    expect(
      problems(`${MATRIX}worker_selection: {instances: [{name: p, type: z, parameters: [1]}]}\n`),
    ).toEqual([expect.stringMatching(/^8:63: .*parameters must be a mapping/)]);
  });

  it("request_classifier: type 'default' is reserved; unknown keys rejected", () => {
    expect(problems(`${MATRIX}request_classifier: {type: default}\n`)).toEqual([
      expect.stringMatching(/^8:28: request_classifier.type 'default' is reserved/),
    ]);
    expect(problems(`${MATRIX}request_classifier: {type: c, parameter: {}}\n`)).toEqual([
      expect.stringMatching(/^8:31: .*unknown key 'parameter' \(did you mean 'parameters'\?\)/),
    ]);
  });

  it('queue_admission: one class per profile, knobs in range, knobs only in the session_aware form', () => {
    const two = MATRIX.replace(/16\.0\}/g, '16.0, queue_admission: {type: session_aware}}');
    expect(problems(two)).toEqual([
      expect.stringMatching(
        /^7:\d+: only one class per profile may have queue_admission; class 'cached' at line 6/,
      ),
    ]);
    const range = MATRIX.replace(
      'quantum: 512, prefill_busy_threshold_frac: 16.0}',
      'quantum: 512, queue_admission: {type: session_aware, pause_threshold: 0.5, pause_target: 0.6}}',
    );
    expect(problems(range)).toEqual([
      expect.stringMatching(
        /^7:\d+: pause_target must be in \[0, pause_threshold\] \(pause_threshold is 0.5\)/,
      ),
    ]);
    const knob = MATRIX.replace(
      'quantum: 512, prefill_busy_threshold_frac: 16.0}',
      'quantum: 512, queue_admission: {type: other, pause_threshold: 0.5}}',
    );
    expect(problems(knob)).toEqual([
      expect.stringMatching(/pause_threshold is a knob of the session_aware form/),
    ]);
  });

  it('queue_admission (v1.4 only) together with worker_selection (v1.5+) fits no release', () => {
    const text = `${MATRIX.replace('quantum: 512, prefill_busy_threshold_frac: 16.0}', 'quantum: 512, prefill_busy_threshold_frac: 16.0, queue_admission: {type: session_aware}}')}worker_selection: {aggregated: default}\n`;
    expect(problems(text)).toEqual([
      expect.stringMatching(
        /^8:1: no released Dynamo accepts both queue_admission \(Dynamo v1.4.0 – v1.4.2, line 7\) and worker_selection \(Dynamo v1.5.0 – v1.6.1\)/,
      ),
    ]);
  });
});

describe('keys that belong elsewhere say where', () => {
  it('strict_priority on a class is per request', () => {
    expect(problems(MATRIX.replace('quantum: 512,', 'quantum: 512, strict_priority: 2,'))).toEqual([
      expect.stringMatching(/^7:\d+: 'strict_priority' is per request, not per class/),
    ]);
  });
  it('a class key at the top level, a bucket key on a class, due_at on a class', () => {
    expect(problems(`${MATRIX}quantum: 5\n`)).toEqual([
      expect.stringMatching(/^8:1: 'quantum' is a class key: put it on an entry of policy_classes/),
    ]);
    expect(problems(MATRIX.replace('quantum: 512,', 'quantum: 512, min_tokens: 4,'))).toEqual([
      expect.stringMatching(/'min_tokens' belongs in an uncached_isl_buckets entry/),
    ]);
    expect(problems(MATRIX.replace('quantum: 512,', 'quantum: 512, due_at: 5,'))).toEqual([
      expect.stringMatching(
        /'due_at' is per request, not per class: a request_classifier \(Dynamo v1.6.0\+\) sets it/,
      ),
    ]);
  });
});

describe('the unreleased flat/SLO line is refused with a message that says so', () => {
  it('the reference example 5.6.1 (default_policy_class + slo_ms)', () => {
    const stage0 =
      'default_policy_class: agents\npolicy_classes:\n  - {name: agents, slo_ms: 600000, quantum: 10}\n';
    expect(problems(stage0)).toEqual([
      expect.stringMatching(
        /^1:1: 'default_policy_class' belongs to Dynamo's unreleased flat\/SLO policy line .* no released Dynamo \(v1.3.0 – v1.6.1\) accepts it/,
      ),
      expect.stringMatching(/^3:20: 'slo_ms' belongs to Dynamo's unreleased flat\/SLO policy line/),
    ]);
  });
  it("the flat line's worker_selection shape (default + instances), example 5.6.4", () => {
    expect(
      problems('worker_selection: {default: example, instances: [{name: example, type: example-policy}]}\n'),
    ).toEqual([
      expect.stringMatching(
        /^1:20: worker_selection.default is the shape of Dynamo's unreleased flat\/SLO line/,
      ),
    ]);
  });
  it('slo_ms on an otherwise released matrix class', () => {
    expect(problems(MATRIX.replace('quantum: 512,', 'quantum: 512, slo_ms: 3000,'))).toEqual([
      expect.stringMatching(/^7:\d+: 'slo_ms' belongs to Dynamo's unreleased flat\/SLO policy line/),
    ]);
  });
});

describe('hover docs name the releases that accept each key', () => {
  it('the policy JSON Schema says which Dynamo releases accept each key', async () => {
    const { policyJsonSchema } = await import('../../../src/policy');
    const props = policyJsonSchema().properties as Record<string, { description?: string }>;
    expect(props.worker_selection.description).toMatch(/Accepted by Dynamo v1\.5\.0 – v1\.6\.1\./);
    expect(props.request_classifier.description).toMatch(/Accepted by Dynamo v1\.6\.0 – v1\.6\.1\./);
    expect(props.router.description).toMatch(/scoring knobs.*Accepted by Dynamo v1\.6\.0 – v1\.6\.1\./);
    expect(props.policy_classes.description).toMatch(/Accepted by Dynamo v1\.3\.0 – v1\.6\.1\./);
    const json = JSON.stringify(policyJsonSchema());
    expect(json).toMatch(/queue_admission[^}]*Accepted by Dynamo v1\.4\.0 – v1\.4\.2\./);
  });
});
