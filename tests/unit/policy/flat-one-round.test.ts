/**
 * A flat/SLO key (slo_ms, default_policy_class, worker_selection.default) no longer hides the rest
 * of the file's problems: its message comes beside every other problem, sorted by position. Before,
 * a matrix class with `quantum: -5`, `queue_policy: wsptt` and `slo_ms: 30` showed only the slo_ms
 * message in the editor and the CLI (a first-time user's report). A profile written in the flat
 * shape is not told again that it lacks default_policy_family and uncached_isl_buckets: the flat/SLO
 * message names the keys a released file uses.
 */
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { validateCommand } from '../../../src/cli/validate';
import { validatePolicyText } from '../../../src/policy';

function lines(text: string): string[] {
  const res = validatePolicyText(text);
  return res.ok ? [] : res.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

const FLAT =
  "belongs to Dynamo's unreleased flat/SLO policy line (default_policy_class, classes with slo_ms); no released Dynamo (v1.3.0 – v1.6.1) accepts it. Released files use default_policy_family, uncached_isl_buckets and policy_classes (name, quantum, policy_family, cache_bucket)";

describe('flat/SLO keys are reported beside every other problem', () => {
  it("the tester's bad1.yaml: a bad quantum, a queue_policy typo and slo_ms on a matrix class", async () => {
    const text = [
      'default_policy_family: bulk',
      'uncached_isl_buckets:',
      '  - min_tokens: 0',
      '    bucket: cached',
      'policy_classes:',
      '  - name: interactive_cached',
      '    policy_family: interactive',
      '    cache_bucket: cached',
      '    quantum: -5',
      '    queue_policy: wsptt',
      '    slo_ms: 30',
      '',
    ].join('\n');
    const expected = [
      "1:24: default_policy_family 'bulk' is not a family of any matrix class; families: interactive",
      '9:14: policy_classes[0].quantum: quantum must be ≥ 1',
      "10:19: policy_classes[0].queue_policy: queue_policy must be 'fcfs' or 'wspt' (did you mean 'wspt'?)",
      `11:5: 'slo_ms' ${FLAT}`,
    ];
    expect(lines(text)).toEqual(expected);
    // the CLI prints the same, as file:line:col: message, and exits 1
    const io = memoryIO({ 'bad1.yaml': text });
    const code = await validateCommand(['bad1.yaml'], io);
    expect(code).toBe(1);
    expect(io.stderr.join('\n').split('\n')).toEqual(expected.map((l) => `bad1.yaml:${l}`));
  });

  it('a rule problem (duplicate class name) comes beside slo_ms too', () => {
    const text = [
      'default_policy_family: f',
      'uncached_isl_buckets: [{min_tokens: 0, bucket: c}]',
      'policy_classes:',
      '  - {name: a, policy_family: f, cache_bucket: c, quantum: 1, slo_ms: 30}',
      '  - {name: a, quantum: 1}',
      '',
    ].join('\n');
    expect(lines(text)).toEqual([
      `4:62: 'slo_ms' ${FLAT}`,
      "5:12: duplicate class name 'a' (first declared at line 4)",
    ]);
  });

  it('a flat-shaped models entry: its quantum is reported, its missing matrix keys are not', () => {
    const text = [
      'models:',
      '  m1:',
      '    default_policy_class: agents',
      '    policy_classes:',
      '      - {name: agents, slo_ms: 600000, quantum: -1}',
      '',
    ].join('\n');
    expect(lines(text)).toEqual([
      `3:5: 'default_policy_class' ${FLAT}`,
      `5:24: 'slo_ms' ${FLAT}`,
      '5:49: models.m1.policy_classes[0].quantum: quantum must be ≥ 1',
    ]);
  });

  it('a flat root with a duplicate class: no all-or-none message, the duplicate is reported', () => {
    const text = [
      'default_policy_class: agents',
      'policy_classes:',
      '  - {name: agents, slo_ms: 600000, quantum: 10}',
      '  - {name: agents, slo_ms: 1000, quantum: 10}',
      '',
    ].join('\n');
    expect(lines(text)).toEqual([
      `1:1: 'default_policy_class' ${FLAT}`,
      `3:20: 'slo_ms' ${FLAT}`,
      "4:12: duplicate class name 'agents' (first declared at line 3)",
      `4:20: 'slo_ms' ${FLAT}`,
    ]);
  });

  it("worker_selection.default alone is the flat line's selector, not an empty section", () => {
    expect(lines('worker_selection: {default: example}\n')).toEqual([
      "1:20: worker_selection.default is the shape of Dynamo's unreleased flat/SLO line; released Dynamo (v1.5.0+) names a selector per stage: aggregated, prefill, decode, encode",
    ]);
  });
});
