import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { explainDecisionText } from '../../../src/core/explain';
import { totalSteps } from '../../../src/core/drr';
import { parseYaml } from '../../../src/format/yaml';
import { parseScriptValue } from '../../../src/policy';
import { applyOverrides, parseScenarioText } from '../../../src/scenario';
import { loadSession } from '../../../src/worker/load';
import type { DrrPopRecord } from '../../../src/core/drr/types';
import { TOURS } from '../../../src/ui/features/tours';

const BURST = readFileSync('scenarios/drr-burst.yaml', 'utf8');

/** The DRR record the sandbox session sends with step `seq` (0-based); null past the end or for an enqueue. */
function sandboxRecord(script: string, policy: string | undefined, seq: number): DrrPopRecord | null {
  const loaded = loadSession(script, policy);
  if (!loaded.ok) throw new Error('script does not load');
  for (let i = 0; i < seq; i++) if (!loaded.session.step()) return null;
  return loaded.session.step()?.drr ?? null;
}

describe('sandbox decisions carry their DRR record', () => {
  it('the 4th pop of the burst (step 4): B earns 10 and keeps 7', () => {
    const record = sandboxRecord(BURST, undefined, 3);
    expect(record).not.toBeNull();
    const text = explainDecisionText(record!);
    expect(text).toMatch(/^1\. Carry: class A still has 1 token of credit/);
    expect(text).toMatch(/Result: b0 from B \(cost 3\); B keeps 7 credit/);
    // The preloaded enqueues are not steps: step 0 is already the first pop; asking again gives the same.
    expect(explainDecisionText(sandboxRecord(BURST, undefined, 0)!)).toMatch(/a0 from A/);
    expect(explainDecisionText(sandboxRecord(BURST, undefined, 3)!)).toBe(text);
  });

  it('a policy override changes the account (quantum 4: b0 keeps 1)', () => {
    const policy = 'policy_classes:\n  - {name: A, quantum: 10}\n  - {name: B, quantum: 4}\n';
    const record = sandboxRecord(BURST, policy, 3);
    expect(explainDecisionText(record!)).toMatch(/B keeps 1 credit/);
  });

  it('past the end of the script there is no record', () => {
    expect(sandboxRecord(BURST, undefined, 500)).toBeNull();
  });
});

describe('tours', () => {
  it('every step names a shipped scenario whose overrides apply and whose moment exists', () => {
    for (const tour of TOURS) {
      expect(tour.steps.length).toBeGreaterThan(1);
      for (const step of tour.steps) {
        const text = readFileSync(`scenarios/${step.at.scenario}.yaml`, 'utf8');
        const applied = step.at.sets
          ? applyOverrides(text, step.at.sets)
          : { ok: true as const, value: text };
        expect(applied.ok, `${tour.id}: ${step.title}`).toBe(true);
        if (!applied.ok) continue;
        expect((step.at.decisions === undefined) !== (step.at.time === undefined)).toBe(true);
        if (step.at.decisions !== undefined) {
          const parsed = parseYaml(applied.value);
          expect(parsed.ok).toBe(true);
          if (!parsed.ok) continue;
          const script = parseScriptValue(parsed.value);
          expect(script.ok, `${tour.id}: ${step.title}`).toBe(true);
          if (script.ok) expect(step.at.decisions).toBeLessThanOrEqual(totalSteps(script.value.ops));
        } else {
          const scenario = parseScenarioText(applied.value);
          expect(scenario.ok, `${tour.id}: ${step.title}`).toBe(true);
          if (scenario.ok) expect(step.at.time).toBeLessThanOrEqual(scenario.value.duration_s);
        }
      }
    }
  });

  it('the DRR lesson states the deficits the burst really has at its moments', () => {
    const drr = TOURS.find((t) => t.id === 'drr')!;
    const second = drr.steps[1];
    expect(second.at.decisions).toBe(1);
    expect(explainDecisionText(sandboxRecord(BURST, undefined, 0)!)).toMatch(/A keeps 7 credit/);
    expect(second.text).toContain('**7**');
  });
});
