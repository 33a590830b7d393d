/**
 * Vajra's pull replica-set scheduler keeps its shared queue as a priority queue under the configured
 * request prioritizer: held requests leave in EDF / LRS / FCFS order, not in arrival order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestRecord } from '../../../src/core/export';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText, type Scenario, switchScheduler } from '../../../src/scenario';

/**
 * One replica that runs one request at a time. `busy` (t = 0) occupies it; while it decodes, `long`
 * (an 8,000-token prompt, t = 0.01) and then `short` (200 tokens, t = 0.02) wait in the router. With
 * deadline budget D = 10 × predicted prefill (min 0.01 s), long's deadline is ~0.01 + 10 × 0.5 s and
 * short's ~0.02 + 10 × 0.02 s: EDF sends short first, FCFS long.
 */
function held(policy: string): Scenario {
  const r = parseScenarioText(`version: 1
name: pull order
seed: 1
duration_s: 1
cluster: { workers: 1, max_running: 1 }
router: { routing: pull }
scheduler: { policy: ${policy}, deadline_multiplier: 10, min_deadline_s: 0.01 }
clients:
  - name: a
    arrival: { process: constant, rate: 0.0001 }
    program: { type: single, prompt_tokens: 10, output_tokens: 1 }
requests:
  - { t: 0, client: a, id: busy, prompt_tokens: 100, output_tokens: 200 }
  - { t: 0.01, client: a, id: long, prompt_tokens: 8000, output_tokens: 5 }
  - { t: 0.02, client: a, id: short, prompt_tokens: 200, output_tokens: 5 }
`);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col} ${p.message}`).join('\n'));
  return r.value;
}

function dispatchOrder(s: Scenario): string[] {
  const sim = new Simulation(s, { record: true });
  const order: string[] = [];
  sim.onDecision = (d) => {
    if (d.kind === 'dispatch' && d.request !== undefined && /^(busy|long|short)$/.test(d.request))
      order.push(d.request);
  };
  sim.runToEnd();
  return order;
}

describe('pull: the shared queue follows the request prioritizer', () => {
  it('EDF and LRS take the short request (earlier deadline, less slack) first; FCFS takes the older one', () => {
    expect(dispatchOrder(held('fcfs'))).toEqual(['busy', 'long', 'short']);
    expect(dispatchOrder(held('edf'))).toEqual(['busy', 'short', 'long']);
    expect(dispatchOrder(held('lrs'))).toEqual(['busy', 'short', 'long']);
    // sjf by prompt length; an order without a prioritizer (LPM) keeps arrival order
    expect(dispatchOrder(held('sjf'))).toEqual(['busy', 'short', 'long']);
    expect(dispatchOrder(held('lpm'))).toEqual(['busy', 'long', 'short']);
  });

  it('every held request is router-queued from its arrival, also one that joins a non-empty held queue', () => {
    for (const policy of ['fcfs', 'edf']) {
      const sim = new Simulation(held(policy), { record: false });
      const rows = new Map<string, ReturnType<typeof requestRecord>>();
      sim.onRequestDone = (r) => rows.set(r.id, requestRecord(r, sim.clients));
      sim.runUntil(0.03);
      // both wait in the router while busy decodes: long held first, short joins it
      expect(sim.router.heldCount()).toBe(2);
      sim.runToEnd();
      for (const id of ['long', 'short']) {
        const row = rows.get(id);
        expect(row?.state).toBe('done');
        // router queue time is dispatch − enqueue; it starts when the request is held (its arrival)
        expect(row?.enqueue_s).toBe(row?.arrival_s);
        expect(row?.dispatch_s ?? 0).toBeGreaterThan((row?.arrival_s ?? 0) + 0.05);
      }
    }
  });

  it('vajra-edf-pull: EDF gives the interactive client a lower time to first token than FCFS', () => {
    const r = parseScenarioText(
      readFileSync(join(__dirname, '../../../scenarios/vajra-edf-pull.yaml'), 'utf8'),
    );
    if (!r.ok) throw new Error('vajra-edf-pull.yaml does not parse');
    const run = (policy: string) => {
      const sim = new Simulation(
        { ...r.value, scheduler: switchScheduler(r.value.scheduler, policy) },
        { record: false },
      );
      sim.runToEnd();
      return sim.result().clients.interactive;
    };
    const edf = run('edf');
    const fcfs = run('fcfs');
    expect(edf.ttft_p50_s ?? Number.NaN).toBeLessThan(0.95 * (fcfs.ttft_p50_s ?? Number.NaN));
    expect(edf.ttft_p99_s ?? Number.NaN).toBeLessThan(fcfs.ttft_p99_s ?? Number.NaN);
  });
});
