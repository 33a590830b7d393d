/**
 * Trace replay (#14.5): prefix blocks become shared token prefixes (exactly the common blocks), the
 * window, time scale and request cap select the right rows at the right simulated times, trace
 * columns reach the requests, and the CLI's --replay replaces the scenario's clients.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';
import { Simulation } from '../../../src/core/sim';
import { selectRows, type TraceReplayOptions, type TraceTable, traceTokens } from '../../../src/core/trace';
import { readTraceText } from '../../../src/format/trace';
import { problemText } from '../../../src/format/yaml';
import { parseScenarioText } from '../../../src/scenario';

function read(text: string, file = 't.jsonl'): TraceTable {
  const r = readTraceText(file, text);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.value;
}

const row = (ms: number, input: number, ids: number[], output = 4) =>
  JSON.stringify({ timestamp: ms, input_length: input, output_length: output, hash_ids: ids });

function commonPrefix(a: Int32Array, b: Int32Array): number {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

describe('prefix blocks → shared tokens', () => {
  it('two prompts share exactly their common leading blocks (the last block may be partial)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 32 }),
        fc.integer({ min: 1, max: 32 }),
        (a, b, pa, pb) => {
          // block ids name prefixes: make the lists prefix-consistent (a shared id implies a shared past)
          const ua = [...new Set(a)];
          const ub = [...new Set(b)];
          let same = 0;
          while (same < ua.length && same < ub.length && ua[same] === ub[same]) same++;
          const B = 32;
          const la = (ua.length - 1) * B + pa;
          const lb = (ub.length - 1) * B + pb;
          const text = `${row(0, la, ua)}\n${row(1, lb, ub)}`;
          const r = readTraceText('p.jsonl', text, { blockTokens: B });
          if (!r.ok) throw new Error('parse');
          const ta = traceTokens(r.value, 0, 'a');
          const tb = traceTokens(r.value, 1, 'b');
          expect(ta.length).toBe(la);
          expect(tb.length).toBe(lb);
          const expected = Math.min(same * B, la, lb);
          // equal blocks: at least the common blocks; different next block: nothing more
          const got = commonPrefix(ta, tb);
          if (same < ua.length && same < ub.length) expect(got).toBe(expected);
          else expect(got).toBe(Math.min(la, lb));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rows without blocks share nothing', () => {
    const t = read(
      'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-01-01 00:00:00,100,1\n2023-01-01 00:00:01,100,1',
    );
    expect(commonPrefix(traceTokens(t, 0, 'x@L2'), traceTokens(t, 1, 'x@L3'))).toBe(0);
  });
});

const OPTS: TraceReplayOptions = {
  timeScale: 1,
  startS: 0,
  stopS: null,
  maxRequests: null,
  selectClient: null,
  client: 'trace',
  sloClass: 'standard',
  policyClass: null,
  model: null,
};

describe('window, time scale, cap', () => {
  const t = read(
    [row(0, 10, [1]), row(3000, 10, [2]), row(1000, 10, [3]), row(1000, 10, [4]), row(9000, 10, [5])].join(
      '\n',
    ),
  );
  it('keeps [start, stop) of trace time, sorted by arrival (ties: file order), scaled from the window start', () => {
    const s = selectRows(t, { ...OPTS, startS: 1, stopS: 9, timeScale: 0.5 }, 100);
    expect([...s.rows]).toEqual([2, 3, 1]);
    expect([...s.times]).toEqual([0, 0, 1]);
    expect([...selectRows(t, { ...OPTS, maxRequests: 2 }, 100).rows]).toEqual([0, 2]);
    // duration_s cuts in simulated time
    expect([...selectRows(t, { ...OPTS, timeScale: 2 }, 6).rows]).toEqual([0, 2, 3]);
  });
});

const SCENARIO = `
version: 1
name: replay test
duration_s: 100
cluster: { workers: 2, max_batch_tokens: 2048 }
router:
  routing: round-robin
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{ min_tokens: 0, bucket: all }]
    policy_classes:
      - { name: std_all, policy_family: std, cache_bucket: all, quantum: 1, prefill_busy_threshold: 1 }
      - { name: fast, quantum: 4, prefill_busy_threshold: 1 }
      - { name: slow, quantum: 1, prefill_busy_threshold: 1 }
trace:
  file: t.csv
  format: csv
  columns: { timestamp: t, input: in, output: out, client: who, class: cls }
  time_scale: 2
`;

describe('replay in the simulator', () => {
  const csv = [
    't,in,out,who,cls',
    '0,500,3,alice,fast',
    '1.5,700,2,bob,slow',
    '2,300,1,,fast',
    '60,10,1,alice,slow',
  ].join('\n');
  it('submits each row at its scaled time, from its client, asking for its class', () => {
    const parsed = parseScenarioText(SCENARIO, { readFile: (p) => (p === 't.csv' ? csv : '') });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const sim = new Simulation(parsed.value, { record: false });
    const seen: string[] = [];
    sim.onRequestArrived = (r) =>
      seen.push(`${r.arrivalT} ${r.spec.client} ${r.id} ${r.promptLen} ${r.spec.policyClass ?? '-'}`);
    sim.runToEnd();
    expect(sim.clients).toEqual(['alice', 'bob', 'trace']);
    expect(seen).toEqual(['0 alice alice@L2 500 fast', '3 bob bob@L3 700 slow', '4 trace trace@L4 300 fast']);
    // 60 s of trace time is 120 s simulated: past duration_s (100), not replayed
    expect(sim.result().requests.injected).toBe(3);
    expect(sim.result().requests.completed).toBe(3);
  });

  it('a trace problem is reported at trace.file with the trace’s own line', () => {
    const parsed = parseScenarioText(SCENARIO, {
      file: 's.yaml',
      readFile: () => 't,in,out,who,cls\n0,x,1,a,b',
    });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.problems.map((p) => `${p.line}: ${problemText(p)}`)).toEqual([
        "16: t.csv:2:3: input tokens 'x' is not a number",
      ]);
  });

  it('without the file the simulator says what to do', () => {
    const parsed = parseScenarioText(SCENARIO);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(() => new Simulation(parsed.value)).toThrow(/trace file 't.csv' was not read/);
  });
});

describe('run --replay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fg-trace-'));
  const scenario = join(dir, 's.yaml');
  writeFileSync(
    scenario,
    `version: 1\nname: with clients\nduration_s: 5\ncluster: { workers: 1 }\nclients:\n  - name: alice\n    arrival: { process: poisson, rate: 2 }\n    program: { type: single, prompt_tokens: 100, output_tokens: 5 }\n`,
  );
  it('replaces the clients by the trace and runs to its last arrival', async () => {
    const trace = join(dir, 'r.jsonl');
    writeFileSync(trace, [row(0, 600, [1, 2]), row(20_000, 700, [1, 2]), row(40_000, 50, [9])].join('\n'));
    const io = memoryIO();
    const code = await runCommand([scenario, '--replay', trace, '--json'], io);
    expect(io.stderr.join('')).toBe('');
    expect(code).toBe(0);
    const res = JSON.parse(io.stdout.join(''));
    expect(Object.keys(res.clients)).toEqual(['trace']);
    expect(res.requests.injected).toBe(3);
    expect(res.requests.completed).toBe(3);
    // the second request starts with the first one's two blocks: its prefix is cached
    expect(res.cache_hit_rate).toBeGreaterThan(0);
  });
  it('a malformed trace exits 1 with file:line:col: message', async () => {
    const trace = join(dir, 'bad.jsonl');
    writeFileSync(trace, `${row(0, 10, [1])}\n{"timestamp": 5}\n`);
    const io = memoryIO();
    expect(await runCommand([scenario, '--replay', trace], io)).toBe(1);
    expect(io.stderr.join('\n')).toBe(`${trace}:2:1: missing "input_length"`);
    expect(await runCommand([scenario, '--replay'], io)).toBe(1);
  });
});

describe('the page', () => {
  it('replays the shipped synthetic trace scenario from the bundled trace', async () => {
    const { loadSession } = await import('../../../src/worker/load');
    const { readFileSync } = await import('node:fs');
    const out = loadSession(readFileSync('scenarios/trace-synthetic-chat.yaml', 'utf8'));
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    out.session.runUntil(5);
    expect(out.session.decisions()).toBeGreaterThan(100);
  });
});
