import { describe, expect, it } from 'vitest';
import { drrRecordOf, explainDecision, explainDecisionText } from '../../../src/core/explain';
import { type DecisionRecord, Simulation } from '../../../src/core/sim';
import { parseScenarioText } from '../../../src/scenario';

/**
 * A one-worker cluster whose pool is busy as soon as any prefill runs, so requests queue in DRR
 * (modelled as Dynamo v1.5, where the first arrivals bypass the idle queue: the first pop is a
 * contended one).
 */
function drrPops(rate: number): DecisionRecord[] {
  const parsed = parseScenarioText(`version: 1
name: drr in the cluster
seed: 5
duration_s: 3
cluster: {workers: 1}
router:
  routing: round-robin
  dynamo_release: v1.5
  policy:
    default_policy_family: standard
    uncached_isl_buckets: [{min_tokens: 0, bucket: all}]
    policy_classes:
      - {name: A, policy_family: standard, cache_bucket: all, quantum: 500, prefill_busy_threshold: 1}
      - {name: B, policy_family: latency, cache_bucket: all, quantum: 1500, prefill_busy_threshold: 1}
clients:
  - name: alice
    policy_class: standard
    arrival: {process: constant, rate: ${rate}}
    program: {type: single, prompt_tokens: 1200, output_tokens: 4}
  - name: bob
    policy_class: latency
    arrival: {process: constant, rate: ${rate}}
    program: {type: single, prompt_tokens: 900, output_tokens: 4}
`);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const sim = new Simulation(parsed.value);
  const out: DecisionRecord[] = [];
  sim.onDecision = (d) => {
    if (d.kind === 'drr-pop') out.push(d);
  };
  sim.runToEnd();
  return out;
}

describe("DRR explanation of the simulator's drr-pop records", () => {
  it('rebuilds the DRR record from the flattened detail and explains it', () => {
    const pops = drrPops(4);
    expect(pops.length).toBeGreaterThan(0);
    expect(explainDecisionText(pops[0], { quanta: { A: 500, B: 1500 } })).toBe(
      [
        '1. Start: no class carries credit from its last turn, so the ring scan starts at A (the cursor).',
        '2. A is empty: its credit resets to 0.',
        '3. B: its head bob#0.0 costs 900, more than its 0 credit; B earns its quantum: 0 + 1500 = 1500 ≥ 900, so B dispatches bob#0.0.',
        "Result: bob#0.0 from B (cost 900); B's queue is now empty, so its credit resets to 0; the next scan starts at A.",
      ].join('\n'),
    );
  });

  it('every pop of a contended run gets an account naming what was dispatched', () => {
    const pops = drrPops(40);
    expect(pops.length).toBeGreaterThan(20);
    for (const p of pops) {
      const rebuilt = drrRecordOf(p);
      if (p.kind !== 'drr-pop') throw new Error('not a pop');
      expect(rebuilt?.chosen).toEqual({ id: p.request, class: p.class, cost: p.detail.cost });
      const steps = explainDecision(p, { quanta: { A: 500, B: 1500 } });
      expect(steps[steps.length - 1].text.startsWith(`Result: ${p.request} from ${p.class} (cost `)).toBe(
        true,
      );
      expect(steps.some((s) => s.text.includes('which covers the cost'))).toBe(false);
    }
  });
});
