/**
 * Exact-worker lanes and due times in cluster runs (#14): the router passes each pop the current
 * time and each head's pinned worker, as Dynamo's scheduler does (the pinned rank's busy test only;
 * a blocked pinned head does not hold back the rest of its class; a queued request whose due time
 * has passed is shed at the next pop that examines its class). Dynamo's scheduler drains by calling
 * pop_next until it returns nothing, also when every head is blocked, so a class's carry never
 * outlives one drain: the engine does the same.
 */
import { describe, expect, it } from 'vitest';
import { PolicyQueue } from '../../../src/core/drr';
import type { CompiledPolicy } from '../../../src/core/drr/types';
import type { DecisionRecord } from '../../../src/core/sim';
import { Simulation } from '../../../src/core/sim';
import { parsePolicyText } from '../../../src/policy';
import { parseScenarioText, type Scenario } from '../../../src/scenario';

function scenario(requests: string, workers = 2, routerExtra = ''): Scenario {
  const r = parseScenarioText(`version: 1
name: pins
seed: 1
duration_s: 2
cluster: { workers: ${workers}, kv_cache_tokens: 60000, max_batch_tokens: 1024, max_running: 16 }
router:
  routing: least-loaded${routerExtra}
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
    policy_classes:
      - {name: main, policy_family: std, cache_bucket: any, quantum: 100, prefill_busy_threshold: 0}
scheduler: { policy: fcfs }
requests:
${requests}
`);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col} ${p.message}`).join('\n'));
  return r.value;
}

const REQUESTS = `  - { t: 0.000, client: c, id: p0, prompt_tokens: 4000, output_tokens: 4, worker: 0 }
  - { t: 0.001, client: c, id: p1, prompt_tokens: 500, output_tokens: 4, worker: 0 }
  - { t: 0.002, client: c, id: u1, prompt_tokens: 500, output_tokens: 4 }
  - { t: 0.003, client: c, id: d1, prompt_tokens: 500, output_tokens: 4, worker: 0, due_in_s: 0.01 }
  - { t: 0.004, client: c, id: e1, prompt_tokens: 500, output_tokens: 4, worker: 0, due_in_s: 100 }`;

function run(
  requests: string,
  routerExtra = '',
): { sim: Simulation; decisions: DecisionRecord[]; carries: (string | null)[] } {
  const sim = new Simulation(scenario(requests, 2, routerExtra), { record: true });
  const decisions: DecisionRecord[] = [];
  sim.onDecision = (d) => decisions.push(d);
  const carries: (string | null)[] = [];
  const q = sim.router.queue;
  if (q === null) throw new Error('no policy queue');
  while (sim.stepEvent()) carries.push(q.snapshot(0).carry);
  expect(sim.checkInvariants()).toEqual([]);
  return { sim, decisions, carries };
}

describe('pinned requests and due times in a cluster run', () => {
  const { decisions, carries } = run(REQUESTS);
  const dispatches = decisions.filter((d) => d.kind === 'dispatch');
  const order = dispatches.map((d) => d.request);
  const workerOf = (id: string) => dispatches.find((d) => d.request === id)?.worker;

  it('a pinned request goes to its worker, and waits in its lane while that worker is busy', () => {
    expect(workerOf('p0')).toBe(0);
    expect(workerOf('p1')).toBe(0);
    expect(workerOf('e1')).toBe(0);
    const queued = decisions.find((d) => d.kind === 'enqueue' && d.request === 'p1');
    expect(queued?.summary).toContain('its worker 0 is busy');
    expect(queued?.summary).toContain("worker 0's lane");
  });

  it('a blocked pinned head does not hold back an unpinned request of its class (v1.4+ lanes)', () => {
    // u1 arrived after p1 in the same FCFS class; p1's worker is busy, worker 1 is idle
    expect(order.indexOf('u1')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('u1')).toBeLessThan(order.indexOf('p1'));
    expect(workerOf('u1')).toBe(1);
  });

  it('a due time orders its request first in its tier, and a passed one is shed unserved', () => {
    expect(order.indexOf('e1')).toBeLessThan(order.indexOf('p1')); // due first, then FCFS
    expect(order).not.toContain('d1');
    const shed = decisions.find((d) => d.kind === 'reject' && d.request === 'd1');
    expect(shed?.detail).toMatchObject({ reason: 'due_time_passed', due_s: 0.003 + 0.01 });
    expect(shed?.t).toBeGreaterThan(0.013);
  });

  it('the carry never outlives a drain: the last pop of each drain returns nothing and consumes it', () => {
    expect(carries.length).toBeGreaterThan(0);
    expect(carries.every((c) => c === null)).toBe(true);
  });

  it('a pin to a worker the cluster does not have is an error at its line', () => {
    const r = parseScenarioText(`version: 1
name: bad pin
duration_s: 1
cluster: { workers: 2 }
requests:
  - { t: 0, client: c, prompt_tokens: 10, output_tokens: 1, worker: 2 }
`);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.problems[0]).toMatchObject({
        line: 6,
        message: expect.stringContaining('worker 2 does not exist'),
      });
  });
});

describe('v1.3: one heap per class (router.dynamo_release)', () => {
  // p0 fills worker 0 (4000 prompt tokens), p1 is pinned to worker 0 too, u1 (unpinned, later) could
  // run on idle worker 1: with lanes u1 goes first; with v1.3's single heap p1 heads the FCFS class,
  // its worker is busy, and it blocks u1 until worker 0 frees up
  const PINS = REQUESTS.split('\n').slice(0, 3).join('\n');
  const orderOf = (extra: string) => {
    const { decisions } = run(PINS, extra);
    const dispatches = decisions.filter((d) => d.kind === 'dispatch');
    return {
      order: dispatches.map((d) => d.request),
      at: (id: string) => dispatches.find((d) => d.request === id)?.t ?? -1,
      enqueue: (id: string) => decisions.find((d) => d.kind === 'enqueue' && d.request === id)?.summary ?? '',
    };
  };
  const lanes = orderOf('');
  const v14 = orderOf('\n  dynamo_release: v1.4');
  const v13 = orderOf('\n  dynamo_release: v1.3');

  it('lanes (the default, v1.6): u1 overtakes the blocked pinned p1', () => {
    expect(lanes.order).toEqual(['p0', 'u1', 'p1']);
  });

  it('v1.4 lanes: u1 is stored and waits for the first update, where p1 (earlier, its worker now free) goes first', () => {
    // no drain after an arrival up to v1.5, and no update before p0's prefill completes on worker 0
    // (the router's record drops p0's 4000 tokens only then): p1 and u1 leave together at that update
    expect(v14.order).toEqual(['p0', 'p1', 'u1']);
    expect(v14.at('u1')).toBe(v14.at('p1'));
    expect(v14.at('u1')).toBeGreaterThan(lanes.at('u1'));
    expect(v14.enqueue('p1')).toContain("worker 0's lane");
  });

  it('v1.3: the blocked pinned head p1 holds back u1 until its worker frees up', () => {
    expect(v13.order).toEqual(['p0', 'p1', 'u1']);
    // u1 waits: it leaves no earlier than p1, which waited for p0's prefill on worker 0
    expect(v13.at('u1')).toBeGreaterThanOrEqual(v13.at('p1'));
    expect(v13.at('u1')).toBeGreaterThan(lanes.at('u1'));
    expect(v13.enqueue('p1')).not.toContain('lane');
    expect(lanes.enqueue('p1')).toContain("worker 0's lane");
  });

  it('is refused without a policy, with a policy that release does not accept, and with due times', () => {
    const problems = (yaml: string) => {
      const r = parseScenarioText(yaml);
      return r.ok ? [] : r.problems.map((p) => `${p.line}: ${p.message}`);
    };
    const head =
      'version: 1\nname: r\nduration_s: 1\nrequests: [{ t: 0, client: c, prompt_tokens: 10, output_tokens: 1, due_in_s: 1 }]\n';
    expect(problems(`${head}router: { dynamo_release: v1.3 }\n`)).toEqual([
      "5: dynamo_release chooses how the router's policy-class queues behave; without a policy (router.policy or policy_file) there are none",
    ]);
    const ws =
      'router:\n  dynamo_release: v1.3\n  policy:\n    default_policy_family: f\n    uncached_isl_buckets: [{min_tokens: 0, bucket: b}]\n    policy_classes: [{name: x, policy_family: f, cache_bucket: b, quantum: 1}]\n    worker_selection: {aggregated: default}\n';
    expect(problems(`${head}${ws}`)).toEqual([
      "4: due_in_s stands for a classifier's due_at, which only Dynamo v1.6.0 – v1.6.1 has; router.dynamo_release models Dynamo v1.3.0",
      '6: Dynamo v1.3.0 does not accept this policy file, which is valid for Dynamo v1.5.0 – v1.6.1 only',
    ]);
    expect(problems(`${head}${ws.replace('v1.3', 'v1.6')}`)).toEqual([]);
    expect(problems(`${head}${ws.replace('v1.3', 'v1.2')}`)[0]).toMatch(
      /dynamo_release must be one of 'v1.3', 'v1.4', 'v1.5', 'v1.6'/,
    );
  });
});

describe("Dynamo's drain loop and the carry", () => {
  const policy = (): CompiledPolicy => {
    const p = parsePolicyText(
      'default_policy_family: f\nuncached_isl_buckets: [{min_tokens: 0, bucket: b}]\npolicy_classes:\n  - {name: x, policy_family: f, cache_bucket: b, quantum: 10}\n  - {name: A, quantum: 10}\n  - {name: B, quantum: 10}\n',
    );
    if (!p.ok) throw new Error('policy');
    return p.value;
  };
  const fill = (q: PolicyQueue<null>) => {
    for (const c of ['A', 'B'])
      for (let i = 0; i < 3; i++)
        q.enqueue({ id: `${c}${i}`, requestedClass: c, rawIsl: 3, cachedTokens: 0, payload: null });
  };

  it('a pop with every head blocked clears the carry, so the ring scan resumes at the cursor', () => {
    const straight = new PolicyQueue<null>(policy());
    fill(straight);
    expect(straight.pop(() => true).request?.id).toBe('A0');
    expect(straight.pop(() => true).request?.id).toBe('A1'); // A spends its carried burst

    const drained = new PolicyQueue<null>(policy());
    fill(drained);
    expect(drained.pop(() => true).request?.id).toBe('A0');
    expect(drained.snapshot(0).carry).toBe('A');
    expect(drained.pop(() => false).request).toBeNull(); // the drain's last, all-blocked pop
    expect(drained.snapshot(0).carry).toBeNull();
    expect(drained.pop(() => true).request?.id).toBe('B0'); // the cursor (B) decides now
  });
});
