/** Fixed snapshots for the view tests: DRR sandbox sessions and a hand-made cluster snapshot. */
import { ArbitrationSession } from '../../../src/core/drr/script-runner';
import type { ArbitrationScript, ClassConfig, CompiledPolicy, ScriptOp } from '../../../src/core/drr/types';

export function policyOf(classes: { name: string; quantum: number }[]): CompiledPolicy {
  const cfg: ClassConfig[] = classes.map((c) => ({ name: c.name, quantum: c.quantum, queuePolicy: 'fcfs' }));
  return {
    root: {
      name: '(root)',
      model: null,
      defaultFamily: null,
      buckets: [],
      classes: cfg,
      families: [],
      cells: [],
    },
    models: [],
  };
}

export function enqueue(id: string, cls: string, cost: number, arrivalS = 0): ScriptOp {
  return {
    kind: 'enqueue',
    id,
    requestedClass: cls,
    model: null,
    rawIsl: cost,
    cachedTokens: 0,
    priority: 0,
    strictPriority: 0,
    arrivalS,
  };
}

export function pop(count = 1, blocked: string[] = []): ScriptOp {
  return { kind: 'pop', count, blocked };
}

/** The docs' burst: A and B with quantum 10, four cost-3 requests each, then 8 pops. */
export function burstScript(): ArbitrationScript {
  const ops: ScriptOp[] = [];
  for (const c of ['A', 'B'])
    for (let i = 0; i < 4; i++) ops.push(enqueue(`${c.toLowerCase()}${i}`, c, 3, ops.length));
  ops.push(pop(8));
  return {
    name: 'DRR burst',
    policy: policyOf([
      { name: 'A', quantum: 10 },
      { name: 'B', quantum: 10 },
    ]),
    workers: 1,
    variant: 'v2',
    ops,
  };
}

/** The docs' bulk-credit example: one pop needs 4 virtual rounds. */
export function bulkScript(): ArbitrationScript {
  return {
    name: 'bulk credit',
    policy: policyOf([
      { name: 'standard', quantum: 1000 },
      { name: 'latency', quantum: 2000 },
    ]),
    workers: 1,
    variant: 'v2',
    ops: [
      enqueue('s0', 'standard', 7000),
      enqueue('l0', 'latency', 9000),
      enqueue('s1', 'standard', 500),
      pop(1),
    ],
  };
}

/** A session's snapshot after `steps` steps, as the sandbox worker would send it. */
export function sessionSnapshot(script: ArbitrationScript, steps: number): Record<string, unknown> {
  const s = new ArbitrationSession(script);
  for (let i = 0; i < steps; i++) s.step();
  return JSON.parse(JSON.stringify({ kind: 'arbitration', ...s.snapshot() })) as Record<string, unknown>;
}
