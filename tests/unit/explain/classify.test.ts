/**
 * "Why is this request in that class?": the enqueue account walks the resolution (profile and why,
 * requested name, every bucket floor compared, physical class), each step linked to its YAML line;
 * a models: profile keyed by the cluster's model applies to that cluster's requests.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PolicyQueue } from '../../../src/core/drr';
import { explainDecision, stepsToText } from '../../../src/core/explain';
import { explainClassResolution } from '../../../src/core/explain/classify';
import { type DecisionRecord, Simulation } from '../../../src/core/sim';
import { parsePolicyText } from '../../../src/policy';
import { findRef } from '../../../src/ui/features/yaml-lines';
import { scenario } from '../sim/helpers';

const POLICY = readFileSync('scenarios/dynamo-sample-policy.yaml', 'utf8');
const compiled = parsePolicyText(POLICY);
if (!compiled.ok) throw new Error('sample policy');
const queue = new PolicyQueue<null>(compiled.value);

describe('class resolution explained', () => {
  it('root profile, default family, 8187 uncached tokens against both floors', () => {
    const r = queue.explainResolve({ rawIsl: 9000, cachedTokens: 813, requestedClass: null, model: 'other' });
    expect(r).toMatchObject({
      profile: '(root)',
      profile_reason: 'root',
      via: 'default-family',
      family: 'standard',
      bucket: 'uncached',
      class_name: 'uncached',
    });
    const text = stepsToText(explainClassResolution(r));
    expect(text).toContain('the policy gives the model other no profile of its own (none under models:)');
    expect(text).toContain("8187 ≥ 0 → reaches bucket 'cached'");
    expect(text).toContain("8187 ≥ 3072 → reaches bucket 'uncached'");
    expect(text).toContain('Physical class: uncached.');
    // The same answer as the queue's own resolution.
    expect(
      queue.resolve({ rawIsl: 9000, cachedTokens: 813, requestedClass: null, model: 'other' }).className,
    ).toBe(r.class_name);
  });

  it('a model profile, a requested family below a floor, an explicit class', () => {
    const m = queue.explainResolve({
      rawIsl: 4000,
      cachedTokens: 0,
      requestedClass: 'batch',
      model: 'example/large-model',
    });
    expect(m).toMatchObject({
      profile: 'example/large-model',
      profile_reason: 'model',
      via: 'family',
      class_name: 'batch_cached',
    });
    const steps = explainClassResolution(m);
    expect(stepsToText(steps)).toContain("4000 < 4096 → not 'uncached'");
    const e = queue.explainResolve({
      rawIsl: 10,
      cachedTokens: 0,
      requestedClass: 'custom_priority',
      model: null,
    });
    expect(e).toMatchObject({ via: 'explicit', class_name: 'custom_priority', profile: '(root)' });
  });

  it('each step links to its YAML line: bucket floor, default family, model profile, class', () => {
    const r = queue.explainResolve({ rawIsl: 9000, cachedTokens: 813, requestedClass: null, model: null });
    const lines = explainClassResolution(r)
      .filter((s) => s.ref)
      .map((s) => findRef(s.ref!, { scenario: '', policy: POLICY })?.line);
    const lineOf = (needle: string, from = 0) =>
      POLICY.slice(0, POLICY.indexOf(needle, from)).split('\n').length;
    expect(lines).toContain(lineOf('default_policy_family: standard'));
    expect(lines).toContain(lineOf('min_tokens: 3072'));
    expect(lines).toContain(lineOf('name: uncached'));
    const m = queue.explainResolve({
      rawIsl: 1,
      cachedTokens: 0,
      requestedClass: null,
      model: 'example/large-model',
    });
    const first = explainClassResolution(m)[0];
    expect(findRef(first.ref!, { scenario: '', policy: POLICY })?.line).toBe(
      lineOf('\n  example/large-model:') + 1,
    );
  });
});

describe("the cluster's model picks its models: profile", () => {
  it('requests of a cluster whose model has a profile queue in that profile, and the enqueue says why', () => {
    const reqs = Array.from(
      { length: 4 },
      (_, i) => `  - { t: 0, client: x, id: r${i}, prompt_tokens: 5000, output_tokens: 4 }`,
    ).join('\n');
    const sim = new Simulation(
      scenario(`version: 1
name: model profile
duration_s: 1
cluster:
  workers: 1
  model: llama-3.1-8b
  max_batch_tokens: 512
router:
  routing: round-robin
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
    policy_classes:
      - {name: root_all, policy_family: std, cache_bucket: all, quantum: 100, prefill_busy_threshold: 1000}
    models:
      llama-3.1-8b:
        default_policy_family: m
        uncached_isl_buckets: [{min_tokens: 0, bucket: small}, {min_tokens: 4096, bucket: big}]
        policy_classes:
          - {name: m_small, policy_family: m, cache_bucket: small, quantum: 100, prefill_busy_threshold: 1000}
          - {name: m_big, policy_family: m, cache_bucket: big, quantum: 100, prefill_busy_threshold: 1000}
requests:
${reqs}
`),
    );
    const log: DecisionRecord[] = [];
    sim.onDecision = (d) => log.push(d);
    sim.runToEnd();
    const enq = log.filter((d) => d.kind === 'enqueue');
    expect(enq.length).toBeGreaterThan(0);
    for (const d of enq) expect(d.class).toBe('m_big');
    const text = stepsToText(explainDecision(enq[0]));
    expect(text).toContain('the model llama-3.1-8b has its own profile');
    expect(text).toContain("5000 ≥ 4096 → reaches bucket 'big'");
  });
});
