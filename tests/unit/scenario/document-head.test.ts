import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { documentHead } from '../../../src/policy';
import { sweepParams } from '../../../src/scenario/sweep-params';

const read = (f: string) => readFileSync(f, 'utf8');

describe('what the page reads of a document before validating it (format layer)', () => {
  it('tells scenarios, scripts, policies and non-mappings apart, with name and description as text', () => {
    const scenario = documentHead(parse(read('scenarios/default.yaml')));
    expect(scenario.kind).toBe('scenario');
    expect(scenario.kind !== 'not-mapping' && scenario.name).toMatch(/^Default/);
    expect(documentHead(parse(read('scenarios/drr-burst.yaml'))).kind).toBe('script');
    expect(documentHead(parse(read('scenarios/dynamo-sample-policy.yaml'))).kind).toBe('policy');
    expect(documentHead(parse('- a\n- b'))).toEqual({ kind: 'not-mapping' });
    expect(documentHead(null)).toEqual({ kind: 'not-mapping' });
    // a name that is not text is no name
    expect(documentHead({ name: 3, description: ['x'], cluster: {} })).toEqual({
      kind: 'scenario',
      name: '',
      description: '',
    });
  });

  it("sweep parameters carry the scenario's own values, and none for a script or broken text", () => {
    const params = sweepParams(read('scenarios/default.yaml'));
    const workers = params.find((p) => p.key === 'cluster.workers');
    expect(workers?.current).toBe(2);
    expect(params.some((p) => p.key.startsWith('clients.') && p.key.endsWith('.arrival.rate'))).toBe(true);
    expect(sweepParams(read('scenarios/drr-burst.yaml'))).toEqual([]);
    expect(sweepParams('a: [')).toEqual([]);
    // a policy text given apart replaces the scenario's own policy classes
    const withPolicy = sweepParams(
      read('scenarios/default.yaml'),
      'policy_classes:\n  - name: solo\n    quantum: 7\n',
    );
    expect(
      withPolicy.filter((p) => p.key.startsWith('router.policy.')).map((p) => [p.key, p.current]),
    ).toEqual([['router.policy.policy_classes.solo.quantum', 7]]);
  });
});
