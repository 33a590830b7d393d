/** Fixed snapshots for the view tests: DRR sandbox sessions and a hand-made cluster snapshot. */
import type {
  ArbitrationScript,
  ClassConfig,
  ClassVisit,
  CompiledPolicy,
  DrrPopRecord,
  ScriptOp,
} from '../../../src/core/drr/types';
import type { ClientSnapshot } from '../../../src/core/sim/snapshot';
import { SandboxSession } from '../../../src/worker/arbitration-session';
import type { SandboxSnapshot, SimSnapshot } from '../../../src/worker/session';

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
  return { kind: 'pop', count, blocked, model: null };
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

/** A session's snapshot after `steps` steps, as the sandbox worker sends it (through JSON). */
export function sessionSnapshot(script: ArbitrationScript, steps: number): SandboxSnapshot {
  const s = new SandboxSession(script, script.name ?? 'script', '');
  for (let i = 0; i < steps; i++) s.step();
  return JSON.parse(JSON.stringify(s.snapshot())) as SandboxSnapshot;
}

const client = (
  c: Pick<ClientSnapshot, 'service' | 'service_per_s' | 'completed' | 'queued' | 'running'> &
    Partial<ClientSnapshot>,
): ClientSnapshot => ({
  ttft_p50_s: null,
  ttft_p99_s: null,
  e2e_p50_s: null,
  e2e_p99_s: null,
  client_service: c.service,
  programs_completed: c.completed,
  program_e2e_p50_s: null,
  program_e2e_p99_s: null,
  injected: c.completed + c.queued + c.running,
  rejected: 0,
  backlogged: c.queued > 0,
  ...c,
});

const noRadix = { nodes: 0, cached_tokens: 0, locked_nodes: 0, evictable_leaves: 0, top: [] };

/** A small cluster snapshot in the engine's shape (src/core/sim/snapshot.ts), written by hand. */
export function clusterSnapshot(): SimSnapshot {
  const t = [0, 1, 2, 3, 4];
  const visits: ClassVisit[] = [
    {
      phase: 'scan',
      class: 'standard',
      outcome: 'unaffordable',
      head_id: 's0',
      head_cost: 7000,
      deficit_before: 0,
      deficit_after: 1000,
    },
    {
      phase: 'scan',
      class: 'latency',
      outcome: 'unaffordable',
      head_id: 'bob#0.0',
      head_cost: 9000,
      deficit_before: 0,
      deficit_after: 2000,
    },
    {
      phase: 'final',
      class: 'standard',
      outcome: 'short',
      head_id: 's0',
      head_cost: 7000,
      deficit_before: 5000,
      deficit_after: 5000,
    },
    {
      phase: 'final',
      class: 'latency',
      outcome: 'chosen',
      head_id: 'bob#0.0',
      head_cost: 9000,
      deficit_before: 10000,
      deficit_after: 0,
    },
  ];
  const record: DrrPopRecord = {
    variant: 'v2',
    profile: '(root)',
    visits,
    bulk_rounds: 4,
    deficits: [
      { class: 'standard', before: 0, after: 5000 },
      { class: 'latency', before: 0, after: 0 },
    ],
    cursor_before: 'standard',
    cursor_after: 'latency',
    carry_before: null,
    carry_after: null,
    chosen: { id: 'bob#0.0', class: 'latency', cost: 9000 },
    heads_touched: 4,
    summary:
      'no head affordable after one round: 4 virtual round(s) granted in bulk, latency dispatches bob#0.0 (cost 9000); latency keeps 0, cursor standard',
  };
  return {
    kind: 'cluster',
    scenario: 'hand-made',
    seed: 1,
    sim_time_s: 4,
    duration_s: 10,
    done: false,
    decisions: 120,
    events: 300,
    requests: { injected: 14, completed: 4, rejected: 0, queued: 5, running: 3 },
    clients: {
      alice: client({
        service: 800,
        service_per_s: 200,
        completed: 3,
        ttft_p50_s: 0.12,
        ttft_p99_s: 0.4,
        e2e_p50_s: 1.5,
        e2e_p99_s: 3.25,
        queued: 1,
        running: 2,
        deficit: 150,
      }),
      bob: client({
        service: 400,
        service_per_s: 100,
        completed: 1,
        ttft_p50_s: 0.3,
        ttft_p99_s: 0.9,
        e2e_p50_s: 2,
        e2e_p99_s: 6,
        queued: 4,
        running: 1,
        deficit: -50,
      }),
    },
    drr: {
      cursor: 'latency',
      carry: null,
      classes: [
        { name: 'standard', quantum: 1000, deficit: 5000, queued: 2, head_cost: 7000 },
        { name: 'latency', quantum: 2000, deficit: 0, queued: 0, head_cost: null },
      ],
      variant: 'v2',
      profile: '(root)',
      release: 'v1.6',
      queues: [
        {
          class: 'standard',
          requests: [
            { id: 'alice#3.0', client: 'alice', cost: 7000, raw_isl: 7000, cached: 0, arrival_s: 3.5 },
            { id: 'bob#4.0', client: 'bob', cost: 500, raw_isl: 1000, cached: 500, arrival_s: 3.8 },
          ].map((r, seq) => ({
            ...r,
            priority: 0,
            strict_priority: 0,
            seq,
            score: 0,
            worker: -1,
            due_s: null,
          })),
        },
        { class: 'latency', requests: [] },
      ],
      last_pop: { t: 3.9, record },
    },
    router: { routing: 'round-robin', queued: 2, held: [], state: { next_worker: 1 } },
    workers: [
      {
        id: 0,
        busy: true,
        running: ['alice#1.0', 'bob#0.0'],
        waiting: ['alice#2.0'],
        running_clients: [0, 1],
        waiting_clients: [0],
        waiting_count: 1,
        kv_used_blocks: 120,
        kv_total_blocks: 400,
        kv_cached_blocks: 60,
        cache_hit_rate: 0.375,
        last_step_ms: 23.5,
        steps: 40,
        active_prefill_tokens: 0,
        policy: 'dlpm',
        radix: {
          nodes: 3,
          cached_tokens: 960,
          locked_nodes: 1,
          evictable_leaves: 2,
          top: [
            [1, 0, 640, 1],
            [2, 1, 160, 1],
            [3, 1, 160, 0],
          ],
        },
      },
      {
        id: 1,
        busy: false,
        running: [],
        waiting: [],
        running_clients: [],
        waiting_clients: [],
        waiting_count: 0,
        kv_used_blocks: 0,
        kv_total_blocks: 400,
        kv_cached_blocks: 0,
        cache_hit_rate: 0,
        last_step_ms: 0,
        steps: 0,
        active_prefill_tokens: 0,
        policy: 'dlpm',
        radix: noRadix,
      },
    ],
    series: {
      t,
      rows: {
        'service:alice': [0, 200, 400, 600, 800],
        'service:bob': [0, 100, 200, 300, 400],
        'queued:alice': [0, 1, 1, 1, 1],
        'queued:bob': [0, 2, 3, 4, 4],
        'kv:0': [0, 0.1, 0.2, 0.3, 0.3],
        'kv:1': [0, 0, 0, 0, 0],
        router_queue: [0, 1, 2, 2, 2],
        cache_hit: [0, 0, 0, 0, 0],
        // the engine's Jain's index (core/metrics jainSoFar): 1 before any service, then
        // 300² / (2 · (200² + 100²)) = 0.9 for alice's 200/s against bob's 100/s
        jain: [1, 0.9, 0.9, 0.9, 0.9],
      },
      dt: 1,
    },
    recent: [],
    latest_algorithm: [],
    cache_hit_rate: 0.3,
    max_backlogged_service_gap: 400,
    jain_run: { index: 0.9, from: 1, to: 10, whole_run: false, clients: 2, served: 2 },
    jain_run_system: { index: 0.8, from: 1, to: 10, whole_run: false, clients: 2, served: 2 },
    guarantee: {
      algorithm: null,
      theorem: 'none',
      bound: null,
      bound_label: 'fairness bound',
      formula: [],
      reason: 'hand-made snapshot',
      broken: false,
      warning: null,
      inputs: {
        L_input: 0,
        M: 0,
        U: null,
        quantum: 0,
        worker_quantum: null,
        workers: 2,
        weights: { input: 1, output: 2 },
      },
      pairs: [],
      pair_count: 1,
      worst: null,
      violations: [],
      violation_count: 0,
      series: { t: [], rows: {}, bound: [], dt: 1 },
    },
  };
}

/** Markup with one tag per line: readable snapshot files and diffs. */
export function pretty(html: string): string {
  return `${html.replace(/></g, '>\n<')}\n`;
}
