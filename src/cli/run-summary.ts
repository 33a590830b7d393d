/** The `run` command's default output: a short readable summary with one row per client. */
import type { RunResult } from '../core/sim';
import type { TraceReplayInfo } from '../core/export';
import { JAIN_NA, jainMeaningful } from '../core/metrics/jain';
import { terminalSafe } from './io';

const fmt = (x: number | null, digits = 3): string =>
  x === null || !Number.isFinite(x) ? '-' : x.toFixed(digits);
const int = (x: number): string => Math.round(x).toLocaleString('en-US');

/**
 * One line on the fairness theorem that applies and how the run measured up, e.g.
 * `guarantee DLPM Theorem 4.1: bound 26,200; max gap 2,414; no violations`. Without a theorem it
 * says so and still gives the measured gap; the deliberately broken DLPM is named as such.
 */
export function formatGuarantee(r: Pick<RunResult, 'guarantee' | 'max_backlogged_service_gap'>): string {
  const g = r.guarantee;
  const gap = `max gap ${int(r.max_backlogged_service_gap)}`;
  const broken = g.broken ? ' (deliberately broken variant)' : '';
  if (g.bound === null)
    return g.theorem === 'none'
      ? `guarantee no theorem applies; ${gap}`
      : `guarantee ${g.theorem}${broken}: no bound; ${gap}`;
  const head = `guarantee ${g.theorem}${broken}: bound ${int(g.bound)}; ${gap}`;
  if (g.violations === 0) return `${head}; no violations`;
  const n = `${int(g.violations)} violation${g.violations === 1 ? '' : 's'}`;
  const v = g.first_violation;
  const first = v
    ? `, first at ${fmt(v.t, 3)} s (${v.clients.join(' vs ')}: gap ${int(v.gap)} > ${int(v.bound)})`
    : '';
  return `${head}; ${n}${first}`;
}

/** The trace a run replayed and its clock (core/export/trace-info.ts): a `trace` line in the summary. */
export type { TraceReplayInfo };

/** `trace     t.jsonl at time_scale 0.5 (0.5 simulated s per trace s: 2× as fast), window …`. */
export function formatTraceReplay(t: TraceReplayInfo): string {
  const k = t.time_scale;
  const speed =
    k === 1
      ? 'as recorded'
      : k < 1
        ? `${Number((1 / k).toPrecision(4))}× as fast as recorded`
        : `${Number(k.toPrecision(4))}× as slow as recorded`;
  const window =
    t.start_s > 0 || t.stop_s !== null ? `, trace window ${t.start_s} – ${t.stop_s ?? 'end'} s` : '';
  const cap = t.max_requests !== null ? `, at most ${int(t.max_requests)} requests` : '';
  const only = t.select_client !== undefined ? `, rows of client '${t.select_client}'` : '';
  return `trace     ${t.file}${only} at time_scale ${k} (${k} simulated s per trace s: ${speed})${window}${cap}`;
}

/** Jain's index in words: n/a where it says nothing (core/metrics/jain.ts), as the playground shows it. */
function jainText(r: RunResult): string {
  if (!jainMeaningful({ clients: r.jain_clients, served: r.jain_clients_served }))
    return `${JAIN_NA} (jain_index ${fmt(r.jain_index)} by convention)`;
  return `${fmt(r.jain_index)} (client view; system view ${fmt(r.jain_index_extend)})`;
}

/**
 * The rates line. Its throughput is `completed_tokens_per_s` (prompt + output tokens of completed
 * requests), the figure the Sweep charts, reproduce, README and the scenarios' lessons quote; the
 * tokens the GPUs computed (`tokens_per_s`: prompt tokens not served from the cache, recomputations
 * after preemption included, + output) are named as such, not as a bare "tok/s" a reader would take
 * for the throughput (on fig1-kv-pressure they are 2,866 against 13,330).
 */
export function formatRates(r: Pick<RunResult, 'throughput'>): string {
  const t = r.throughput;
  return `rates     ${fmt(t.requests_per_s, 2)} req/s, throughput ${int(t.completed_tokens_per_s)} tok/s (prompt + output of completed requests), computed ${int(t.tokens_per_s)} tok/s (uncached prompt + output), service ${int(t.service_per_s)}/s`;
}

export function formatSummary(
  r: RunResult,
  replay: TraceReplayInfo | null = null,
  clientTraces: Record<string, TraceReplayInfo> | null = null,
): string {
  const lines: string[] = [];
  lines.push(`scenario  ${r.scenario}  (seed ${r.seed})`);
  if (replay !== null) lines.push(formatTraceReplay(replay));
  for (const [client, t] of Object.entries(clientTraces ?? {}))
    lines.push(formatTraceReplay({ ...t, file: `${t.file} (client ${client})` }));
  lines.push(
    `cluster   ${r.config.workers} worker${r.config.workers === 1 ? '' : 's'}, routing ${r.config.routing}${r.config.policy_queue ? ` behind policy-class queues (Dynamo ${r.config.dynamo_release ?? '?'})` : ''}, scheduler ${r.config.scheduler}`,
  );
  lines.push(
    `simulated ${fmt(r.sim_time_s, 2)} s in ${fmt(r.wall_time_s, 2)} s wall, ${int(r.events)} events`,
  );
  const q = r.requests;
  lines.push(
    `requests  injected ${int(q.injected)}, completed ${int(q.completed)}, rejected ${int(q.rejected)}, queued ${int(q.queued)}, running ${int(q.running)}, preemptions ${int(r.preemptions)}`,
  );
  lines.push(formatRates(r));
  lines.push(
    `fairness  Jain ${jainText(r)}, max backlogged service gap ${int(r.max_backlogged_service_gap)}${r.max_gap.clients ? ` (${r.max_gap.clients.join(' vs ')})` : ''}; cache hit rate ${(r.cache_hit_rate * 100).toFixed(1)}%`,
  );
  lines.push(formatGuarantee(r));
  lines.push('');
  const head = [
    'client',
    'service',
    'service/s',
    'done',
    'rejected',
    'ttft p50',
    'ttft p99',
    'e2e p50',
    'e2e p99',
    'programs',
    'program p50',
    'program p99',
  ];
  // names as the terminal shows them (the IO writes control characters as \u escapes): padded by
  // their raw length, a row with such a name came out wider than the others
  const rows = Object.entries(r.clients).map(([name, c]) => [
    terminalSafe(name),
    int(c.service),
    int(c.service_per_s),
    int(c.completed),
    int(c.rejected),
    fmt(c.ttft_p50_s),
    fmt(c.ttft_p99_s),
    fmt(c.e2e_p50_s),
    fmt(c.e2e_p99_s),
    int(c.programs_completed),
    fmt(c.program_e2e_p50_s),
    fmt(c.program_e2e_p99_s),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  lines.push(line(head));
  lines.push(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) lines.push(line(row));
  lines.push(
    "(latencies in seconds; percentiles by nearest rank; e2e per request, program from a program's start to its last request done)",
  );
  lines.push(...formatClasses(r));
  return lines.join('\n');
}

/** The per-class service table (runs with policy-class queues; classes that saw requests). */
export function formatClasses(r: Pick<RunResult, 'classes'>): string[] {
  const used = Object.entries(r.classes ?? {}).filter(
    ([, c]) => c.dispatched + c.rejected + c.shed + c.queued > 0,
  );
  if (used.length === 0) return [];
  // requests shed for a passed due time (HTTP 429) get a column only when a class shed any
  const shed = used.some(([, c]) => c.shed > 0);
  const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);
  const head = [
    'class',
    'quantum',
    'uncached served',
    'share',
    'quantum share',
    'contended share',
    'its quantum share',
    'dispatched',
    'rejected',
    ...(shed ? ['shed (429)'] : []),
    'wait p99',
  ];
  const rows = used.map(([name, c]) => [
    terminalSafe(name), // as written, like the client table's names
    int(c.quantum),
    int(c.served_uncached_tokens),
    pct(c.share),
    pct(c.quantum_share),
    pct(c.contended_share),
    pct(c.contended_quantum_share),
    int(c.dispatched),
    int(c.rejected),
    ...(shed ? [int(c.shed)] : []),
    fmt(c.p99_queue_wait_s),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [
    '',
    line(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
    '(router policy classes: uncached tokens = prompt - cached_tokens at dispatch; share = over the whole run; quantum share among the classes that stayed backlogged;',
    ' contended share = of the DRR charge (cost = max(1, uncached)) of the pops made while another class also had requests queued, next to its quantum share for those pops;',
    ' rejected = HTTP 529; wait = arrival to dispatch, s)',
  ];
}
