import { describe, expect, it } from 'vitest';
import { outlineOf } from '../../../src/scenario';

describe('a document outline (what the page reads of any text, valid or not)', () => {
  it("reads a scenario's scheduler, routing and inline policy, with the schema's defaults", () => {
    const text =
      'version: 1\nname: c\nscheduler: {policy: dlpm}\nrouter:\n  routing: kv-aware\n  policy:\n    policy_classes:\n      - {name: X, quantum: 5}\n';
    expect(outlineOf(text)).toEqual({
      kind: 'scenario',
      name: 'c',
      scheduler: 'dlpm',
      routing: 'kv-aware',
      policy_yaml: 'policy_classes:\n  - name: X\n    quantum: 5\n',
    });
    expect(outlineOf('version: 1\nname: 7\n')).toEqual({
      kind: 'scenario',
      name: '7',
      scheduler: 'fcfs',
      routing: 'round-robin',
      policy_yaml: '',
    });
    // a key of the wrong shape reads as absent, it does not throw
    expect(outlineOf('router: [1, 2]\nscheduler: {policy: {x: 1}}\n')).toMatchObject({
      scheduler: 'fcfs',
      routing: 'round-robin',
      policy_yaml: '',
    });
  });

  it("reads a script's name and policy", () => {
    const script = 'name: s\npolicy:\n  policy_classes:\n    - {name: A, quantum: 10}\nops:\n  - pop: {}\n';
    expect(outlineOf(script)).toEqual({
      kind: 'script',
      name: 's',
      policy_yaml: 'policy_classes:\n  - name: A\n    quantum: 10\n',
    });
  });

  it('keeps the top-level name line of text that does not parse, and nothing else', () => {
    expect(outlineOf("name: 'Broken one'\nops: [\n")).toEqual({ kind: 'other', name: 'Broken one' });
    expect(outlineOf('a: [')).toEqual({ kind: 'other', name: null });
    expect(outlineOf('- just a list')).toEqual({ kind: 'other', name: null });
  });
});
