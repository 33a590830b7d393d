/** Every rejection the Dynamo policy format requires, each pinned to the line and column of the culprit. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePolicyText, validatePolicyText } from '../../../src/policy';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

const BASE = `default_policy_family: standard
uncached_isl_buckets:
  - min_tokens: 0
    bucket: cached
  - min_tokens: 3072
    bucket: uncached
policy_classes:
  - name: cached
    policy_family: standard
    cache_bucket: cached
    quantum: 2048
  - name: uncached
    policy_family: standard
    cache_bucket: uncached
    quantum: 512
  - name: custom
    quantum: 100
`;

/** BASE with 1-based line `n` replaced (or removed with null), extra lines appended. */
function edit(changes: Record<number, string | null>, extra = ''): string {
  const lines = BASE.trimEnd().split('\n');
  const out: string[] = [];
  lines.forEach((l, i) => {
    const c = changes[i + 1];
    if (c === undefined) out.push(l);
    else if (c !== null) out.push(c);
  });
  return `${out.join('\n')}\n${extra}`;
}

function problemsOf(text: string) {
  const res = validatePolicyText(text);
  expect(res.ok).toBe(false);
  return res.ok ? [] : res.problems;
}

function expectOne(text: string, line: number, col: number, message: RegExp): void {
  const problems = problemsOf(text);
  expect(problems.map((p) => `${p.line}:${p.col}: ${p.message}`)).toEqual([expect.stringMatching(message)]);
  expect([problems[0].line, problems[0].col]).toEqual([line, col]);
}

describe('valid policies', () => {
  it('the base policy and the shipped sample (block style) are valid', () => {
    expect(validatePolicyText(BASE).ok).toBe(true);
    const sample = parsePolicyText(
      readFileSync(path.join(repoRoot, 'scenarios/dynamo-sample-policy.yaml'), 'utf8'),
    );
    expect(sample.ok).toBe(true);
    if (!sample.ok) return;
    expect(sample.value.root?.classes.map((c) => c.name)).toEqual([
      'cached',
      'uncached',
      'latency_cached',
      'latency_uncached',
      'custom_priority',
    ]);
    expect(sample.value.root?.families).toEqual(['standard', 'latency']);
    expect(sample.value.models.map((m) => [m.name, m.defaultFamily, m.buckets[1].minTokens])).toEqual([
      ['example/large-model', 'latency', 4096],
    ]);
    expect(sample.value.root?.classes[1]).toEqual({
      name: 'uncached',
      quantum: 512,
      policyFamily: 'standard',
      cacheBucket: 'uncached',
      queuePolicy: 'fcfs',
      prefillBusyThresholdFrac: 16,
      busyWorkerRatio: 0.95,
      requestQueueLimitPerWorker: 512,
      rawIslTokenQueueLimitPerWorker: 1048576,
    });
  });

  it('flow style parses to the same policy as block style', () => {
    const flow = `{default_policy_family: standard, uncached_isl_buckets: [{min_tokens: 0, bucket: cached}, {min_tokens: 3072, bucket: uncached}], policy_classes: [{name: cached, policy_family: standard, cache_bucket: cached, quantum: 2048}, {name: uncached, policy_family: standard, cache_bucket: uncached, quantum: 512}, {name: custom, quantum: 100}]}`;
    expect(parsePolicyText(flow)).toEqual(parsePolicyText(BASE));
  });

  it('a models-only policy is valid', () => {
    const text = `models:\n  m:\n${BASE.split('\n')
      .map((l) => (l ? `    ${l}` : l))
      .join('\n')}`;
    expect(validatePolicyText(text).ok).toBe(true);
  });
});

describe('Dynamo rejection cases', () => {
  it('missing matrix cell -> the profile policy_classes key', () => {
    expectOne(
      edit({ 12: '  - name: other', 13: null, 14: null }),
      7,
      1,
      /missing matrix cell \(family 'standard', bucket 'uncached'\)/,
    );
  });

  it('duplicate cell -> the second duplicate entry', () => {
    const dup = '  - name: dup\n    policy_family: standard\n    cache_bucket: cached\n    quantum: 1\n';
    expectOne(
      edit({}, dup),
      18,
      5,
      /duplicate matrix cell \(family 'standard', bucket 'cached'\): class 'cached' at line 8/,
    );
    // moving a class onto a taken cell also leaves its old cell empty
    expect(problemsOf(edit({ 14: '    cache_bucket: cached' })).map((p) => `${p.line}:${p.col}`)).toEqual([
      '7:1',
      '12:5',
    ]);
  });

  it('identifier with an illegal character -> that scalar', () => {
    expectOne(edit({ 16: '  - name: cust om!' }), 16, 11, /name may only contain letters, digits/);
    expectOne(edit({ 4: '    bucket: "ca ched"' }), 4, 13, /bucket may only contain/);
  });

  it('unknown bucket -> the cache_bucket value, with a hint', () => {
    const problems = problemsOf(edit({ 14: '    cache_bucket: uncachd' }));
    expect(problems[1]).toMatchObject({ line: 14, col: 19 });
    expect(problems[1].message).toMatch(
      /unknown bucket 'uncachd' \(did you mean 'uncached'\?\); buckets: cached, uncached/,
    );
    // the uncached cell is then missing too, reported at policy_classes
    expect(problems.map((p) => p.line).sort((a, b) => a - b)).toEqual([7, 14]);
  });

  it('only one of policy_family / cache_bucket -> the key given', () => {
    expectOne(edit({}, '    policy_family: standard\n'), 18, 5, /has policy_family but no cache_bucket/);
    expectOne(edit({}, '    cache_bucket: cached\n'), 18, 5, /has cache_bucket but no policy_family/);
  });

  it('explicit class named like a family -> its name', () => {
    expectOne(
      edit({ 16: '  - name: standard' }),
      16,
      11,
      /explicit class 'standard' has the name of a policy family/,
    );
  });

  it('first bucket floor not 0 -> that min_tokens', () => {
    expectOne(
      edit({ 3: '  - min_tokens: 1' }),
      3,
      17,
      /first bucket must start at min_tokens: 0 \(found 1\)/,
    );
  });

  it('duplicate bucket name -> the second name', () => {
    const problems = problemsOf(edit({ 6: '    bucket: cached' }));
    expect(problems[0]).toMatchObject({ line: 6, col: 13 });
    expect(problems[0].message).toMatch(/duplicate bucket name 'cached' \(first declared at line 4\)/);
  });

  it('floors not increasing -> the offending floor', () => {
    expectOne(
      edit({ 5: '  - min_tokens: 0' }),
      5,
      17,
      /floors must increase strictly: min_tokens 0 follows 0/,
    );
  });

  it('quantum: 0 -> the value', () => {
    expectOne(edit({ 15: '    quantum: 0' }), 15, 14, /quantum must be ≥ 1/);
  });

  it("unknown queue_policy (e.g. 'lcfs') -> the value", () => {
    expectOne(edit({}, '    queue_policy: lcfs\n'), 18, 19, /queue_policy must be 'fcfs' or 'wspt'/);
  });

  it('busy_worker_ratio outside (0, 1] -> the value', () => {
    const threshold = '    prefill_busy_threshold: 10\n';
    expectOne(
      edit({}, `${threshold}    busy_worker_ratio: 0\n`),
      19,
      24,
      /busy_worker_ratio must be in \(0, 1\]/,
    );
    expectOne(
      edit({}, `${threshold}    busy_worker_ratio: 1.5\n`),
      19,
      24,
      /busy_worker_ratio must be in \(0, 1\]/,
    );
    expect(validatePolicyText(edit({}, `${threshold}    busy_worker_ratio: 1\n`)).ok).toBe(true);
  });

  it('busy_worker_ratio without a threshold -> the key', () => {
    expectOne(
      edit({}, '    busy_worker_ratio: 0.5\n'),
      18,
      5,
      /busy_worker_ratio needs prefill_busy_threshold/,
    );
  });

  it('unknown key -> the key, with a did-you-mean hint', () => {
    expectOne(edit({}, '    quantm: 512\n'), 18, 5, /unknown key 'quantm' \(did you mean 'quantum'\?\)/);
    // a misspelt required key: both the unknown key and the missing one are reported
    expect(
      problemsOf(edit({ 15: '    quantm: 512' })).map((p) => `${p.line}:${p.col}: ${p.message}`),
    ).toEqual([
      "12:5: policy_classes[1]: missing required key 'quantum'",
      expect.stringMatching(
        /^15:5: policy_classes\[1\]: unknown key 'quantm' \(did you mean 'quantum'\?\); allowed keys: name, quantum, /,
      ),
    ]);
  });

  it('root profile with only some of its three keys -> the first present key', () => {
    expectOne(edit({ 1: null }), 1, 1, /root profile needs all of .*missing: default_policy_family/);
    const onlyClasses = 'policy_classes:\n  - {name: a, quantum: 1}\n';
    expectOne(onlyClasses, 1, 1, /missing: default_policy_family, uncached_isl_buckets/);
  });
});

describe('other rejections', () => {
  it('a schema error in one place does not hide cross-field problems elsewhere', () => {
    const model = `models:\n  m:\n${BASE.split('\n')
      .map((l) => (l ? `    ${l}` : l))
      .join('\n')}`.replace('quantum: 100', 'quantum: -1');
    const text = edit({ 16: '  - name: standard' }, model);
    expect(problemsOf(text).map((p) => `${p.line}:${p.col}: ${p.message}`)).toEqual([
      expect.stringMatching(/^16:11: explicit class 'standard' has the name of a policy family/),
      '36:18: models.m.policy_classes[2].quantum: quantum must be ≥ 1',
    ]);
  });

  it('wrong types and out-of-range numbers', () => {
    expectOne(edit({ 15: '    quantum: lots' }), 15, 14, /quantum must be a whole number/);
    expectOne(edit({ 15: '    quantum: 1.5' }), 15, 14, /quantum must be a whole number/);
    expectOne(
      edit({}, '    prefill_busy_threshold_frac: -1\n'),
      18,
      34,
      /prefill_busy_threshold_frac must be ≥ 0/,
    );
    expectOne(edit({}, '    prefill_busy_threshold_frac: .inf\n'), 18, 34, /finite number/);
    expectOne(
      edit({}, '    prefill_busy_threshold: 99999999999999999999\n'),
      18,
      29,
      /≤ 18446744073709551615 \(2\^64 - 1/,
    );
    expectOne(
      edit({ 2: 'uncached_isl_buckets: 5', 3: null, 4: null, 5: null, 6: null }),
      2,
      23,
      /must be a list/,
    );
  });

  it('default_policy_family that is not a family -> its value, with a hint', () => {
    expectOne(
      edit({ 1: 'default_policy_family: standrd' }),
      1,
      24,
      /'standrd' is not a family .*did you mean 'standard'/,
    );
  });

  it('duplicate class names -> the second name', () => {
    expectOne(
      edit({ 16: '  - name: cached' }),
      16,
      11,
      /duplicate class name 'cached' \(first declared at line 8\)/,
    );
  });

  it('a model profile must give all three keys; model names must not be empty', () => {
    const problems = problemsOf('models:\n  m:\n    policy_classes:\n      - {name: a, quantum: 1}\n');
    expect(problems.map((p) => [p.line, p.message])).toEqual([
      [3, "models.m: missing required key 'default_policy_family'"],
      [3, "models.m: missing required key 'uncached_isl_buckets'"],
    ]);
    const empty = problemsOf(
      `models:\n  "":\n${BASE.split('\n')
        .map((l) => (l ? `    ${l}` : l))
        .join('\n')}`,
    );
    // at the empty key, with the key's own rule (not the record's "models must map …", at line 3)
    expect(empty.map((p) => [p.line, p.col, p.message])).toEqual([
      [2, 3, 'models: a model name must not be empty'],
    ]);
  });

  it('an empty policy, a YAML syntax error, a duplicate key, an alias bomb', () => {
    expectOne('{}\n', 1, 1, /needs a root profile .* at least one entry under models, or worker_selection/);
    expectOne('', 1, 1, /a policy must be a mapping/);
    // one round (#15 leftover): the root-keys rule runs beside the schema's problem
    expect(problemsOf('policy_classes: [3]\n').map((p) => `${p.line}:${p.col}: ${p.message}`)).toEqual([
      '1:1: the root profile needs all of default_policy_family, uncached_isl_buckets and policy_classes, or none of them; missing: default_policy_family, uncached_isl_buckets',
      '1:18: policy_classes[0]: each policy_classes entry must be a mapping with at least name and quantum',
    ]);
    const syntax = problemsOf('policy_classes:\n  - {name: a, quantum: 1\n');
    expect(syntax[0].line).toBeGreaterThanOrEqual(2);
    const dup = problemsOf(`${BASE}default_policy_family: x\n`);
    expect(dup[0].line).toBe(18);
    const bomb = `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n`;
    expect(problemsOf(bomb)[0].message).toMatch(/alias/);
  });
});
