/** The `run` command's default output: a short readable summary with one row per client. */
import type { RunResult } from '../core/sim';

const fmt = (x: number | null, digits = 3): string =>
  x === null || !Number.isFinite(x) ? '-' : x.toFixed(digits);
const int = (x: number): string => Math.round(x).toLocaleString('en-US');

export function formatSummary(r: RunResult): string {
  const lines: string[] = [];
  lines.push(`scenario  ${r.scenario}  (seed ${r.seed})`);
  lines.push(
    `cluster   ${r.config.workers} workers, routing ${r.config.routing}${r.config.policy_queue ? ' behind policy-class queues' : ''}, scheduler ${r.config.scheduler}`,
  );
  lines.push(
    `simulated ${fmt(r.sim_time_s, 2)} s in ${fmt(r.wall_time_s, 2)} s wall, ${int(r.events)} events`,
  );
  const q = r.requests;
  lines.push(
    `requests  injected ${int(q.injected)}, completed ${int(q.completed)}, rejected ${int(q.rejected)}, queued ${int(q.queued)}, running ${int(q.running)}, preemptions ${int(r.preemptions)}`,
  );
  lines.push(
    `rates     ${fmt(r.throughput.requests_per_s, 2)} req/s, ${int(r.throughput.tokens_per_s)} tok/s, service ${int(r.throughput.service_per_s)}/s`,
  );
  lines.push(
    `fairness  Jain ${fmt(r.jain_index)}, max backlogged service gap ${int(r.max_backlogged_service_gap)}${r.max_gap.clients ? ` (${r.max_gap.clients.join(' vs ')})` : ''}; cache hit rate ${(r.cache_hit_rate * 100).toFixed(1)}%`,
  );
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
  ];
  const rows = Object.entries(r.clients).map(([name, c]) => [
    name,
    int(c.service),
    int(c.service_per_s),
    int(c.completed),
    int(c.rejected),
    fmt(c.ttft_p50_s),
    fmt(c.ttft_p99_s),
    fmt(c.e2e_p50_s),
    fmt(c.e2e_p99_s),
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
  lines.push('(latencies in seconds; percentiles by nearest rank)');
  return lines.join('\n');
}
