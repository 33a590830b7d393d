/**
 * A client can be a request trace (#14.5, `clients[].trace`): validation with positions, each trace's
 * rows reach its own client with that client's router fields, several traces feed several clients
 * beside synthetic ones, two files' prefix blocks stay apart, the run estimate counts every trace's
 * rows, and one trace client gives exactly the figures of the same trace replayed by the top-level
 * `trace:` under the same client name.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';
import { Simulation } from '../../../src/core/sim';
import { estimateRun } from '../../../src/scenario/estimate';
import { parseScenarioText } from '../../../src/scenario';

const row = (ms: number, input: number, ids: number[], output = 4) =>
  JSON.stringify({ timestamp: ms, input_length: input, output_length: output, hash_ids: ids });

const HEAD = `version: 1
name: client traces
duration_s: 100
cluster: { workers: 2, max_batch_tokens: 2048 }
`;

/** Files a test scenario may name (by name, as the CLI reads them relative to the scenario). */
const FILES: Record<string, string> = {
  // two files whose hash ids coincide: unrelated blocks all the same
  'a.jsonl': [row(0, 1024, [1, 2], 7), row(2000, 1024, [1, 2], 7), row(4000, 600, [3], 7)].join('\n'),
  'b.jsonl': [row(500, 1024, [1, 2], 9), row(1500, 100, [], 9)].join('\n'),
};
const readFile = (p: string): string => {
  const text = FILES[p];
  if (text === undefined) throw new Error('no such file');
  return text;
};

function problemsOf(yaml: string, read: (p: string) => string = readFile): string[] {
  const r = parseScenarioText(yaml, { readFile: read });
  return r.ok ? [] : r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

describe('validation', () => {
  it('a client with both a program and a trace: one message at each of arrival and program', () => {
    expect(
      problemsOf(`${HEAD}clients:
  - name: both
    arrival: { process: poisson, rate: 1 }
    program: { type: single, prompt_tokens: 10, output_tokens: 5 }
    trace: { file: a.jsonl }
`),
    ).toEqual([
      "7:14: clients[0].arrival: a client replays a trace or runs a program, not both: remove arrival or trace (a trace client's requests, their times and prefixes come from its trace)",
      "8:14: clients[0].program: a client replays a trace or runs a program, not both: remove program or trace (a trace client's requests, their times and prefixes come from its trace)",
    ]);
  });

  it("a client's trace needs its file; unknown keys get a hint; the client's own keys say where they go", () => {
    expect(
      problemsOf(`${HEAD}clients:
  - name: nofile
    trace: { time_scale: 2 }
  - name: typo
    trace: { file: a.jsonl, tme_scale: 2, slo_class: batch }
  - name: nothing
`),
    ).toEqual([
      "7:12: clients[0].trace: missing required key 'file'",
      "9:29: clients[1].trace: unknown key 'tme_scale' (did you mean 'time_scale'?); allowed keys: file, format, columns, time_unit, time_scale, start_s, stop_s, max_requests, block_tokens, select_client",
      "9:54: clients[1].trace.slo_class: slo_class does not belong in a client's trace: give slo_class on the client, one level up",
      "10:5: clients[2]: missing required key 'arrival'",
      "10:5: clients[2]: missing required key 'program'",
    ]);
  });

  it('a file that cannot be read, and a client column, are reported at their keys', () => {
    expect(
      problemsOf(`${HEAD}clients:
  - name: missing
    trace: { file: nope.jsonl }
  - name: col
    trace: { file: a.jsonl, stop_s: 0, columns: { client: who } }
`),
    ).toEqual([
      "7:20: cannot read trace file 'nope.jsonl': no such file",
      '9:37: stop_s (0) must be after start_s (0)',
      "9:51: a client's trace feeds that one client: its client column is read only to pick rows (add select_client: <name>), or replay a trace of several clients with the top-level trace:",
    ]);
  });

  it('select_client needs the client column it reads', () => {
    expect(
      problemsOf(`${HEAD}clients:\n  - name: a\n    trace: { file: a.jsonl, select_client: alice }\n`),
    ).toEqual([
      '7:29: select_client picks rows by their client column: give columns.client (the header name of the column that says whose row it is)',
    ]);
  });

  it('a trace client cannot share its name with the top-level trace’s client', () => {
    const r = parseScenarioText(
      `${HEAD}clients:\n  - name: trace\n    trace: { file: a.jsonl }\ntrace: { file: b.jsonl }\n`,
      { readFile },
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0].message).toMatch(/also clients\[0\]'s name/);
  });
});

const MIXED = `${HEAD}clients:
  - name: alpha
    slo_class: batch
    priority: 2
    strict_priority: 1
    worker: 1
    trace: { file: a.jsonl, time_scale: 0.5 }
  - name: synth
    arrival: { process: constant, rate: 1, stop_s: 3 }
    program: { type: single, prompt_tokens: 50, output_tokens: 3 }
  - name: beta
    policy_class: fast
    trace: { file: b.jsonl, start_s: 1 }
`;

describe('several traces feed several clients', () => {
  it('each row goes to its own client, at its scaled time, with the client’s fields', () => {
    const parsed = parseScenarioText(MIXED, { readFile });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const sim = new Simulation(parsed.value, { record: false });
    const seen: string[] = [];
    sim.onRequestArrived = (r) => {
      const s = r.spec;
      seen.push(
        `${r.arrivalT} ${s.client} ${r.id} ${r.promptLen}/${s.outputTokens} ${s.sloClass} p${s.priority ?? 0} s${s.strictPriority ?? 0} w${s.worker ?? '-'} ${s.policyClass ?? '-'}`,
      );
    };
    sim.runToEnd();
    // the scenario's order is kept: trace clients where they are listed
    expect(sim.clients).toEqual(['alpha', 'synth', 'beta']);
    expect(seen.filter((l) => !l.includes(' synth '))).toEqual([
      '0 alpha alpha@L1 1024/7 batch p2 s1 w1 -',
      // b.jsonl's times count from its first row (500 ms): from 1 s on, only its second row, at 0
      '0 beta beta@L2 100/9 standard p0 s0 w- fast',
      '1 alpha alpha@L2 1024/7 batch p2 s1 w1 -',
      '2 alpha alpha@L3 600/7 batch p2 s1 w1 -',
    ]);
    expect(seen.filter((l) => l.includes(' synth '))).toHaveLength(3);
    expect(sim.result().requests.completed).toBe(7);
  });

  it("two files' equal hash ids are different blocks; one file's are the same", () => {
    const prompts = (yaml: string) => {
      const parsed = parseScenarioText(yaml, { readFile });
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
      const sim = new Simulation(parsed.value, { record: false });
      const tokens = new Map<string, Int32Array>();
      sim.onRequestArrived = (r) => tokens.set(r.id, r.spec.tokens);
      sim.runToEnd();
      return tokens;
    };
    const common = (a: Int32Array | undefined, b: Int32Array | undefined) => {
      if (a === undefined || b === undefined) throw new Error('missing request');
      let k = 0;
      while (k < a.length && k < b.length && a[k] === b[k]) k++;
      return k;
    };
    const apart = prompts(
      `${HEAD}clients:\n  - name: x\n    trace: { file: a.jsonl }\n  - name: y\n    trace: { file: b.jsonl }\n`,
    );
    expect(common(apart.get('x@L1'), apart.get('y@L1'))).toBe(0);
    expect(common(apart.get('x@L1'), apart.get('x@L2'))).toBe(1024);
    const same = prompts(
      `${HEAD}clients:\n  - name: x\n    trace: { file: a.jsonl }\n  - name: y\n    trace: { file: a.jsonl, start_s: 2 }\n`,
    );
    // y's first row is a.jsonl's second: the same blocks as x's first
    expect(common(same.get('x@L1'), same.get('y@L2'))).toBe(1024);
  });

  it('the run estimate counts every trace client’s rows once they are read', () => {
    const parsed = parseScenarioText(MIXED, { readFile });
    const unread = parseScenarioText(MIXED);
    if (!parsed.ok || !unread.ok) throw new Error('parse');
    const read = estimateRun(parsed.value);
    const before = estimateRun(unread.value);
    // 4 synthetic arrivals (constant 1/s over [0, 3], both ends) + 3 rows of a + 1 row of b in its window
    expect(read.requests).toBe(8);
    expect(read.traceUncounted).toBe(false);
    expect(before.requests).toBe(4);
    expect(before.traceUncounted).toBe(true);
  });
});

/** A CSV trace of three clients: two scenario clients each replay one client's rows (#14 select_client). */
const CSV = ['t,who,in,out', '0,ann,100,3', '1,bob,200,4', '2,ann,300,5', '3,cat,50,2', '4,bob,120,6'].join(
  '\n',
);
const SPLIT = `${HEAD}clients:
  - name: first
    trace: { file: who.csv, format: csv, columns: { timestamp: t, input: in, output: out, client: who }, select_client: ann }
  - name: second
    trace: { file: who.csv, format: csv, columns: { timestamp: t, input: in, output: out, client: who }, select_client: bob, start_s: 1.5 }
`;

describe("a client's trace can take one client's rows of a shared file (select_client)", () => {
  const readCsv = (p: string) => (p === 'who.csv' ? CSV : readFile(p));
  const arrivals = (yaml: string) => {
    const parsed = parseScenarioText(yaml, { readFile: readCsv });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const sim = new Simulation(parsed.value, { record: false });
    const seen: string[] = [];
    sim.onRequestArrived = (r) => seen.push(`${r.arrivalT} ${r.spec.client} ${r.id} ${r.promptLen}`);
    sim.runToEnd();
    return { seen, estimate: estimateRun(parsed.value).requests };
  };

  it("each scenario client gets only its rows, on the file's clock", () => {
    const { seen, estimate } = arrivals(SPLIT);
    // ann's rows are lines 2 and 4; bob's from 1.5 s on is line 6 (trace time 4 s, 2.5 s into the window)
    expect(seen).toEqual(['0 first first@L2 100', '2 first first@L4 300', '2.5 second second@L6 120']);
    expect(estimate).toBe(3);
  });

  it('a name no row has is refused at its key when the file is read, listing the names the column holds', () => {
    const bad = SPLIT.replace('select_client: bob', 'select_client: bobby');
    const why = "no row of 'who.csv' has client 'bobby' in its client column (it has 'ann', 'bob', 'cat')";
    expect(problemsOf(bad, readCsv)).toEqual([`9:121: ${why}`]);
    // unread at validation (the page before the file is dropped): the run refuses it at the same key
    const unread = parseScenarioText(bad);
    if (!unread.ok) throw new Error(JSON.stringify(unread.problems));
    const parsed = parseScenarioText(SPLIT, { readFile: readCsv });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const second = parsed.value.clients[1];
    if (!('trace' in second)) throw new Error('not a trace client');
    second.trace.select_client = 'bobby';
    expect(() => new Simulation(parsed.value, { record: false })).toThrow(why);
  });
});

describe('one trace client = the top-level trace under that name', () => {
  const chat = readFileSync('scenarios/traces/synthetic-chat.jsonl', 'utf8');
  const base = readFileSync('scenarios/trace-synthetic-chat.yaml', 'utf8')
    .replace(/^duration_s: .*$/m, 'duration_s: 30')
    .replace(/^trace:[\s\S]*$/m, '');
  const run = (tail: string) => {
    const parsed = parseScenarioText(`${base}${tail}`, { readFile: () => chat });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const sim = new Simulation(parsed.value, { record: false });
    sim.runToEnd();
    return sim.result();
  };
  it('every figure of the run is the same', () => {
    const top = run('trace: { file: chat.jsonl, time_scale: 0.5, client: chat }\n');
    const client = run('clients:\n  - name: chat\n    trace: { file: chat.jsonl, time_scale: 0.5 }\n');
    expect(top.requests.injected).toBeGreaterThan(100);
    expect(JSON.stringify({ ...client, wall_time_s: 0 })).toBe(JSON.stringify({ ...top, wall_time_s: 0 }));
  });
});

describe('the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fg-client-trace-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  const scenario = join(dir, 's.yaml');
  writeFileSync(scenario, MIXED);

  it('run --json names each client’s trace and clock (client_traces)', async () => {
    const io = memoryIO();
    expect(await runCommand([scenario, '--json'], io)).toBe(0);
    const res = JSON.parse(io.stdout.join(''));
    expect(Object.keys(res.clients)).toEqual(['alpha', 'synth', 'beta']);
    expect(res.client_traces).toEqual({
      alpha: { file: 'a.jsonl', time_scale: 0.5, start_s: 0, stop_s: null, max_requests: null },
      beta: { file: 'b.jsonl', time_scale: 1, start_s: 1, stop_s: null, max_requests: null },
    });
    expect('trace_replay' in res).toBe(false);
  });

  it('--replay still replaces the whole workload, without reading the clients’ trace files', async () => {
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, MIXED.replace('file: b.jsonl', 'file: missing.jsonl'));
    const io = memoryIO();
    expect(await runCommand([broken, '--replay', join(dir, 'b.jsonl'), '--json'], io)).toBe(0);
    const res = JSON.parse(io.stdout.join(''));
    expect(Object.keys(res.clients)).toEqual(['trace']);
    expect(res.requests.injected).toBe(2);
    expect('client_traces' in res).toBe(false);
  });
});
