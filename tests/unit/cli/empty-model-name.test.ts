/**
 * A `models:` entry whose name is empty (Dynamo requires a non-empty model name) was reported as
 * `file:3:5: models.: models must map model names to profiles`, at the profile's first key, with a
 * message that names no fault (#tryout): the key's own rule was hidden behind the record's message.
 * It now reads `models: a model name must not be empty`, at the empty key.
 */
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';
import { validateCommand } from '../../../src/cli/validate';

const PROFILE = [
  '    default_policy_family: s',
  '    uncached_isl_buckets: [{min_tokens: 0, bucket: c}]',
  '    policy_classes: [{name: e, policy_family: s, cache_bucket: c, quantum: 1}]',
];

describe('an empty model name in a policy file', () => {
  it('validate says the name is empty, at the key', async () => {
    const io = memoryIO({
      'p.yaml': ['models:', "  '':", ...PROFILE, '  m1:', ...PROFILE, ''].join('\n'),
    });
    expect(await validateCommand(['p.yaml'], io)).toBe(1);
    expect(io.stderr).toEqual(['p.yaml:2:3: models: a model name must not be empty']);
    expect(io.stdout).toEqual([]);
  });

  it('run --policy reports it against the policy file the same way', async () => {
    const io = memoryIO({
      'p.yaml': ['models:', '  "":', ...PROFILE, ''].join('\n'),
      's.yaml': [
        'version: 1',
        'name: s',
        'duration_s: 1',
        'cluster: { workers: 1 }',
        'clients:',
        '  - name: a',
        '    arrival: { process: poisson, rate: 1 }',
        '    program: { type: single, prompt_tokens: 10, output_tokens: 2 }',
        '',
      ].join('\n'),
    });
    expect(await runCommand(['s.yaml', '--policy', 'p.yaml'], io)).toBe(1);
    expect(io.stderr.join('\n')).toBe('p.yaml:2:3: models: a model name must not be empty');
  });
});
