/**
 * The fuzzer behind `npm run fuzz` and the short-budget fuzz unit test (#15.8): byte and line
 * mutations of every format's shipped files (policy, scenario, arbitration script, BLIS workload
 * spec, request traces: Mooncake JSONL and Azure, BurstGPT and column-mapped CSV), share links (mutated link text and mutated state inside a well-formed link, through the
 * codec's pure decode), and random arbitration scripts generated with fast-check, run on the queue.
 *
 * Each input ends in one outcome: `valid` (accepted; scenarios and scripts are then run for a bounded
 * number of events/steps), `refused` (positioned problems or a link's reason), or a failure:
 * `crash` (an exception escaped), `slow` (one input took longer than its limit), `bad-message`
 * (a problem without a real position, a raw engine message, or a message that echoes more than 100
 * characters of one run of user text). Deterministic for a seed; a time budget bounds the run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ArbitrationSession } from '../../src/core/drr/script-runner';
import { Rng } from '../../src/core/prng';
import { Simulation } from '../../src/core/sim';
import { importBlis } from '../../src/import/blis';
import { validatePolicyText, validateScriptText } from '../../src/policy';
import { parseScenarioText } from '../../src/scenario';
import { readTraceText, type TraceReadOptions } from '../../src/format/trace';
import { decodeShare, deflate, encodeShare, toBase64Url } from '../../src/ui/share/codec';
import { longRun, mutate } from './mutations';

export type Outcome = 'valid' | 'refused' | 'crash' | 'slow' | 'bad-message';
export const FAILURES: readonly Outcome[] = ['crash', 'slow', 'bad-message'];

export interface Failure {
  target: string;
  outcome: Outcome;
  detail: string;
  input: string;
}

export interface FuzzReport {
  seed: number;
  inputs: number;
  counts: Record<string, Record<Outcome, number>>;
  failures: Failure[];
}

const root = join(import.meta.dirname, '..', '..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');

const SEEDS = {
  policy: ['scenarios/dynamo-sample-policy.yaml'],
  scenario: ['scenarios/vtc-overload.yaml', 'scenarios/default.yaml', 'scenarios/vajra-lrs.yaml'],
  script: [
    'scenarios/drr-burst.yaml',
    'scenarios/drr-blocked-class.yaml',
    'scenarios/drr-sample-policy.yaml',
  ],
  blis: ['tests/unit/import/fixtures/mixed.yaml', 'tests/unit/import/fixtures/prefix-affinity.yaml'],
};

interface Checked {
  ok: boolean;
  problems?: { line: number; col: number; message: string }[];
}

const ENGINE =
  /Maximum call stack|too much recursion|RangeError|TypeError|ReferenceError|undefined is not|Cannot read propert|\n\s+at /;

/** The longest run of one repeated letter in `s` (an echoed LONG token). */
function longestRun(s: string): number {
  let best = 0;
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    run = i > 0 && s[i] === s[i - 1] && /[A-Z]/.test(s[i]) ? run + 1 : 1;
    if (run > best) best = run;
  }
  return best;
}

export function judgeProblems(r: Checked, text: string): { outcome: Outcome; detail: string } {
  if (r.ok) return { outcome: 'valid', detail: '' };
  const lines = text.split('\n').length;
  for (const p of r.problems ?? []) {
    if (
      !(
        Number.isInteger(p.line) &&
        Number.isInteger(p.col) &&
        p.line >= 1 &&
        p.col >= 1 &&
        p.line <= lines + 1
      )
    )
      return {
        outcome: 'bad-message',
        detail: `unpositioned: ${p.line}:${p.col}: ${p.message.slice(0, 200)}`,
      };
    if (ENGINE.test(p.message))
      return { outcome: 'bad-message', detail: `engine message: ${p.message.slice(0, 200)}` };
    if (longestRun(p.message) > 100)
      return {
        outcome: 'bad-message',
        detail:
          `echoes ${longestRun(p.message)} characters of input: ${p.line}:${p.col}: ${p.message.replace(/([A-Z])\1{20,}/g, '$1…')}`.slice(
            0,
            300,
          ),
      };
  }
  if ((r.problems ?? []).length === 0) return { outcome: 'bad-message', detail: 'refused without a problem' };
  return { outcome: 'refused', detail: '' };
}

type Target = {
  name: string;
  run: (rng: Rng) => Promise<{ outcome: Outcome; detail: string; input: string }>;
};

function textTarget(
  name: string,
  seeds: string[],
  check: (t: string) => Checked,
  after?: (t: string) => void,
): Target {
  const texts = seeds.map(read);
  return {
    name,
    run: async (rng) => {
      const input = mutate(texts[rng.int(texts.length)], rng);
      const r = check(input);
      const judged = judgeProblems(r, input);
      if (judged.outcome === 'valid' && after) after(input);
      return { ...judged, input };
    },
  };
}

const SCENARIO_EVENTS = 20_000;
const SCRIPT_STEPS = 5_000;

function runScenario(text: string): void {
  const s = parseScenarioText(text);
  if (!s.ok) return;
  const sim = new Simulation(s.value, { record: true });
  sim.runToEnd({ maxEvents: SCENARIO_EVENTS });
  sim.result();
}

function runScript(text: string): void {
  const s = validateScriptText(text);
  if (!s.ok) return;
  const session = new ArbitrationSession(s.value, { record: true });
  for (let i = 0; i < SCRIPT_STEPS && session.step(); i++);
}

const CLASSES = ['A', 'B', 'C'];
/** A random arbitration script: a policy of 1–3 classes and a mix of enqueues and pops. */
const scriptArb = fc
  .record({
    quanta: fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 3 }),
    ops: fc.array(
      fc.oneof(
        fc.record({
          enqueue: fc.record({
            class: fc.constantFrom(...CLASSES, 'Z'),
            cost: fc.integer({ min: 0, max: 40 }),
          }),
        }),
        fc.record({ pop: fc.record({ count: fc.integer({ min: 1, max: 5 }) }) }),
      ),
      { maxLength: 60 },
    ),
  })
  .map(({ quanta, ops }) => {
    const classes = quanta.map((q, i) => `      - {name: ${CLASSES[i]}, quantum: ${q}}`).join('\n');
    let id = 0;
    const lines = ops.map((o) =>
      'enqueue' in o
        ? `  - enqueue: {id: r${id++}, class: ${o.enqueue.class}, cost: ${o.enqueue.cost}}`
        : `  - pop: {count: ${o.pop.count}}`,
    );
    return `policy:\n  policy_classes:\n${classes}\nops:\n${lines.join('\n') || '  - pop: {}'}\n`;
  });

async function linkOf(state: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  return `#s=1.${toBase64Url(await deflate(bytes))}`;
}

/** Trace files to mutate: the shipped Mooncake trace's head and CSVs of each layout. */
function traceSeeds(): { name: string; text: string; opts: TraceReadOptions }[] {
  const rows = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('\n');
  const mooncake = read('scenarios/traces/synthetic-chat.jsonl').split('\n').slice(0, 200).join('\n');
  return [
    { name: 'chat.jsonl', text: mooncake, opts: {} },
    {
      name: 'azure.csv',
      text: `TIMESTAMP,ContextTokens,GeneratedTokens\n${rows(60, (i) => `2023-11-16 18:15:${String(10 + (i % 40)).padStart(2, '0')}.${i},${100 + i},${i + 1}`)}`,
      opts: {},
    },
    {
      name: 'burst.csv',
      text: `Timestamp,Model,Request tokens,Response tokens\n${rows(60, (i) => `${i * 0.5},ChatGPT,${200 + i},${10 + i}`)}`,
      opts: {},
    },
    {
      name: 'mapped.csv',
      text: `ts,who,p,o\n${rows(60, (i) => `${i * 100},${i % 3 ? 'a' : 'b'},${50 + i},${5 + i}`)}`,
      opts: {
        format: 'csv',
        columns: { timestamp: 'ts', input: 'p', output: 'o', client: 'who' },
        timeUnit: 'ms',
      },
    },
  ];
}

/**
 * A trace reading's problems judged as a format's: a line (0: the file as a whole) within the file
 * and a column, no engine message, no long echo of the input.
 */
export function judgeTrace(
  r: ReturnType<typeof readTraceText>,
  text: string,
): { outcome: Outcome; detail: string } {
  if (r.ok) return { outcome: 'valid', detail: '' };
  const lines = text.split('\n').length;
  const problems = r.problems.map((p) => ({
    line: Math.max(1, p.line),
    col: p.col ?? 1,
    message: p.message,
  }));
  for (const p of r.problems)
    if (!(Number.isInteger(p.line) && p.line >= 0 && p.line <= lines + 1))
      return { outcome: 'bad-message', detail: `unpositioned: ${p.line}: ${p.message.slice(0, 200)}` };
  return judgeProblems({ ok: false, problems }, text);
}

export function targets(): Target[] {
  const traces = traceSeeds();
  const shareScenarios = ['scenarios/vtc-overload.yaml', 'scenarios/drr-burst.yaml'].map(read);
  let goodLink: string | null = null;
  const judgeLink = async (hash: string) => {
    const r = await decodeShare(hash);
    if (!r.ok) {
      if (ENGINE.test(r.reason))
        return { outcome: 'bad-message' as const, detail: `engine message: ${r.reason.slice(0, 200)}` };
      if (longestRun(r.reason) > 100)
        return { outcome: 'bad-message' as const, detail: 'reason echoes input' };
      return { outcome: 'refused' as const, detail: '' };
    }
    // the page then validates the scenario text it carries
    return judgeProblems(parseScenarioText(r.state.scenario), r.state.scenario);
  };
  return [
    textTarget('policy', SEEDS.policy, (t) => validatePolicyText(t)),
    textTarget('scenario', SEEDS.scenario, (t) => parseScenarioText(t), runScenario),
    textTarget('script', SEEDS.script, (t) => validateScriptText(t), runScript),
    textTarget('blis', SEEDS.blis, (t) => importBlis(t)),
    {
      name: 'trace',
      run: async (rng) => {
        const seed = traces[rng.int(traces.length)];
        const input = mutate(seed.text, rng);
        return { ...judgeTrace(readTraceText(seed.name, input, seed.opts), input), input };
      },
    },
    {
      name: 'share-link',
      run: async (rng) => {
        goodLink ??= await encodeShare({
          scenario: shareScenarios[0],
          playhead: 12,
          layout: { theme: 'dark' },
        });
        const input = mutate(goodLink, rng);
        return { ...(await judgeLink(input)), input };
      },
    },
    {
      name: 'share-state',
      run: async (rng) => {
        const state = {
          scenario: mutate(shareScenarios[rng.int(shareScenarios.length)], rng),
          playhead: [0, 5, -1, 1e308, 2 ** 53][rng.int(5)],
          layout: rng.int(4) === 0 ? { theme: longRun(rng) } : { speed: rng.int(100) },
          ...(rng.int(3) === 0 ? { compare: { sets: [`${longRun(rng)}=1`], label: longRun(rng) } } : {}),
          ...(rng.int(4) === 0 ? { embed: { panels: [longRun(rng), 'ring'] } } : {}),
        };
        const input = await linkOf(state);
        return { ...(await judgeLink(input)), input: JSON.stringify(state).slice(0, 2000) };
      },
    },
    {
      name: 'random-script',
      run: async (rng) => {
        const [input] = fc.sample(scriptArb, { seed: rng.nextU32() | 0, numRuns: 1 });
        const r = validateScriptText(input);
        const judged = judgeProblems(r, input);
        if (judged.outcome === 'valid') runScript(input);
        return { ...judged, input };
      },
    },
  ];
}

/** Fuzz until `budgetS` seconds have passed (at least one input per target). */
export async function fuzz(opts: {
  seed: number;
  budgetS: number;
  slowMs?: number;
  only?: string;
}): Promise<FuzzReport> {
  const rng = new Rng(opts.seed);
  const all = targets().filter((t) => !opts.only || t.name.includes(opts.only));
  const counts: FuzzReport['counts'] = {};
  for (const t of all) counts[t.name] = { valid: 0, refused: 0, crash: 0, slow: 0, 'bad-message': 0 };
  const failures: Failure[] = [];
  const slowMs = opts.slowMs ?? 5000;
  // a warning printed on stderr (Node's process warnings) is output outside file:line:col too
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on('warning', onWarning);
  const t0 = performance.now();
  let inputs = 0;
  for (let round = 0; round === 0 || performance.now() - t0 < opts.budgetS * 1000; round++) {
    for (const t of all) {
      const s0 = performance.now();
      let res: { outcome: Outcome; detail: string; input: string };
      try {
        res = await t.run(rng);
      } catch (err) {
        res = {
          outcome: 'crash',
          detail: err instanceof Error ? (err.stack ?? err.message) : String(err),
          input: '(see seed)',
        };
      }
      const ms = performance.now() - s0;
      if (res.outcome !== 'crash' && ms > slowMs)
        res = { ...res, outcome: 'slow', detail: `${ms.toFixed(0)} ms` };
      await new Promise((done) => setImmediate(done)); // warnings are emitted on the next tick
      if (warnings.length > 0 && !FAILURES.includes(res.outcome))
        res = { ...res, outcome: 'bad-message', detail: `printed a warning: ${warnings[0].slice(0, 200)}` };
      warnings.length = 0;
      counts[t.name][res.outcome]++;
      inputs++;
      if (FAILURES.includes(res.outcome) && failures.length < 20)
        failures.push({
          target: t.name,
          outcome: res.outcome,
          detail: res.detail,
          input: res.input.slice(0, 4000),
        });
    }
  }
  process.off('warning', onWarning);
  return { seed: opts.seed, inputs, counts, failures };
}

export function formatReport(r: FuzzReport, seconds: number): string {
  const outcomes: Outcome[] = ['valid', 'refused', 'crash', 'slow', 'bad-message'];
  const rows = Object.entries(r.counts).map(([name, c]) => [name, ...outcomes.map((o) => String(c[o]))]);
  const head = ['target', ...outcomes];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [
    `fuzz: seed ${r.seed}, ${r.inputs} inputs in ${seconds.toFixed(1)} s`,
    line(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
  ];
  const failed = Object.values(r.counts).reduce((s, c) => s + c.crash + c.slow + c['bad-message'], 0);
  out.push(failed === 0 ? 'no failures' : `${failed} failures; first ones:`);
  for (const f of r.failures.slice(0, 5))
    out.push(
      `- ${f.target} ${f.outcome}: ${f.detail.split('\n').slice(0, 6).join('\n    ')}\n  input: ${JSON.stringify(f.input.slice(0, 300))}`,
    );
  return out.join('\n');
}
