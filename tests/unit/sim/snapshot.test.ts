import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/core/sim';
import { scenario } from './helpers';

const YAML = `version: 1
name: snap
seed: 3
duration_s: 5
cluster:
  workers: 2
  kv_cache_tokens: 30000
router:
  routing: round-robin
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
    policy_classes:
      - {name: only, policy_family: std, cache_bucket: all, quantum: 500, prefill_busy_threshold: 300}
clients:
  - name: a
    arrival: { process: poisson, rate: 6 }
    program: { type: tree-of-thought, depth: 2, branching: 2, question_tokens: 400, thought_tokens: 30, answer_tokens: 30 }
  - name: b
    arrival: { process: poisson, rate: 6 }
    program: { type: single, prompt_tokens: 800, output_tokens: 40 }
`;

describe('snapshot', () => {
  it('is plain JSON with the fields the playground draws, bounded in size', () => {
    const sim = new Simulation(scenario(YAML));
    sim.runUntil(2.5);
    expect(sim.now).toBe(2.5);
    const snap = sim.snapshot();
    const round = JSON.parse(JSON.stringify(snap));
    expect(round).toEqual(snap);
    expect(snap.kind).toBe('cluster');
    expect(snap.scenario).toBe('snap');
    expect(snap.seed).toBe(3);
    expect(snap.done).toBe(false);
    expect(Object.keys(snap.clients)).toEqual(['a', 'b']);
    for (const c of Object.values(snap.clients))
      for (const k of [
        'service',
        'service_per_s',
        'completed',
        'ttft_p50_s',
        'e2e_p99_s',
        'queued',
        'running',
      ])
        expect(c).toHaveProperty(k);
    expect(snap.workers).toHaveLength(2);
    for (const w of snap.workers) {
      expect(w.waiting.length).toBeLessThanOrEqual(50);
      expect(w.kv_used_blocks).toBeLessThanOrEqual(w.kv_total_blocks);
      expect(w.radix.top.length).toBeLessThanOrEqual(32);
    }
    expect(snap.drr?.classes.map((c) => c.name)).toEqual(['only']);
    expect(snap.recent.length).toBeLessThanOrEqual(200);
    expect(snap.recent.length).toBeGreaterThan(0);
    expect(snap.series.t.length).toBeGreaterThan(0);
    expect(snap.series.t.length).toBeLessThanOrEqual(512);
    expect(Object.keys(snap.series.rows)).toEqual([
      'service:a',
      'service:b',
      'queued:a',
      'queued:b',
      'kv:0',
      'kv:1',
      'router_queue',
      'cache_hit',
      'jain',
      'jain_clients',
      'jain_served',
    ]);
    sim.runToEnd();
    const end = sim.snapshot();
    // the last sample of the hit-rate row is the run's hit rate so far (cumulative over admissions)
    const hits = end.series.rows.cache_hit;
    expect(hits.every((h) => h >= 0 && h <= 1)).toBe(true);
    expect(hits.at(-1)).toBeCloseTo(sim.result().cache_hit_rate, 1);
    // Jain's index over time comes from core (client-view service), a valid index at every sample
    expect(end.series.rows.jain.every((j) => j >= 0.5 && j <= 1)).toBe(true);
    expect(end.done).toBe(true);
    expect(end.requests.completed + end.requests.rejected).toBe(end.requests.injected);
  });

  it('runUntil then runToEnd gives the same result as one runToEnd', () => {
    const a = new Simulation(scenario(YAML), { record: false });
    a.runToEnd();
    const b = new Simulation(scenario(YAML), { record: false });
    for (let t = 0.25; t < 4; t += 0.25) b.runUntil(t);
    b.runToEnd();
    expect(JSON.stringify(b.result())).toBe(JSON.stringify(a.result()));
  });
});
