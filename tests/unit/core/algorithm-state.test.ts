/**
 * The snapshot's typed algorithm state (#12): every scheduler and routing is described under its own
 * name, with its folder's state exactly when the folder declares one, and a descriptor never
 * describes another algorithm's policy (the tag and the state could then disagree).
 */
import { describe, expect, it } from 'vitest';
import {
  createLocalPolicy,
  createRouterPolicy,
  ROUTING_ALGORITHMS,
  ROUTING_NAMES,
  routingState,
  SCHEDULER_ALGORITHMS,
  SCHEDULER_NAMES,
  schedulerState,
} from '../../../src/core/algorithms';
import type { LocalPolicy } from '../../../src/core/replica/local-policy';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText } from '../../../src/scenario';

const local = { workerId: 0, clients: ['a', 'b'], weights: { input: 1, output: 2 } };
const router = { workers: 2, clients: ['a', 'b'], weights: { input: 1, output: 2 } };

describe('typed algorithm state', () => {
  it('tags each scheduler with its own name, with state exactly when its folder declares one', () => {
    const stateful: string[] = [];
    for (const d of SCHEDULER_ALGORITHMS) {
      const s = schedulerState(createLocalPolicy(d.name, local));
      expect(s.policy).toBe(d.name);
      expect('policy_state' in s, d.name).toBe(d.state !== undefined);
      if ('policy_state' in s) stateful.push(s.policy);
      for (const other of SCHEDULER_NAMES) {
        if (other !== d.name)
          expect(d.described(createLocalPolicy(other, local)), `${d.name} on ${other}`).toBe(undefined);
      }
    }
    expect(stateful).toEqual(['vtc', 'dlpm', 'fcfs-mpq']);
  });

  it('tags each routing with its own name, with state exactly when its folder declares one', () => {
    const stateful: string[] = [];
    for (const d of ROUTING_ALGORITHMS) {
      const s = routingState(createRouterPolicy(d.name, router));
      expect(s.routing).toBe(d.name);
      expect('state' in s, d.name).toBe(d.state !== undefined);
      if ('state' in s) stateful.push(s.routing);
      for (const other of ROUTING_NAMES) {
        if (other !== d.name)
          expect(d.described(createRouterPolicy(other, router)), `${d.name} on ${other}`).toBe(undefined);
      }
    }
    expect(stateful).toEqual([
      'round-robin',
      'least-loaded',
      'pull',
      'per-client-rr',
      'preble',
      'doubleq',
      'kv-aware',
    ]);
  });

  it('refuses a policy no descriptor created, by name', () => {
    const stranger: LocalPolicy = {
      name: 'stranger',
      size: () => 0,
      enqueue: () => undefined,
      admit: () => undefined,
      waiting: () => [],
    };
    expect(() => schedulerState(stranger)).toThrow(/unknown scheduler policy 'stranger'/);
  });

  it('a snapshot narrows on the name: DLPM workers and a DoubleQ router read their own fields', () => {
    const parsed = parseScenarioText(`version: 1
name: typed-state
seed: 3
duration_s: 4
cluster: { workers: 2 }
router: { routing: doubleq, worker_quantum: 2000 }
scheduler: { policy: dlpm, quantum: 500 }
clients:
  - name: a
    arrival: { process: poisson, rate: 4 }
    program: { type: single, prompt_tokens: 200, output_tokens: 20 }
  - name: b
    arrival: { process: poisson, rate: 4 }
    program: { type: single, prompt_tokens: 200, output_tokens: 20 }
`);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const sim = new Simulation(parsed.value);
    sim.runToEnd();
    const snap = sim.snapshot();
    const r = snap.router;
    if (r.routing !== 'doubleq' || r.state === undefined) throw new Error(`not DoubleQ: ${r.routing}`);
    expect(r.state.worker_quantum).toBe(2000);
    expect(Object.keys(r.state.deficits)).toEqual(['a', 'b']);
    expect(Object.keys(snap.router)).toEqual(['routing', 'queued', 'held', 'state']); // the export's key order
    for (const w of snap.workers) {
      if (w.policy !== 'dlpm' || w.policy_state === undefined) throw new Error(`not DLPM: ${w.policy}`);
      expect(w.policy_state.quantum).toBe(500);
      expect(w.policy_state.bound).toBe(2 * (w.policy_state.U + 500));
    }
  });
});
