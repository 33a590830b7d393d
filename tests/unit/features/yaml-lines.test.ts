import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findRef } from '../../../src/ui/features/yaml-lines';

const POLICY = readFileSync('scenarios/dynamo-sample-policy.yaml', 'utf8');
const BURST = readFileSync('scenarios/drr-burst.yaml', 'utf8');
const DEFAULT = readFileSync('scenarios/default.yaml', 'utf8');

function lineOf(text: string, needle: string, from = 0): number {
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`no ${needle}`);
  return text.slice(0, at).split('\n').length;
}

describe('findRef: the YAML line an explanation step points at', () => {
  it('finds a class in the policy text, per model profile', () => {
    expect(findRef({ kind: 'class', name: 'uncached' }, { scenario: '', policy: POLICY })).toEqual({
      which: 'policy',
      line: lineOf(POLICY, 'name: uncached'),
      col: 11,
    });
    const models = POLICY.indexOf('\nmodels:');
    expect(
      findRef(
        { kind: 'class', name: 'batch_cached', profile: 'example/large-model' },
        { scenario: '', policy: POLICY },
      )?.line,
    ).toBe(lineOf(POLICY, 'name: batch_cached', models));
    // The same name in the root profile is a different line from the model profile's.
    expect(
      findRef(
        { kind: 'class', name: 'latency_cached', profile: 'example/large-model' },
        { scenario: '', policy: POLICY },
      )?.line,
    ).toBe(lineOf(POLICY, 'name: latency_cached', models));
  });

  it("falls back to the policy inside the scenario (a script's `policy:`)", () => {
    expect(findRef({ kind: 'class', name: 'B' }, { scenario: BURST, policy: '' })).toMatchObject({
      which: 'scenario',
      line: lineOf(BURST, '{name: B'),
    });
  });

  it('finds clients and parameters in the scenario; a defaulted key points at its parent', () => {
    expect(findRef({ kind: 'client', name: 'mallory' }, { scenario: DEFAULT, policy: '' })?.line).toBe(
      lineOf(DEFAULT, 'name: mallory'),
    );
    expect(
      findRef({ kind: 'param', name: 'scheduler.quantum' }, { scenario: DEFAULT, policy: '' })?.line,
    ).toBe(lineOf(DEFAULT, 'quantum: 2500'));
    expect(
      findRef({ kind: 'param', name: 'router.worker_quantum' }, { scenario: DEFAULT, policy: '' })?.line,
    ).toBe(lineOf(DEFAULT, '\nrouter:') + 1);
  });

  it('gives null for unknown names and for broken YAML, without throwing', () => {
    expect(findRef({ kind: 'class', name: 'nope' }, { scenario: BURST, policy: '' })).toBeNull();
    expect(findRef({ kind: 'client', name: 'x' }, { scenario: 'a: [1,', policy: '' })).toBeNull();
    expect(findRef({ kind: 'param', name: '' }, { scenario: DEFAULT, policy: '' })).toBeNull();
  });
});
