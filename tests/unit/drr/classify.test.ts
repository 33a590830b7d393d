/** Classification: the reference's public vectors on Dynamo's sample policy, profiles and costs. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PolicyQueue, requestCost } from '../../../src/core/drr';
import { parsePolicyText } from '../../../src/policy';
import { repoRoot } from './helpers';

function samplePolicy() {
  const res = parsePolicyText(
    readFileSync(path.join(repoRoot, 'scenarios/dynamo-sample-policy.yaml'), 'utf8'),
  );
  if (!res.ok) throw new Error(JSON.stringify(res.problems));
  return res.value;
}

describe('request cost snapshot', () => {
  it('caps cached at the input, charges at least one token', () => {
    expect(requestCost(5000, 1000)).toEqual({ rawIsl: 5000, cached: 1000, uncached: 4000, cost: 4000 });
    expect(requestCost(100, 500)).toEqual({ rawIsl: 100, cached: 100, uncached: 0, cost: 1 });
    expect(requestCost(0, 0)).toEqual({ rawIsl: 0, cached: 0, uncached: 0, cost: 1 });
  });
});

describe('class resolution on the sample policy (root profile)', () => {
  const q = new PolicyQueue(samplePolicy());
  const cls = (requestedClass: string | null, uncached: number) =>
    q.resolve({ requestedClass, rawIsl: uncached, cachedTokens: 0 }).className;

  it.each([
    [null, 0, 'cached'],
    ['latency', 0, 'latency_cached'],
    ['latency', 1_000_000_000, 'latency_uncached'],
    ['unknown', 0, 'cached'],
    [null, 3071, 'cached'],
    [null, 3072, 'uncached'],
  ] as const)('requested %s with %i uncached tokens -> %s', (req, uncached, expected) => {
    expect(cls(req, uncached)).toBe(expected);
  });

  it('an explicit class by exact name; an empty name or a matrix class name falls back to the default family', () => {
    expect(cls('custom_priority', 99999)).toBe('custom_priority');
    expect(cls('', 5000)).toBe('uncached');
    expect(cls('latency_cached', 0)).toBe('cached');
    expect(cls('latency_cached', 4000)).toBe('uncached');
  });

  it('buckets use uncached tokens (cached tokens are subtracted)', () => {
    expect(q.resolve({ rawIsl: 8000, cachedTokens: 6000 }).className).toBe('cached');
    expect(q.resolve({ rawIsl: 8000, cachedTokens: 4928 }).className).toBe('uncached');
  });
});

describe('profile choice', () => {
  const q = new PolicyQueue(samplePolicy());
  it('a model with a profile uses it (its own default family and floors); others use the root', () => {
    const m = q.resolve({ model: 'example/large-model', rawIsl: 4095, cachedTokens: 0 });
    expect([m.profile, m.className]).toEqual(['example/large-model', 'latency_cached']);
    expect(q.resolve({ model: 'example/large-model', rawIsl: 4096, cachedTokens: 0 }).className).toBe(
      'latency_uncached',
    );
    expect(
      q.resolve({ model: 'example/large-model', requestedClass: 'batch', rawIsl: 10, cachedTokens: 0 })
        .className,
    ).toBe('batch_cached');
    const other = q.resolve({ model: 'some/other', rawIsl: 4095, cachedTokens: 0 });
    expect([other.profile, other.className]).toEqual(['(root)', 'uncached']);
  });

  it('no policy: the synthetic default class, quantum 1', () => {
    const d = new PolicyQueue(null);
    const r = d.resolve({ requestedClass: 'latency', model: 'x', rawIsl: 10, cachedTokens: 0 });
    expect([r.profile, r.className]).toEqual(['(default)', 'default']);
    expect(d.snapshot().classes).toEqual([
      { name: 'default', quantum: 1, deficit: 0, queued: 0, head_cost: null },
    ]);
  });

  it('models only, no root: other models get the synthetic default', () => {
    const p = samplePolicy();
    const q2 = new PolicyQueue({ root: null, models: p.models });
    expect(q2.resolve({ model: 'nope', rawIsl: 1, cachedTokens: 0 }).className).toBe('default');
    expect(q2.resolve({ model: 'example/large-model', rawIsl: 1, cachedTokens: 0 }).className).toBe(
      'latency_cached',
    );
  });
});
