/** Small builders for engine tests: a worker with recorded hooks, requests from token arrays, scenarios from YAML. */
import { GPUS, MODELS } from '../../../src/core/cost';
import { SimRequest } from '../../../src/core/sim/request';
import { FcfsPolicy } from '../../../src/core/algorithms/fcfs/policy';
import { type DecisionDraft, Replica } from '../../../src/core/replica/replica';
import type { SloClass } from '../../../src/core/workload/types';
import { parseScenarioText, type Scenario } from '../../../src/scenario';

export const range = (from: number, n: number) => Int32Array.from({ length: n }, (_, i) => from + i);

let serial = 0;
export function req(
  id: string,
  tokens: Int32Array,
  out: number,
  arrival = 0,
  slo: SloClass = 'standard',
  maxNewTokens?: number,
): SimRequest {
  return new SimRequest(
    { id, client: 'a', tokens, outputTokens: out, maxNewTokens, sloClass: slo, program: id, node: 'n' },
    0,
    serial++,
    arrival,
  );
}

export interface WorkerOpts {
  kvTokens?: number;
  blockSize?: number;
  maxBatchTokens?: number;
  maxRunning?: number;
  preemption?: 'fcfs' | 'priority' | 'sglang';
  admission?: 'sglang' | 'optimistic';
  chunkTokens?: number;
  prefixCaching?: boolean;
  chunkMode?: 'fixed' | 'dynamic';
  targetStepS?: number;
}

export function worker(o: WorkerOpts = {}) {
  const records: DecisionDraft[] = [];
  const completed: string[] = [];
  const preempted: string[] = [];
  const w = new Replica(
    {
      id: 0,
      gpu: GPUS['a100-80gb'],
      model: MODELS['llama-3.1-8b'],
      kvTokens: o.kvTokens ?? 100_000,
      blockSize: o.blockSize ?? 1,
      maxBatchTokens: o.maxBatchTokens ?? 8192,
      maxRunning: o.maxRunning ?? 256,
      preemption: o.preemption ?? 'fcfs',
      prefixCaching: o.prefixCaching ?? true,
      chunkTokens: o.chunkTokens ?? o.maxBatchTokens ?? 8192,
      chunkMode: o.chunkMode,
      targetStepS: o.targetStepS,
      admission: o.admission,
    },
    new FcfsPolicy(),
    {
      recording: true,
      record: (d) => records.push(d),
      onAdmit: () => {},
      onFirstToken: () => {},
      onService: () => {},
      onPreempt: (r) => preempted.push(r.id),
      onComplete: (r) => completed.push(r.id),
    },
  );
  return { w, records, completed, preempted };
}

/** Run a worker's steps back to back until idle (or `max` steps); returns the end time. */
export function drainWorker(w: Replica, t0 = 0, max = 10_000): number {
  let t = t0;
  for (let i = 0; i < max; i++) {
    const dt = w.beginStep(t);
    if (dt < 0) return t;
    t += dt;
    w.endStep(t);
    const p = w.check();
    if (p) throw new Error(p);
  }
  throw new Error('worker did not go idle');
}

export function scenario(yaml: string): Scenario {
  const r = parseScenarioText(yaml);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`).join('\n'));
  return r.value;
}

/** The scenario, or null when the validator refuses it (random shapes may ask for what cannot run). */
export function scenarioOrNull(yaml: string): Scenario | null {
  const r = parseScenarioText(yaml);
  return r.ok ? r.value : null;
}
