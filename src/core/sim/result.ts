/** The run's result: the CLI's `--json` object (keys fixed by spec/cli.md first, then extras). */
import type { ClientRow } from '../metrics/collector';
import type { ClassServiceRow } from '../metrics/class-service';
import { formulaText, groupNumber } from '../metrics/theorem-bound';
import type { DynamoRelease } from '../drr/types';
import type { Simulation } from './simulation';

export interface RunResult {
  scenario: string;
  seed: number;
  sim_time_s: number;
  requests: { injected: number; completed: number; rejected: number; queued: number; running: number };
  throughput: {
    requests_per_s: number;
    /**
     * Tokens the GPUs computed per simulated second: prompt tokens not served from the prefix cache
     * (recomputations after a preemption included, requests not yet done included) + output tokens
     * of completed requests. Not the throughput: that is `completed_tokens_per_s`.
     */
    tokens_per_s: number;
    service_per_s: number;
    output_tokens_per_s: number;
    /**
     * Prompt + output tokens of completed requests per simulated second: the same work for every
     * scheduler of a workload, so a better cache finishes it sooner (the throughput of reproduce and
     * the sweeps).
     */
    completed_tokens_per_s: number;
  };
  /** Cached prompt tokens / prompt tokens, over all admissions (re-admissions after preemption included). */
  cache_hit_rate: number;
  /**
   * Jain's index of the clients' service rates in the all-active interval, service from the
   * client's view (w_e · whole input + w_q · output), as the DLPM paper measures it (§6.1).
   */
  jain_index: number;
  /** The same over the system's view of service (computed input tokens + output): the cost schedulers balance. */
  jain_index_extend: number;
  max_backlogged_service_gap: number;
  clients: Record<string, ClientRow>;
  /** Wall-clock seconds of the run; filled in by the CLI (0 here: the core never reads a clock). */
  wall_time_s: number;
  events: number;
  decisions: number;
  /** The interval Jain's index was computed over (whole_run: the all-active interval was empty). */
  jain_interval_s: { from: number; to: number; whole_run: boolean };
  /**
   * What `jain_index` compares: clients that sent requests, and how many of them were served in its
   * interval. With fewer than two clients or none served the index is 1 by convention and says
   * nothing (metrics/jain.ts jainMeaningful); the CLI summary then prints n/a.
   */
  jain_clients: number;
  jain_clients_served: number;
  max_gap: { clients: [string, string] | null; at_s: number };
  latency: {
    ttft_p50_s: number | null;
    ttft_p99_s: number | null;
    e2e_p50_s: number | null;
    e2e_p99_s: number | null;
    program_e2e_p50_s: number | null;
    program_e2e_p99_s: number | null;
  };
  preemptions: number;
  rejections: Record<string, number>;
  config: {
    routing: string;
    scheduler: string;
    policy_queue: boolean;
    /**
     * The released Dynamo line whose policy-class queue the run modelled (`router.dynamo_release`, else
     * the newest release that accepts the policy file); null when the run has no policy queue.
     */
    dynamo_release: DynamoRelease | null;
    workers: number;
    kv_blocks_per_worker: number;
    block_size: number;
  };
  workers: {
    id: number;
    steps: number;
    busy_s: number;
    utilisation: number;
    cache_hit_rate: number;
    kv_peak_frac: number;
    completed_here?: number;
  }[];
  /** The fairness theorem that applies and whether the measured gaps stayed within its bound. */
  guarantee: {
    algorithm: string | null;
    theorem: string;
    bound: number | null;
    formula: string;
    broken: boolean;
    violations: number;
    first_violation: { t: number; clients: [string, string]; gap: number; bound: number } | null;
  };
  /** Present when the run was cut short by a guard. */
  stopped?: string;
  /** Service per router policy class (runs with a policy queue; see src/core/metrics/class-service.ts). */
  classes?: Record<string, ClassServiceRow>;
}

export function buildResult(sim: Simulation): RunResult {
  const m = sim.metrics;
  const t = sim.now;
  const clients: Record<string, ClientRow> = {};
  sim.clients.forEach((name, i) => {
    clients[name] = m.clientRow(i, t);
  });
  let totalService = 0;
  let outTokens = 0;
  let inTokens = 0;
  for (let i = 0; i < m.n; i++) {
    totalService += m.service[i];
    outTokens += m.outputTokens[i];
    inTokens += m.inputTokens[i];
  }
  const per = (x: number) => (t > 0 ? x / t : 0);
  const jain = m.jain(t, 'client');
  const pair = m.gap.maxPair;
  const s = sim.scenario;
  const res: RunResult = {
    scenario: s.name,
    seed: sim.seed,
    sim_time_s: t,
    requests: {
      injected: m.totalInjected,
      completed: m.totalCompleted,
      rejected: m.totalRejected,
      queued: m.queuedTotal,
      running: m.runningTotal,
    },
    throughput: {
      requests_per_s: per(m.totalCompleted),
      tokens_per_s: per(inTokens + outTokens),
      service_per_s: per(totalService),
      output_tokens_per_s: per(outTokens),
      completed_tokens_per_s: per(m.completedTokens),
    },
    cache_hit_rate: m.cacheHitRate(),
    jain_index: jain.index,
    jain_index_extend: m.jain(t, 'system').index,
    max_backlogged_service_gap: m.gap.max,
    clients,
    wall_time_s: 0,
    events: sim.eventsProcessed,
    decisions: sim.decisions,
    jain_interval_s: { from: jain.from, to: jain.to, whole_run: jain.whole_run },
    jain_clients: jain.clients,
    jain_clients_served: jain.served,
    max_gap: { clients: pair ? [sim.clients[pair[0]], sim.clients[pair[1]]] : null, at_s: m.gap.maxAt },
    latency: m.overallLatency(),
    preemptions: m.preemptions,
    rejections: { ...m.rejectReasons },
    config: {
      routing: s.router.routing,
      scheduler: s.scheduler.policy,
      policy_queue: sim.router.queue !== null,
      dynamo_release: sim.router.queue !== null ? sim.router.release : null,
      workers: sim.workers.length,
      kv_blocks_per_worker: sim.workers[0]?.kv.totalBlocks ?? 0,
      block_size: s.cluster.block_size,
    },
    workers: sim.workers.map((w) => ({
      id: w.id,
      steps: w.steps,
      busy_s: w.busyTimeS,
      utilisation: t > 0 ? Math.min(1, w.busyTimeS / t) : 0,
      cache_hit_rate: w.admittedPromptTokens === 0 ? 0 : w.admittedCachedTokens / w.admittedPromptTokens,
      kv_peak_frac: w.kv.totalBlocks === 0 ? 0 : w.kv.peakBlocks / w.kv.totalBlocks,
    })),
    guarantee: guaranteeSummary(sim),
  };
  if (sim.stoppedReason !== null) res.stopped = sim.stoppedReason;
  const cs = sim.router.classService;
  if (cs !== null) res.classes = cs.rows(t);
  return res;
}

function guaranteeSummary(sim: Simulation): RunResult['guarantee'] {
  const g = sim.metrics.guarantee;
  const v = g.gaps.violations[0];
  const bound = g.bound;
  return {
    algorithm: g.choice.algorithm,
    theorem: g.choice.theorem,
    bound,
    // the run JSON's text, in its plain style (thousands with commas), as it has always read
    formula: formulaText(g.formula, groupNumber),
    broken: g.choice.broken,
    violations: g.gaps.violationCount,
    first_violation: v
      ? { t: v.t, clients: [sim.clients[v.a], sim.clients[v.b]], gap: v.gap, bound: v.bound }
      : null,
  };
}
