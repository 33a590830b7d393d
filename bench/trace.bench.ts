/**
 * Trace replay speed (#14.5):
 *   trace.requests_per_s   the shared Mooncake conversation trace (12,031 requests) replayed on 8 H100
 *                          workers behind Dynamo's sample policy (bench/trace-mooncake.yaml):
 *                          simulated requests per wall second of the simulation (best of 2; target ≥ 20,000)
 *   trace.parse_mb_per_s   the streaming parser over the same file, fed in 1 MB pieces from memory
 *                          (best of 5; target ≥ 50)
 * The trace is read from ../shared/data/traces/mooncake/ (next to the repository, as in CI).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Figure } from './types';

const here = dirname(fileURLToPath(import.meta.url));
const SCENARIO = join(here, 'trace-mooncake.yaml');
const TRACE = join(here, '..', '..', 'shared', 'data', 'traces', 'mooncake', 'conversation_trace.jsonl');

export default async function traceBench(): Promise<Figure[]> {
  const { TraceReader } = await import('../src/format/trace/index');
  const { parseScenarioText } = await import('../src/scenario/index');
  const { Simulation } = await import('../src/core/sim/index');

  const text = readFileSync(TRACE, 'utf8');
  const bytes = Buffer.byteLength(text, 'utf8');
  let bestParse = Number.POSITIVE_INFINITY;
  let table = null;
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    const r = new TraceReader('conversation_trace.jsonl');
    for (let i = 0; i < text.length; i += 1 << 20) r.push(text.slice(i, i + (1 << 20)));
    const res = r.end();
    const dt = (performance.now() - t0) / 1000;
    if (!res.ok) throw new Error(`the Mooncake trace did not parse: ${JSON.stringify(res.problems[0])}`);
    table = res.value;
    bestParse = Math.min(bestParse, dt);
  }

  const parsed = parseScenarioText(readFileSync(SCENARIO, 'utf8'), { trace: table });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  let best = Number.POSITIVE_INFINITY;
  let requests = 0;
  let events = 0;
  for (let k = 0; k < 2; k++) {
    const t0 = performance.now();
    const sim = new Simulation(parsed.value, { record: false });
    sim.runToEnd();
    const dt = (performance.now() - t0) / 1000;
    const res = sim.result();
    requests = res.requests.injected;
    events = res.events;
    best = Math.min(best, dt);
  }
  if (requests !== 12031) throw new Error(`expected 12,031 replayed requests, got ${requests}`);
  return [
    {
      name: 'trace.requests_per_s',
      value: requests / best,
      unit: 'requests/s',
      target: '≥ 20,000',
      note: `${requests} requests, ${events.toLocaleString('en-US')} events in ${best.toFixed(2)} s`,
    },
    {
      name: 'trace.parse_mb_per_s',
      value: bytes / 1e6 / bestParse,
      unit: 'MB/s',
      target: '≥ 50',
      note: `${(bytes / 1e6).toFixed(1)} MB in ${(bestParse * 1000).toFixed(0)} ms`,
    },
  ];
}
