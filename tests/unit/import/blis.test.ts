import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importBlis, modelProfile } from '../../../src/import/blis';
import { parseScenarioText } from '../../../src/scenario';
import { pc } from '../program-client';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

function ok(workload: string, bundle?: string) {
  const r = importBlis(workload, bundle);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const parsed = parseScenarioText(r.scenarioYaml);
  if (!parsed.ok) throw new Error(`${r.scenarioYaml}\n${JSON.stringify(parsed.problems)}`);
  return { ...r, scenario: parsed.value };
}

function problems(workload: string, bundle?: string): string[] {
  const r = importBlis(workload, bundle);
  if (r.ok) throw new Error('expected problems');
  return r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

const MINIMAL = (client: string, top = 'aggregate_rate: 10\nhorizon: 60000000\n') =>
  `version: "2"\n${top}clients:\n${client}`;
const ONE = `  - id: a
    rate_fraction: 1
    arrival: {process: poisson}
    input_distribution: {type: constant, params: {value: 100}}
    output_distribution: {type: constant, params: {value: 10}}
`;

describe('importBlis: a shared-prefix workload without a policy bundle', () => {
  it('produces exactly this scenario, which the scenario parser accepts', () => {
    const r = ok(fixture('prefix-affinity.yaml'));
    expect(r.scenarioYaml).toBe(`version: 1
name: "BLIS workload: chat-with-system-prompt, unique-requests"
description: |
  Imported from a BLIS workload spec (aggregate rate 500 requests/s).

  What was mapped, approximated or left out:

  - client 'chat-with-system-prompt': prompt_tokens include the 256-token shared prefix (BLIS adds it to the input distribution)
  - client 'chat-with-system-prompt': not modelled, left out: tenant_id, streaming
  - client 'unique-requests': not modelled, left out: tenant_id
  - num_requests 200 at about 500 requests/s → duration_s 0.4 (Fairground stops arrivals at a time, not after a count)
  - BLIS takes the instance count, GPU and model on its command line, not in the spec: the cluster is 2 × a100-80gb running llama-3.1-8b; edit cluster: to match your run
  - no policy bundle: BLIS defaults used (round-robin routing, fcfs scheduler)
seed: 42
duration_s: 0.4
cluster:
  workers: 2
  gpu: a100-80gb
  model: llama-3.1-8b
router:
  routing: round-robin
scheduler:
  policy: fcfs
clients:
  - name: chat-with-system-prompt
    slo_class: standard
    prefix_group: long-system-prompt
    arrival: { process: poisson, rate: 400 }
    program:
      type: single
      prompt_tokens: { dist: normal, mean: 320, std: 20, min: 272, max: 512 }
      output_tokens: { dist: exponential, mean: 128 }
      shared_prefix_tokens: 256
  - name: unique-requests
    slo_class: batch
    arrival: { process: poisson, rate: 100 }
    program:
      type: single
      prompt_tokens: { dist: exponential, mean: 512 }
      output_tokens: { dist: exponential, mean: 256 }
`);
    expect(r.notes).toHaveLength(6);
    expect(r.scenario.clients.map((c) => pc(c).arrival)).toMatchObject([{ rate: 400 }, { rate: 100 }]);
  });

  it('is deterministic', () => {
    expect(importBlis(fixture('prefix-affinity.yaml'))).toEqual(importBlis(fixture('prefix-affinity.yaml')));
  });
});

describe('importBlis: mixed clients with a policy bundle', () => {
  const r = ok(fixture('mixed.yaml'), fixture('bundle.yaml'));
  const [chat, nightly] = r.scenario.clients;

  it('maps rates, arrivals, multi-turn rounds, windows, seed and duration', () => {
    expect(r.scenario.seed).toBe(7);
    expect(r.scenario.duration_s).toBe(120);
    expect(r.scenario.clients).toHaveLength(2);
    expect(chat.name).toBe('interactive-chat');
    expect(chat.slo_class).toBe('critical');
    expect(pc(chat).arrival).toMatchObject({ process: 'gamma', rate: 15, cv: 2.5 });
    expect(pc(chat).program).toMatchObject({ type: 'multi-turn', turns: 4, think_time_s: 2.5 });
    expect(pc(nightly).arrival).toMatchObject({ process: 'gamma', rate: 5, cv: 4, start_s: 10, stop_s: 60 });
    expect(pc(nightly).program).toMatchObject({ type: 'single', prompt_tokens: 2048 });
  });

  it('approximates the heavy-tailed and empirical lengths by their mean and std', () => {
    // Pareto(2.5, 100) has mean 166.667; lognormal(5.5, 0.8) has mean e^5.82 = 336.97; 0.3/0.7 mix → 285.88.
    expect(pc(chat).program).toMatchObject({
      prompt_tokens: { dist: 'lognormal', mean: 285.88 },
      // 64·0.5 + 128·0.3 + 512·0.2 = 172.8
      output_tokens: { dist: 'normal', mean: 172.8, min: 64, max: 512 },
    });
  });

  it('maps the bundle and says what it left out', () => {
    expect(r.scenario.router.routing).toBe('kv-aware');
    expect(r.scenario.scheduler.policy).toBe('priority-fcfs');
    const joined = r.notes.join('\n');
    for (const bit of [
      'weibull arrivals approximated by gamma with the same cv (2.5)',
      "id 'interactive chat' renamed",
      'pareto_lognormal approximated by a lognormal',
      'the empirical table (3 bins) is approximated by a normal',
      'closed-loop clients (concurrency 8)',
      'cohorts (1) are not imported',
      "admission 'token-bucket' is not modelled",
      'routing weighted → router.routing kv-aware',
      'scheduler priority-fcfs → scheduler.policy priority-fcfs',
    ])
      expect(joined).toContain(bit);
    expect(r.scenario.description).toContain(
      '- policy bundle: scheduler priority-fcfs → scheduler.policy priority-fcfs',
    );
  });
});

describe('importBlis: routing and scheduler choices', () => {
  const routed = (bundle: string) => ok(MINIMAL(ONE), bundle).scenario.router.routing;
  it.each([
    ['routing: {policy: round-robin}', 'round-robin'],
    ['routing: {policy: least-loaded}', 'least-loaded'],
    ['routing: {policy: prefix-affinity}', 'kv-aware'],
    ['routing: {policy: weighted}', 'kv-aware'],
    [
      'routing: {policy: weighted, scorers: [{name: queue-depth, weight: 1}, {name: kv-utilization, weight: 2}]}',
      'least-loaded',
    ],
    ['routing: {policy: always-busiest}', 'round-robin'],
    ['scheduler: sjf', 'round-robin'],
  ])('%s → %s', (bundle, routing) => {
    expect(routed(bundle)).toBe(routing);
  });
  it.each(['fcfs', 'priority-fcfs', 'sjf', 'reverse-priority'])('scheduler %s keeps its name', (s) => {
    expect(ok(MINIMAL(ONE), `scheduler: ${s}`).scenario.scheduler.policy).toBe(s);
  });
});

describe('importBlis: details of the client mapping', () => {
  it('reads version-1 SLO names, defaults the prefix to 50 tokens and makes names unique', () => {
    const spec = `version: "1"
aggregate_rate: 4
clients:
  - id: "same name"
    slo_class: realtime
    rate_fraction: 1
    prefix_group: sys
    arrival: {process: constant}
    input_distribution: {type: gaussian, params: {mean: 100, std_dev: 10, min: 100, max: 100}}
    output_distribution: {type: exponential, params: {mean: 20}}
  - id: "same name"
    slo_class: interactive
    rate_fraction: 1
    prefix_group: sys
    arrival: {process: gamma}
    input_distribution: {type: exponential, params: {mean: 40}}
    output_distribution: {type: constant, params: {value: 5}}
`;
    const r = ok(spec);
    const [a, b] = r.scenario.clients;
    expect([a.name, b.name]).toEqual(['same-name', 'same-name-2']);
    expect([a.slo_class, b.slo_class]).toEqual(['critical', 'standard']);
    expect(pc(a).program).toMatchObject({ type: 'single', prompt_tokens: 150, shared_prefix_tokens: 50 });
    // An exponential after a fixed prefix becomes a normal with the same mean and std.
    expect(pc(b).program).toMatchObject({
      prompt_tokens: { dist: 'normal', mean: 90, std: 40, min: 51, max: 450 },
    });
    expect(pc(a).arrival).toMatchObject({ process: 'constant', rate: 2 });
    expect(pc(b).arrival).toMatchObject({ process: 'gamma', cv: 1 });
    expect(r.scenario.duration_s).toBe(60);
    const joined = r.notes.join('\n');
    expect(joined).toContain("version-1 slo_class 'realtime' read as 'critical'");
    expect(joined).toContain("BLIS's default of 50 shared tokens used");
    expect(joined).toContain('gamma arrivals without cv: cv 1 used');
    expect(joined).toContain('neither horizon nor num_requests is given: duration_s 60');
  });

  it('picks the cluster model from the clients and folds an out-of-range seed', () => {
    const spec = MINIMAL(
      `${ONE}    model: Qwen/Qwen3-14B\n`,
      'seed: -5\naggregate_rate: 1\nhorizon: 1000000000000\n',
    );
    const r = ok(spec);
    expect(r.scenario.cluster.model).toBe('qwen3-14b');
    expect(r.scenario.seed).toBe(5);
    expect(r.scenario.duration_s).toBe(86_400);
    expect(r.notes.join('\n')).toContain('duration_s capped at 86400');
    expect(modelProfile('meta-llama/llama-3.1-8b-instruct')).toBe('llama-3.1-8b');
    expect(modelProfile('mistral-7b')).toBeNull();
  });

  it('accepts multi_turn at the client level with a note', () => {
    const r = ok(MINIMAL(`${ONE}    multi_turn: {max_rounds: 3, think_time_us: 100000}\n`));
    expect(pc(r.scenario.clients[0]).program).toMatchObject({
      type: 'multi-turn',
      turns: 3,
      think_time_s: 0.1,
    });
    expect(r.notes.join('\n')).toContain('multi_turn is read as reasoning.multi_turn');
  });
});

describe('importBlis: invalid input gives positioned problems', () => {
  it('unknown keys, with a hint', () => {
    const spec = MINIMAL(ONE.replace('rate_fraction', 'rate_fracton'));
    expect(problems(spec)).toEqual([
      "6:5: clients[0]: unknown key 'rate_fracton' (did you mean 'rate_fraction'?); allowed keys: id, tenant_id, slo_class, model, rate_fraction, arrival, input_distribution, output_distribution, prefix_group, prefix_length, streaming, network, multimodal, reasoning, timeout, closed_loop, slo_target_us, concurrency, think_time_us, lifecycle, multi_turn",
    ]);
  });

  it('bad values and missing parameters point at their line', () => {
    const spec = MINIMAL(
      ONE.replace('{process: poisson}', '{process: pareto}').replace(
        '{type: constant, params: {value: 10}}',
        '{type: gaussian, params: {mean: 10}}',
      ),
    );
    expect(problems(spec)).toEqual([
      "7:24: clients[0].arrival.process: process must be one of 'poisson', 'gamma', 'weibull', 'constant'",
    ]);
    const gauss = MINIMAL(
      ONE.replace('{type: constant, params: {value: 10}}', '{type: gaussian, params: {mean: 10}}'),
    );
    expect(problems(gauss)).toEqual([
      '9:26: clients[0].output_distribution: a gaussian distribution needs params.std_dev',
    ]);
    const slo = MINIMAL(`${ONE}    slo_class: urgent\n`);
    expect(problems(slo)).toEqual([
      '10:16: slo_class must be one of critical, standard, sheddable, batch, background (or empty)',
    ]);
  });

  it('missing rates and nothing importable', () => {
    expect(problems(`clients:\n${ONE}`)).toEqual(['1:1: aggregate_rate must be > 0']);
    expect(problems('aggregate_rate: 5\ncohorts: [{id: x, population: 3}]\n')).toEqual([
      '1:1: nothing to import: the spec has no rate-based clients (cohorts, servegen_data, inference_perf and concurrency clients are not supported)',
    ]);
    expect(problems(MINIMAL(ONE.replace('    rate_fraction: 1\n', '')))).toEqual([
      '5:5: rate_fraction must be > 0',
    ]);
  });

  it('broken YAML, a non-mapping, and a bad policy bundle (positions in the bundle text)', () => {
    expect(problems('clients: [')[0]).toMatch(/^1:\d+: /);
    expect(problems('- 1\n- 2\n')).toEqual(['1:1: expected a BLIS workload spec: a YAML mapping of keys']);
    expect(problems(MINIMAL(ONE), 'admission:\n  policy: always-admit\nscheduler: lifo\n')).toEqual([
      "3:12: policy bundle: scheduler: scheduler must be one of 'fcfs', 'priority-fcfs', 'sjf', 'reverse-priority'",
    ]);
    expect(problems(MINIMAL(ONE), 'routing:\n  polcy: weighted\n')).toEqual([
      "2:3: policy bundle: routing: unknown key 'polcy' (did you mean 'policy'?); allowed keys: policy, scorers",
    ]);
  });
});
