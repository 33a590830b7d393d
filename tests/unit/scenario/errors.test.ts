import { describe, expect, it } from 'vitest';
import { formatProblems } from '../../../src/format/yaml';
import { parseScenarioText } from '../../../src/scenario/index';

function errors(text: string): string[] {
  const res = parseScenarioText(text);
  if (res.ok) throw new Error('expected problems');
  return formatProblems(res.problems, 'bad.yaml').split('\n');
}

const HEAD = `version: 1
name: bad
`;
const CLIENT = `clients:
  - name: alice
    arrival: { process: poisson, rate: 2 }
    program:
      type: single
`;

describe('scenario validation errors (file:line:col)', () => {
  it('unknown key with a did-you-mean hint, at the key', () => {
    const text = `${HEAD}cluster:
  workers: 2
  max_bach_tokens: 4096
${CLIENT}`;
    const [e] = errors(text);
    expect(e).toMatch(
      /^bad\.yaml:5:3: cluster: unknown key 'max_bach_tokens' \(did you mean 'max_batch_tokens'\?\)/,
    );
  });

  it('unknown key inside a program lists only that program type’s keys', () => {
    const text = `${HEAD}clients:
  - name: alice
    arrival: { process: poisson, rate: 2 }
    program:
      type: judge
      dimension: 4
`;
    const [e] = errors(text);
    expect(e).toMatch(
      /^bad\.yaml:8:7: clients\[0\]\.program: unknown key 'dimension' \(did you mean 'dimensions'\?\)/,
    );
    expect(e).toContain('allowed keys: type, dimensions, article_tokens');
    expect(e).not.toContain('turns');
  });

  it('negative rate, at the value', () => {
    const text = `${HEAD}clients:
  - name: alice
    arrival: { process: gamma, rate: -1, cv: 2 }
    program: { type: single }
`;
    expect(errors(text)).toEqual(['bad.yaml:5:38: clients[0].arrival.rate: rate must be > 0']);
  });

  it('wrong type', () => {
    const text = `${HEAD}cluster:
  workers: four
${CLIENT}`;
    expect(errors(text)).toEqual(['bad.yaml:4:12: cluster.workers: workers must be a whole number']);
  });

  it('bad enum with a hint', () => {
    const text = `${HEAD}scheduler:
  policy: dlmp
${CLIENT}`;
    const [e] = errors(text);
    expect(e).toMatch(
      /^bad\.yaml:4:11: scheduler\.policy: policy must be one of 'fcfs', .* \(did you mean 'dlpm'\?\)$/,
    );
  });

  it('charge of VTC and of DoubleQ: input or extend, defaulting to input', () => {
    const vtc = `${HEAD}scheduler:
  policy: vtc
  charge: uncached
${CLIENT}`;
    expect(errors(vtc)[0]).toMatch(/^bad\.yaml:5:11: .*charge must be 'input' or 'extend'/);
    const ok = parseScenarioText(`${HEAD}cluster: { workers: 2 }
router: { routing: doubleq, charge: extend }
scheduler: { policy: vtc }
${CLIENT}`);
    if (!ok.ok) throw new Error(formatProblems(ok.problems, 'ok.yaml'));
    const { router, scheduler } = ok.value;
    expect(router.routing === 'doubleq' && router.charge).toBe('extend');
    expect(scheduler.policy === 'vtc' && scheduler.charge).toBe('input');
  });

  it('VTC client_weights: names of clients, weights from 0.001; an unknown name is refused at its key', () => {
    const ok = parseScenarioText(`${HEAD}scheduler:
  policy: vtc
  client_weights: { alice: 2, bob: 0.5 }
${CLIENT}requests:
  - { t: 0, client: bob, prompt_tokens: 10, output_tokens: 2 }
`);
    if (!ok.ok) throw new Error(formatProblems(ok.problems, 'ok.yaml'));
    const s = ok.value.scheduler;
    expect(s.policy === 'vtc' && s.client_weights).toEqual({ alice: 2, bob: 0.5 });
    expect(s.policy === 'vtc' && s.output_charge).toBe('token');
    const plain = parseScenarioText(`${HEAD}scheduler: { policy: vtc }\n${CLIENT}`);
    expect(
      plain.ok && plain.value.scheduler.policy === 'vtc' && plain.value.scheduler.client_weights,
    ).toEqual({});
    const unknown = errors(`${HEAD}scheduler:
  policy: vtc
  client_weights: { alice: 2, carol: 3 }
${CLIENT}`);
    expect(unknown[0]).toMatch(/^bad\.yaml:5:31: .*'carol', which is no client of this scenario/);
    // what to write instead: the likely client of a typo, else the scenario's clients
    expect(unknown[0]).toMatch(/no client of this scenario; its clients: 'alice'$/);
    // one round: a bad weight and an unknown name are both reported (the tryout saw only the first)
    const both = errors(`${HEAD}scheduler:
  policy: vtc
  client_weights: { alice: 0, carol: 1 }
${CLIENT}`);
    expect(both).toHaveLength(2);
    expect(both.some((e) => /'carol', which is no client/.test(e))).toBe(true);
    expect(both.some((e) => /alice/.test(e) && !/no client/.test(e))).toBe(true);
    const typo = errors(`${HEAD}scheduler:
  policy: vtc
  client_weights: { alcie: 2 }
${CLIENT}`);
    expect(typo[0]).toMatch(
      /^bad\.yaml:5:21: .*'alcie', which is no client of this scenario \(did you mean 'alice'\?\)$/,
    );
    expect(
      errors(`${HEAD}scheduler:
  policy: vtc
  client_weights: { alice: 0 }
${CLIENT}`)[0],
    ).toMatch(/client weight must be ≥ 0.001/);
  });

  it('bad program type and bad distribution name', () => {
    const text = `${HEAD}clients:
  - name: alice
    arrival: { process: poison, rate: 1 }
    program:
      type: single
      prompt_tokens: { dist: gaussian, mean: 5, std: 1 }
`;
    const es = errors(text);
    expect(es[0]).toMatch(
      /^bad\.yaml:5:25: clients\[0\]\.arrival\.process: process must be one of .* \(did you mean 'poisson'\?\)$/,
    );
    expect(es[1]).toMatch(/^bad\.yaml:8:30: clients\[0\]\.program\.prompt_tokens\.dist: dist must be one of/);
  });

  it('a distribution with a missing key names the key; a wrong scalar names the alternatives', () => {
    const text = `${HEAD}clients:
  - name: alice
    arrival: { process: poisson, rate: 1 }
    program:
      type: single
      prompt_tokens: { dist: normal, mean: 5 }
      output_tokens: lots
`;
    expect(errors(text)).toEqual([
      "bad.yaml:8:22: clients[0].program.prompt_tokens: missing required key 'std'",
      'bad.yaml:9:22: clients[0].program.output_tokens: expected a number or a mapping',
    ]);
  });

  it('missing required keys', () => {
    const text = `version: 1
clients:
  - name: alice
    program: { type: single }
`;
    expect(errors(text)).toEqual([
      "bad.yaml:1:1: document: missing required key 'name'",
      "bad.yaml:3:5: clients[0]: missing required key 'arrival'",
    ]);
  });

  it('version must be 1', () => {
    expect(errors(`version: 2\nname: x\n${CLIENT}`)).toEqual([
      'bad.yaml:1:10: version: version must be 1 (the only scenario format so far)',
    ]);
  });

  it('YAML syntax errors keep their position', () => {
    const [e] = errors(`version: 1\nname: [unclosed\n`);
    expect(e).toMatch(/^bad\.yaml:\d+:\d+: /);
  });

  it('zero quantum and kv_cache_tokens forms', () => {
    const text = `${HEAD}cluster:
  kv_cache_tokens: automatic
scheduler:
  quantum: 0
${CLIENT}`;
    expect(errors(text)).toEqual([
      "bad.yaml:4:20: cluster.kv_cache_tokens: kv_cache_tokens must be 'auto' or a whole number of tokens",
      'bad.yaml:6:12: scheduler.quantum: quantum must be ≥ 1',
    ]);
  });

  it('reports every problem, sorted by position', () => {
    const text = `${HEAD}duration_s: -5
cluster:
  workers: 0
  gpu: b200
${CLIENT}`;
    const es = errors(text);
    expect(es.length).toBe(3);
    expect(es.map((e) => e.split(':').slice(1, 3).join(':'))).toEqual(['3:13', '5:12', '6:8']);
  });
});

describe('cross-field rules', () => {
  it('duplicate client names', () => {
    const text = `${HEAD}clients:
  - { name: a, arrival: { process: poisson, rate: 1 }, program: { type: single } }
  - { name: a, arrival: { process: poisson, rate: 1 }, program: { type: single } }
`;
    expect(errors(text)).toEqual(["bad.yaml:5:13: duplicate client name 'a' (also clients[0])"]);
  });

  it('a model that does not fit on the GPU', () => {
    const text = `${HEAD}cluster:
  gpu: a10g-24gb
  model: qwen3-14b
${CLIENT}`;
    const [e] = errors(text);
    expect(e).toMatch(
      /^bad\.yaml:5:10: Qwen3-14B needs 27\.5 GiB of weights and does not fit in NVIDIA A10G 24 GB's 24 GiB/,
    );
  });

  it('too many expected requests', () => {
    const text = `${HEAD}duration_s: 86400
clients:
  - name: alice
    arrival: { process: poisson, rate: 100 }
    program: { type: tree-of-thought, depth: 2, branching: 2 }
`;
    expect(errors(text)).toEqual([
      'bad.yaml:3:1: this scenario would inject about 51,840,000 requests; the limit is 2,000,000 (lower rates, duration_s or program sizes)',
    ]);
  });

  it('a program whose context cannot fit in one replica', () => {
    const text = `${HEAD}cluster: { kv_cache_tokens: 4000 }
clients:
  - name: alice
    arrival: { process: poisson, rate: 1 }
    program: { type: long-qa, document_tokens: 20000 }
`;
    expect(errors(text)[0]).toMatch(
      /^bad\.yaml:7:14: a long-qa request of client 'alice' typically reaches 20,047 tokens/,
    );
  });

  it('scripted request ids may not use the generated ids’ characters', () => {
    const text = `${HEAD}requests:
  - { t: 20, client: a, prompt_tokens: 10, output_tokens: 1, id: a!0 }
`;
    expect(errors(text)).toEqual([
      "bad.yaml:4:66: requests[0].id: id may only contain letters, digits, '_', '.' and '-'",
    ]);
  });

  it('scripted shared prefixes must fit the prompt and be named; ids unique', () => {
    const text = `${HEAD}requests:
  - { t: 1, client: a, prompt_tokens: 10, shared_prefix_tokens: 20, output_tokens: 1 }
  - { t: 1, client: b, prompt_tokens: 10, output_tokens: 1, id: x }
  - { t: 1, client: c, prompt_tokens: 10, output_tokens: 1, id: x }
`;
    expect(errors(text)).toEqual([
      'bad.yaml:4:65: shared_prefix_tokens (20) must be ≤ prompt_tokens (10)',
      'bad.yaml:4:65: shared_prefix_tokens needs shared_prefix (the name of the prefix the requests share)',
      "bad.yaml:6:65: duplicate request id 'x' (also requests[1])",
    ]);
  });

  it('scripted times after duration_s', () => {
    const text = `${HEAD}duration_s: 10
requests:
  - { t: 20, client: a, prompt_tokens: 10, output_tokens: 1 }
`;
    expect(errors(text)).toEqual(['bad.yaml:5:10: t (20) is after duration_s (10)']);
  });

  it('policy and policy_file together; policy_file without a file reader', () => {
    const both = `${HEAD}router:
  policy: { policy_classes: [{ name: a, quantum: 1 }] }
  policy_file: p.yaml
${CLIENT}`;
    expect(errors(both)).toContain('bad.yaml:5:3: give either policy (inline) or policy_file, not both');
    const fileOnly = `${HEAD}router:
  policy_file: p.yaml
${CLIENT}`;
    expect(errors(fileOnly)).toEqual([
      'bad.yaml:4:16: policy_file works from the command line only; paste the policy under router.policy here',
    ]);
  });

  it('an empty workload', () => {
    expect(errors(HEAD)).toEqual([
      'bad.yaml:1:1: no clients and no requests: add at least one client (or a scripted request)',
    ]);
  });
});

// A trace section's column names and file say what is wrong with them: an empty or over-long name
// read "must be a column name" (the type's message), and an empty file "must be a path".
describe('trace.columns and trace.file say what is wrong', () => {
  it('an empty or too long column name, an empty file', () => {
    const text = `${HEAD}duration_s: 10
trace:
  file: ''
  columns: { timestamp: '', input: ${'c'.repeat(300)}, output: gen }
`;
    expect(errors(text)).toEqual([
      'bad.yaml:5:9: trace.file: file must not be empty',
      'bad.yaml:6:25: trace.columns.timestamp: columns.timestamp must not be empty',
      'bad.yaml:6:36: trace.columns.input: columns.input must be at most 200 characters',
    ]);
  });
});

// A weight divides every charge to the client's counter: 1e-320 validated, and its client's counter
// was Infinity after the first charge (the decision log read "smallest counter (Infinity)", the
// trace JSONL wrote null). The lower bound mirrors the upper one, 1/1000 to 1000.
describe('VTC client_weights are at least 0.001', () => {
  it('a tiny weight is refused at its value', () => {
    for (const w of ['1e-320', '5e-324', '0.0009'])
      expect(
        errors(`${HEAD}scheduler:
  policy: vtc
  client_weights: { alice: ${w} }
${CLIENT}`),
      ).toEqual(['bad.yaml:5:28: scheduler.client_weights.alice: client weight must be ≥ 0.001']);
    const ok = parseScenarioText(`${HEAD}scheduler:
  policy: vtc
  client_weights: { alice: 0.001 }
${CLIENT}`);
    expect(ok.ok).toBe(true);
  });
});
