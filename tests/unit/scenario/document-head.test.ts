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

  it('offers only the knobs of the algorithms the scenario runs', () => {
    const keys = (file: string) => sweepParams(read(file)).map((p) => p.key);
    // DLPM behind round-robin routing: Q^u, not DoubleQ's Q^w (a first-time user was offered it)
    expect(keys('scenarios/guarantee-dlpm.yaml')).toContain('scheduler.quantum');
    expect(keys('scenarios/guarantee-dlpm.yaml')).not.toContain('router.worker_quantum');
    // DoubleQ over DLPM: both
    expect(keys('scenarios/paper-qa-s1-4w.yaml')).toEqual(
      expect.arrayContaining(['scheduler.quantum', 'router.worker_quantum']),
    );
    // LPM: neither
    const lpm = keys('scenarios/lpm-tot-s1.yaml');
    expect(lpm).not.toContain('scheduler.quantum');
    expect(lpm).not.toContain('router.worker_quantum');
  });
});
