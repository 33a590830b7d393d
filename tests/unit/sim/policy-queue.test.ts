/**
 * The Dynamo policy-class queue in front of worker selection: queueing on busy pools, queue-limit
 * rejections, FCFS within a class, and the drain loop as prefill load falls. The first two cases model
 * Dynamo v1.5 (an uncontended arrival bypasses the queue); the v1.6 cases below show the same bursts
 * when every arrival goes through the queue (PR #14176).
 */
import { describe, expect, it } from 'vitest';
import { type DecisionRecord, Simulation } from '../../../src/core/sim';
import { scenario } from './helpers';

function burst(n: number, limit: number, release = 'v1.5'): string {
  const reqs = Array.from(
    { length: n },
    (_, i) =>
      `  - { t: 0, client: x, id: r${String(i).padStart(2, '0')}, prompt_tokens: 2000, output_tokens: 4 }`,
  ).join('\n');
  return `version: 1
name: policy queue burst
duration_s: 1
cluster:
  workers: 1
  max_batch_tokens: 512
router:
  routing: round-robin
  dynamo_release: ${release}
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
    policy_classes:
      - {name: std_all, policy_family: std, cache_bucket: all, quantum: 100, prefill_busy_threshold: 1000, request_queue_limit_per_worker: ${limit}}
requests:
${reqs}
`;
}

describe('policy-class queue in front of the router', () => {
  it('dispatches while the pool is not busy, queues behind the busy pool, rejects beyond the limit', () => {
    const sim = new Simulation(scenario(burst(12, 5)));
    const log: DecisionRecord[] = [];
    sim.onDecision = (d) => log.push(d);
    sim.runToEnd();
    const res = sim.result();
    expect(res.requests).toEqual({ injected: 12, completed: 6, rejected: 6, queued: 0, running: 0 });
    expect(res.rejections).toEqual({ request_queue_limit: 6 });
    // r00 went straight through (pool idle); r01..r05 queued (pool busy); r06..r11 rejected (limit 5)
    const first = log.find((d) => d.kind === 'dispatch');
    expect(first?.request).toBe('r00');
    expect(log.filter((d) => d.kind === 'enqueue').map((d) => d.request)).toEqual([
      'r01',
      'r02',
      'r03',
      'r04',
      'r05',
    ]);
    expect(log.filter((d) => d.kind === 'reject').map((d) => d.request)).toEqual([
      'r06',
      'r07',
      'r08',
      'r09',
      'r10',
      'r11',
    ]);
    // FCFS inside the class: DRR pops in arrival order, each followed by its dispatch
    const pops = log.filter((d) => d.kind === 'drr-pop').map((d) => d.request);
    expect(pops).toEqual(['r01', 'r02', 'r03', 'r04', 'r05']);
    // a pop happens only once the worker's active prefill fell to the threshold or below
    for (const d of log.filter((x) => x.kind === 'drr-pop')) expect(d.t).toBeGreaterThan(0);
    expect(sim.checkInvariants()).toEqual([]);
  });

  it('without busy thresholds nothing ever queues', () => {
    const yaml = burst(6, 5).replace(', prefill_busy_threshold: 1000', '');
    const sim = new Simulation(scenario(yaml));
    const kinds: string[] = [];
    sim.onDecision = (d) => kinds.push(d.kind);
    sim.runToEnd();
    expect(kinds).not.toContain('enqueue');
    expect(sim.result().requests.completed).toBe(6);
  });

  it('v1.6: the same burst, but r00 is stored and popped at once instead of bypassing the queue', () => {
    const sim = new Simulation(scenario(burst(12, 5, 'v1.6')));
    const log: DecisionRecord[] = [];
    sim.onDecision = (d) => log.push(d);
    sim.runToEnd();
    expect(sim.result().requests).toEqual({ injected: 12, completed: 6, rejected: 6, queued: 0, running: 0 });
    const ids = (kind: string) => log.filter((d) => d.kind === kind).map((d) => d.request);
    expect(ids('enqueue')).toEqual(['r00', 'r01', 'r02', 'r03', 'r04', 'r05']);
    expect(ids('drr-pop')).toEqual(['r00', 'r01', 'r02', 'r03', 'r04', 'r05']);
    expect(ids('reject')).toEqual(['r06', 'r07', 'r08', 'r09', 'r10', 'r11']);
    // r00 leaves in the drain that follows its arrival, before r01 arrives
    const r00 = log.filter((d) => d.request === 'r00').map((d) => `${d.kind}@${d.t}`);
    expect(r00.slice(0, 4)).toEqual(['arrive@0', 'enqueue@0', 'drr-pop@0', 'dispatch@0']);
    expect(sim.result().config.dynamo_release).toBe('v1.6');
    expect(sim.checkInvariants()).toEqual([]);
  });

  it('v1.6: without busy thresholds every arrival is still stored, and popped in the same turn', () => {
    const yaml = burst(6, 5, 'v1.6').replace(', prefill_busy_threshold: 1000', '');
    const sim = new Simulation(scenario(yaml));
    const log: DecisionRecord[] = [];
    sim.onDecision = (d) => log.push(d);
    sim.runToEnd();
    const kinds = log.filter((d) => d.request === 'r03').map((d) => d.kind);
    expect(kinds.slice(0, 4)).toEqual(['arrive', 'enqueue', 'drr-pop', 'dispatch']);
    expect(log.filter((d) => d.kind === 'enqueue')).toHaveLength(6);
    expect(sim.result().requests.completed).toBe(6);
  });
});
