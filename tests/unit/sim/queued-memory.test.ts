/**
 * A queued synthetic request holds no prompt-sized array (#15.3): its prompt is a chain of id-stream
 * segments (src/core/workload/prompt.ts), its ids and page fingerprints are computed when read and
 * dropped when it waits. Measured on the engine's own objects: every typed array reachable from the
 * requests waiting in queues, each counted once, against their prompt tokens. With ids held (4 bytes
 * per token, as before) every case here fails; what remains is the page fingerprints (8 bytes per
 * 16-token page) of the context a follow-up extends, which its program keeps for all its requests.
 */
import { describe, expect, it } from 'vitest';
import { ReqState, Simulation, type SimRequest } from '../../../src/core/sim';
import { CLI_BUDGET, parseScenarioText, queuedBytesPerToken } from '../../../src/scenario';

const scenario = (scheduler: string, program: string, rate: number) => `version: 1
name: backlog
duration_s: 60
cluster: { workers: 1, gpu: a100-80gb, model: llama-3.1-8b }
router: { routing: round-robin }
scheduler: { policy: ${scheduler} }
clients:
  - name: a
    arrival: { process: poisson, rate: ${rate} }
    program: ${program}
  - name: b
    arrival: { process: poisson, rate: ${rate} }
    program: ${program}
`;

/** Bytes of the typed arrays reachable from `roots` (each array once; engine structures not entered). */
function reachableArrayBytes(roots: readonly SimRequest[]): number {
  const seen = new Set<object>();
  const stack: unknown[] = [];
  for (const r of roots) stack.push(...Object.values(r));
  let bytes = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (ArrayBuffer.isView(v)) bytes += v.byteLength;
    else if (v instanceof ArrayBuffer) bytes += v.byteLength;
    else if (v instanceof Map) for (const [k, x] of v) stack.push(k, x);
    else if (Array.isArray(v)) stack.push(...v);
    else stack.push(...Object.values(v));
  }
  return bytes;
}

function backlog(text: string, t: number) {
  // the whole run (12,000 requests queued behind one worker) is over the page's budget under the
  // prefix-walking orders; the test only steps it to t, as the command line would allow the run
  const parsed = parseScenarioText(text, { budget: CLI_BUDGET });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const sim = new Simulation(parsed.value, { record: false });
  const all: SimRequest[] = [];
  sim.onRequestArrived = (r) => all.push(r);
  sim.runUntil(t);
  const queued = all.filter((r) => r.state === ReqState.Waiting || r.state === ReqState.RouterQueued);
  // a queued request locks no cache node (that would reach the worker's whole tree)
  for (const r of queued) expect(r.lockNode).toBeNull();
  const tokens = queued.reduce((n, r) => n + r.promptLen, 0);
  // a chat's later turns, a tree's deeper nodes: prompts that extend a finished request's
  const followUps = queued.filter((r) => /^(turn|depth) ([2-9]|\d\d)/.test(r.spec.node)).length;
  return { queued: queued.length, followUps, tokens, perToken: reachableArrayBytes(queued) / tokens };
}

const single = '{ type: single, prompt_tokens: 4096, shared_prefix_tokens: 512, output_tokens: 128 }';
const chat =
  '{ type: multi-turn, turns: 6, shared_prefix_tokens: 500, prompt_tokens: 800, output_tokens: 100, think_time_s: 0.5 }';
const tree =
  '{ type: tree-of-thought, depth: 3, branching: 2, question_tokens: 3000, thought_tokens: 32, answer_tokens: 32 }';

describe('queued synthetic requests hold no prompt-sized arrays (#15.3)', () => {
  it.each([
    ['single', 'fcfs', single, 100],
    ['single', 'dlpm', single, 100],
    ['multi-turn', 'fcfs', chat, 6],
    ['multi-turn', 'dlpm', chat, 6],
    ['tree-of-thought', 'fcfs', tree, 2],
    ['tree-of-thought', 'lpm', tree, 2],
  ] as const)(
    '%s under %s: no ids, and no more than the run estimate charges',
    (type, scheduler, program, rate) => {
      const b = backlog(scenario(scheduler, program, rate), type === 'single' ? 10 : 40);
      expect(b.queued).toBeGreaterThan(100);
      if (type !== 'single' && scheduler === 'fcfs') expect(b.followUps).toBeGreaterThan(20);
      // ids would be 4 bytes per token; page fingerprints are 8 bytes per 16-token page
      expect(b.perToken).toBeLessThan(1);
      // what the run estimate charges a queued request per prompt token (src/scenario/estimate.ts),
      // with room for the one page array a client's shared system prompt keeps
      expect(b.perToken).toBeLessThanOrEqual(queuedBytesPerToken(scheduler, type, 16) + 0.01);
    },
  );
});
