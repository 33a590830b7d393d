import { Rng } from '../../../src/core/prng';
import { createWorkload, type RequestSpec, type WorkloadEvent } from '../../../src/core/workload/index';
import { formatProblems } from '../../../src/format/yaml';
import { parseScenarioValue, type Scenario } from '../../../src/scenario/index';

/** A validated scenario from a plain object (version and name filled in). */
export function scenarioOf(doc: Record<string, unknown>): Scenario {
  const res = parseScenarioValue({ version: 1, name: 'test', ...doc });
  if (!res.ok) throw new Error(formatProblems(res.problems));
  return res.value;
}

/** One client with the given arrival and program. */
export function oneClient(program: Record<string, unknown>, extra: Record<string, unknown> = {}): Scenario {
  return scenarioOf({
    duration_s: 10,
    clients: [{ name: 'alice', arrival: { process: 'constant', rate: 1 }, program, ...extra }],
  });
}

export function startsWith(tokens: Int32Array, prefix: Int32Array): boolean {
  if (prefix.length > tokens.length) return false;
  for (let i = 0; i < prefix.length; i++) if (tokens[i] !== prefix[i]) return false;
  return true;
}

export function commonPrefix(a: Int32Array, b: Int32Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

export interface Submitted {
  t: number;
  request: RequestSpec;
}

/**
 * Drive a workload without an engine: every request completes `serviceS` after its submission.
 * Returns every submission in order. Events are processed by time, then by kind (completions before
 * arrivals/submits at the same time), then by insertion.
 */
export function drive(
  scenario: Scenario,
  serviceS = 1,
  seed = scenario.seed,
): { submitted: Submitted[]; waiting: number } {
  const w = createWorkload(scenario, new Rng(seed));
  type Item = { t: number; seq: number; ev: WorkloadEvent | { kind: 'complete'; t: number; id: string } };
  let seq = 0;
  const queue: Item[] = [];
  const push = (ev: Item['ev']) => queue.push({ t: ev.t, seq: seq++, ev });
  for (const ev of w.initialEvents()) push(ev);
  const submitted: Submitted[] = [];
  const submit = (t: number, request: RequestSpec) => {
    submitted.push({ t, request });
    push({ kind: 'complete', t: t + serviceS, id: request.id });
  };
  while (queue.length > 0) {
    queue.sort((a, b) => a.t - b.t || a.seq - b.seq);
    const { ev } = queue.shift()!;
    if (ev.kind === 'arrival') {
      const { submit: reqs, next } = w.onArrival(ev.client, ev.t);
      for (const r of reqs) submit(ev.t, r);
      if (next) push(next);
    } else if (ev.kind === 'submit') submit(ev.t, ev.request);
    else for (const f of w.onComplete(ev.id, ev.t)) push(f);
  }
  return { submitted, waiting: w.waiting() };
}
