/** The full state the playground draws, as a plain JSON-serialisable object. */
import { type DrrStateSnapshot, queuedRequestView } from '../drr/queued-view';
import type { DrrSnapshot } from '../drr/types';
import { type RoutingState, type SchedulerState, routingState, schedulerState } from '../algorithms';
import type { GuaranteeSnapshot } from '../metrics/guarantee';
import type { RunJain } from '../metrics/jain';
import type { ClassServiceSnapshot } from '../metrics/class-service';
import type { SeriesSnapshot } from '../metrics/series';
import type { RadixSummary } from '../replica/radix-cache';
import type { DecisionRecord } from './decision';
import type { Simulation } from './simulation';

export interface ClientSnapshot {
  service: number;
  service_per_s: number;
  completed: number;
  ttft_p50_s: number | null;
  ttft_p99_s: number | null;
  e2e_p50_s: number | null;
  e2e_p99_s: number | null;
  /** Client-perspective service: w_e · whole input + w_q · output (the paper's service rate). */
  client_service: number;
  /** Whole programs: completed count and end-to-end percentiles (the paper's latency). */
  programs_completed: number;
  program_e2e_p50_s: number | null;
  program_e2e_p99_s: number | null;
  injected: number;
  rejected: number;
  queued: number;
  running: number;
  backlogged: boolean;
  /** DLPM deficit summed over workers (local policies that keep one). */
  deficit?: number;
  /** VTC counter (max over workers, local policies that keep one). */
  counter?: number;
  /** VTC's fair weight of this client (scheduler.client_weights), when some client's is not 1. */
  weight?: number;
  /** The router's deficit of this client at each worker (DoubleQ's q_{i,w}), when it keeps one. */
  deficit_per_worker?: number[];
}

/**
 * One worker: the fields below, and its scheduler's `policy` (name) with `policy_state` (the state
 * type its algorithm folder declares): a discriminated union on `policy`.
 */
export type WorkerSnapshot = WorkerFields & SchedulerState;

export interface WorkerFields {
  id: number;
  busy: boolean;
  /** Running request ids, admission order. */
  running: string[];
  /** First 50 waiting ids in the local policy's order. */
  waiting: string[];
  /** The client of each `running` request: its index in the snapshot's (the scenario's) client order. */
  running_clients: number[];
  /** The client of each `waiting` request, as `running_clients`. */
  waiting_clients: number[];
  waiting_count: number;
  kv_used_blocks: number;
  kv_total_blocks: number;
  /** Blocks held by the radix tree (part of kv_used_blocks). */
  kv_cached_blocks: number;
  cache_hit_rate: number;
  last_step_ms: number;
  steps: number;
  active_prefill_tokens: number;
  radix: RadixSummary;
}

/** The router: `routing` (name) and `state` (its folder's type), discriminated on `routing`. */
export type RouterSnapshot = { queued: number; held: string[] } & RoutingState;

/** Requests listed per class in a snapshot (head first); `queued` in `classes` counts them all. */
export const QUEUE_CHIPS_PER_CLASS = 30;

export interface SimSnapshot {
  kind: 'cluster';
  scenario: string;
  seed: number;
  sim_time_s: number;
  duration_s: number;
  done: boolean;
  decisions: number;
  /**
   * Present when the state is ahead of `decisions` (the playhead): one event, such as a batch
   * step's end, takes several decisions at once (completions, then admissions), and the state is
   * the one after all of them, decision number `state_decisions`, while the log is handed out one
   * record at a time.
   */
  state_decisions?: number;
  events: number;
  requests: { injected: number; completed: number; rejected: number; queued: number; running: number };
  clients: Record<string, ClientSnapshot>;
  drr?: DrrStateSnapshot;
  router: RouterSnapshot;
  workers: WorkerSnapshot[];
  series: SeriesSnapshot;
  recent: DecisionRecord[];
  /**
   * Each algorithm's newest admission or dispatch with its detail (oldest first), for the Algorithm
   * steps panel: by the end of a run the recent decisions may all be completions.
   */
  latest_algorithm: DecisionRecord[];
  cache_hit_rate: number;
  max_backlogged_service_gap: number;
  /**
   * Jain's index as the run JSON gives it were the run to end now (`jain_index` and its window
   * `jain_interval_s`, the same MetricsCollector.jain call buildResult makes).
   */
  jain_run: RunJain;
  /**
   * The same over system-view service (the run JSON's `jain_index_extend`, over the same window):
   * what the Client service chart plots, so Figures can give both views exactly.
   */
  jain_run_system: RunJain;
  /** The fairness theorem's bound against the measured gaps of backlogged pairs (Guarantees view). */
  guarantee: GuaranteeSnapshot;
  /** The bound for the Client service view's band; present when a theorem applies. */
  fairness_bound?: { value: number; label: string };
  /** Service per router policy class (Class service view); present with a policy queue. */
  class_service?: ClassServiceSnapshot;
}

export function buildSnapshot(sim: Simulation): SimSnapshot {
  const m = sim.metrics;
  const t = sim.now;
  const perClient = sim.workers.flatMap((w) => w.policy.clientState?.() ?? []);
  const clients: Record<string, ClientSnapshot> = {};
  sim.clients.forEach((name, i) => {
    const row = m.clientRow(i, t);
    const c: ClientSnapshot = {
      service: row.service,
      service_per_s: row.service_per_s,
      completed: row.completed,
      ttft_p50_s: row.ttft_p50_s,
      ttft_p99_s: row.ttft_p99_s,
      e2e_p50_s: row.e2e_p50_s,
      e2e_p99_s: row.e2e_p99_s,
      client_service: row.client_service,
      programs_completed: row.programs_completed,
      program_e2e_p50_s: row.program_e2e_p50_s,
      program_e2e_p99_s: row.program_e2e_p99_s,
      injected: row.injected,
      rejected: row.rejected,
      queued: row.queued,
      running: row.running,
      backlogged: m.gap.isBacklogged(i),
    };
    let deficit: number | undefined;
    let counter: number | undefined;
    let weight: number | undefined;
    for (const st of perClient) {
      if (st.kind === 'deficit') deficit = (deficit ?? 0) + st.deficit[i];
      else {
        counter = Math.max(counter ?? Number.NEGATIVE_INFINITY, st.counter[i]);
        if (st.weight !== undefined) weight = st.weight[i];
      }
    }
    if (deficit !== undefined) c.deficit = deficit;
    if (counter !== undefined) c.counter = counter;
    if (weight !== undefined) c.weight = weight;
    const perWorker = sim.router.policy.clientDeficits?.(i);
    if (perWorker !== undefined) c.deficit_per_worker = perWorker;
    clients[name] = c;
  });
  const snap: SimSnapshot = {
    kind: 'cluster',
    scenario: sim.scenario.name,
    seed: sim.seed,
    sim_time_s: t,
    duration_s: sim.scenario.duration_s,
    done: sim.done(),
    decisions: sim.decisions,
    events: sim.eventsProcessed,
    requests: {
      injected: m.totalInjected,
      completed: m.totalCompleted,
      rejected: m.totalRejected,
      queued: m.queuedTotal,
      running: m.runningTotal,
    },
    clients,
    router: routerSnapshot(sim),
    workers: sim.workers.map((w) => {
      const waiting = w.policy.waiting(50);
      return {
        id: w.id,
        busy: w.busy,
        running: w.running.map((r) => r.id),
        waiting: waiting.map((r) => r.id),
        running_clients: w.running.map((r) => r.client),
        waiting_clients: waiting.map((r) => r.client),
        waiting_count: w.waitingCount,
        kv_used_blocks: w.kv.allocatedBlocks,
        kv_total_blocks: w.kv.totalBlocks,
        kv_cached_blocks: w.radix.cachedBlocks,
        cache_hit_rate: w.admittedPromptTokens === 0 ? 0 : w.admittedCachedTokens / w.admittedPromptTokens,
        last_step_ms: w.lastStepS * 1000,
        steps: w.steps,
        active_prefill_tokens: w.activePrefillTokens,
        radix: w.radix.summary(32),
        ...schedulerState(w.policy),
      };
    }),
    series: sim.series.snapshot(),
    recent: sim.recentDecisions(),
    latest_algorithm: sim.latestAlgorithmDecisions(),
    cache_hit_rate: m.cacheHitRate(),
    max_backlogged_service_gap: m.gap.max,
    jain_run: m.jain(t, 'client'),
    jain_run_system: m.jain(t, 'system'),
    guarantee: m.guarantee.snapshot(),
  };
  const g = snap.guarantee;
  if (g.bound !== null) snap.fairness_bound = { value: g.bound, label: g.bound_label };
  const cs = sim.router.classService;
  if (cs !== null) snap.class_service = cs.snapshot(t);
  const drr = sim.router.drrSnapshot();
  if (drr)
    snap.drr = {
      ...drr,
      queues: classQueues(sim, drr),
      last_pop: sim.router.lastPop,
      release: sim.router.release,
    };
  return snap;
}

/** The router's part, its keys in the order exports have always written them (routing, queued, held, state). */
function routerSnapshot(sim: Simulation): RouterSnapshot {
  const tagged = routingState(sim.router.policy);
  // `routing` first for the key order; assigning `tagged` then sets it again (same value) with
  // `state`, which keeps the two correlated for the type checker
  return Object.assign(
    { routing: tagged.routing, queued: sim.router.queuedCount, held: sim.router.heldIds(50) },
    tagged,
  );
}

/** The first QUEUE_CHIPS_PER_CLASS waiting requests of every class, head first. */
function classQueues(sim: Simulation, drr: DrrSnapshot): DrrStateSnapshot['queues'] {
  const q = sim.router.queue;
  return drr.classes.map((c) => ({
    class: c.name,
    // the first chips only, found without sorting the class's whole queue at every frame
    requests: (q ? q.classQueue(c.name, undefined, QUEUE_CHIPS_PER_CLASS) : []).map((r) =>
      queuedRequestView(r, r.payload.spec.client),
    ),
  }));
}
