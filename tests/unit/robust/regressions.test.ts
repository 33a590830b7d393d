/**
 * Every input that ever broke something (#15, "the fuzzing stays"), kept as a regression test:
 * a 900k-character `_a_b ` description, a 100,000-character class name echoed in full, YAML nested
 * 1,000+ deep (a stack overflow in a Web Worker's smaller stack, heap exhaustion at 10,000 in Node),
 * `policy_file: /dev/zero` (see tests/unit/cli/read-limited.test.ts), the runaway scenarios (see
 * tests/unit/robust/budget.test.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import '../fast-check-seed';
import { memoryIO } from '../../../src/cli/io';
import { checkText } from '../../../src/cli/validate';
import { TraceReader } from '../../../src/format/trace/reader';
import { nameList, parseYaml, quote, YAML_LIMITS } from '../../../src/format/yaml';
import { importBlis } from '../../../src/import/blis';
import { validatePolicyText, validateScriptText } from '../../../src/policy';
import { parseScenarioText } from '../../../src/scenario';

const burst = readFileSync('scenarios/drr-burst.yaml', 'utf8');
const scenario = readFileSync('scenarios/vtc-overload.yaml', 'utf8');
const policy = readFileSync('scenarios/dynamo-sample-policy.yaml', 'utf8');
const blis = readFileSync('tests/unit/import/fixtures/mixed.yaml', 'utf8');

type Check = (text: string) => { ok: boolean; problems?: { message: string; line: number; col: number }[] };
const FORMATS: Record<string, { check: Check; base: string }> = {
  script: { check: (t) => validateScriptText(t), base: burst },
  scenario: { check: (t) => parseScenarioText(t), base: scenario },
  policy: { check: (t) => validatePolicyText(t), base: policy },
  blis: { check: (t) => importBlis(t), base: blis },
};

function problemsOf(r: ReturnType<Check>): { message: string; line: number; col: number }[] {
  expect(r.ok).toBe(false);
  return r.problems ?? [];
}

/** The longest run of `token` characters any message repeats (user input echoed). */
function longestEcho(messages: string[], token: string): number {
  let best = 0;
  for (const m of messages) {
    const re = new RegExp(`${token[0]}+`, 'g');
    for (const run of m.match(re) ?? []) best = Math.max(best, run.length);
  }
  return best;
}

describe('regressions: text caps and quoting', () => {
  it('a script whose description is 900k characters of `_a_b ` is refused fast, located', () => {
    const text = `description: "${'_a_b '.repeat(180_000)}"\n${burst.replace(/^description:[\s\S]*?(?=^\w)/m, '')}`;
    const t0 = performance.now();
    const ps = problemsOf(validateScriptText(text));
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(ps[0].message).toContain('description: a description of 900,000 characters; the limit is 20,000');
    expect(ps[0].line).toBe(1);
  });

  it('a description over 20,000 characters is refused in every format; 20,000 pass the cap', () => {
    for (const [name, { check, base }] of Object.entries(FORMATS)) {
      const doc = parseDocument(base);
      doc.set('description', 'x'.repeat(20_001));
      const long = doc.toString({ lineWidth: 0 });
      const ps = problemsOf(check(long));
      expect(ps.map((p) => p.message).join('\n'), name).toContain('a description of 20,001 characters');
      expect(
        longestEcho(
          ps.map((p) => p.message),
          'x',
        ),
        name,
      ).toBeLessThanOrEqual(80);
    }
    expect(parseYaml(`description: "${'x'.repeat(20_000)}"`).ok).toBe(true);
  });

  it('a 100,000-character class name is refused without being echoed; a 4,000-character one is quoted short', () => {
    for (const len of [100_000, 4_000]) {
      const name = 'Q'.repeat(len);
      const text = burst.replace('class: A, cost: 3}', `class: ${name}, cost: 3}`);
      const ps = problemsOf(validateScriptText(text));
      expect(ps.length).toBeGreaterThan(0);
      expect(
        longestEcho(
          ps.map((p) => p.message),
          'Q',
        ),
      ).toBeLessThanOrEqual(80);
    }
  });

  it('long unknown keys are refused or quoted short in every format', () => {
    for (const [name, { check, base }] of Object.entries(FORMATS)) {
      for (const len of [100_000, 200]) {
        const ps = problemsOf(check(`${'K'.repeat(len)}: 1\n${base}`));
        expect(
          longestEcho(
            ps.map((p) => p.message),
            'K',
          ),
          `${name} ${len}`,
        ).toBeLessThanOrEqual(80);
        expect(ps[0].line, name).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('quote keeps head and tail of long text and says how long it was', () => {
    expect(quote('short')).toBe('short');
    const q = quote('a'.repeat(50) + 'b'.repeat(100));
    expect(q.startsWith('aaaa')).toBe(true);
    expect(q).toContain('…');
    expect(q).toContain('(150 characters)');
    expect(q.replace(/ \(.*$/, '').length).toBe(80);
  });
});

describe('regressions: nesting', () => {
  const deep = {
    flow: (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`,
    flowMap: (n: number) => `${'{a: '.repeat(n)}1${'}'.repeat(n)}`,
    compactSeq: (n: number) => `${'- '.repeat(n)}x`,
    blockMap: (n: number) => Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k:`).join('\n'),
  };

  it('1,000 and 20,000 deep give the same located "nesting deeper than 64 levels" in every format', () => {
    for (const [shape, make] of Object.entries(deep)) {
      for (const n of shape === 'blockMap' ? [1000] : [1000, 20_000]) {
        const text = make(n);
        const first = parseYaml(text);
        expect(first.ok).toBe(false);
        if (first.ok) continue;
        expect(first.problems[0].message, shape).toBe(`nesting deeper than ${YAML_LIMITS.maxDepth} levels`);
        if (n > 1000) continue; // every format parses with parseYaml; once per shape is enough
        for (const [name, { check }] of Object.entries(FORMATS)) {
          const ps = problemsOf(check(text));
          expect(ps[0].message, `${name} ${shape}`).toContain(
            `nesting deeper than ${YAML_LIMITS.maxDepth} levels`,
          );
        }
      }
    }
    // 64 levels are fine
    expect(parseYaml(deep.flow(YAML_LIMITS.maxDepth)).ok).toBe(true);
  });

  it('in a small stack (as in a browser worker) the message and position are the same as in Node', () => {
    const script = [
      "import { parseYaml } from './src/format/yaml.ts';",
      "const r = parseYaml('['.repeat(1000) + ']'.repeat(1000));",
      "const s = parseYaml(Array.from({ length: 1000 }, (_, i) => ' '.repeat(i) + 'k:').join('\\n'));",
      'console.log(JSON.stringify([r, s].map((x) => (x.ok ? null : x.problems[0]))));',
    ].join('\n');
    const out = execFileSync(
      process.execPath,
      ['--stack-size=200', '--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    );
    const small = JSON.parse(out) as { line: number; col: number; message: string }[];
    const here = [parseYaml(deep.flow(1000)), parseYaml(deep.blockMap(1000))].map((x) =>
      x.ok ? null : x.problems[0],
    );
    expect(small).toEqual(here.map((p) => p && { line: p.line, col: p.col, message: p.message, path: [] }));
    expect(small[0]?.message).toBe('nesting deeper than 64 levels');
  }, 60_000);
});

describe('regressions: lists, names and file names quote short (#15 re-check)', () => {
  // Before: a 4,000-character bucket, family, class or instance name was listed in full by the rules
  // that name the known ones ('buckets: …', 'families: …', 'classes of profile …', missing cells),
  // a long trace.file or policy_file name prefixed every problem of that file, a trace's client
  // name was cut to 200 characters without a word (two long names alike in their first 200 became
  // one client), a mapping of 1,000 stray keys listed all 1,000, and an unknown command was echoed
  // in full.
  const LONG = (seed: string) => `${seed}Q`.repeat(4000).slice(0, 4000);

  /** Every string value (4,000 characters) and every key (250) of a shipped file, one at a time. */
  function* planted(file: string): Generator<string> {
    const doc = parseDocument(readFileSync(`scenarios/${file}`, 'utf8'));
    const count = { n: 0 };
    const places = (v: unknown, visit: (o: { [k: string]: unknown }, k: string) => void) => {
      const walk = (x: unknown) => {
        if (Array.isArray(x)) x.forEach(walk);
        else if (x && typeof x === 'object')
          for (const [k, y] of Object.entries(x)) {
            visit(x as { [k: string]: unknown }, k);
            walk(y);
          }
      };
      walk(v);
    };
    places(doc.toJS(), () => count.n++);
    for (let i = 0; i < count.n; i++)
      for (const variant of ['value', 'key']) {
        const js = doc.toJS();
        let j = 0;
        let changed = false;
        places(js, (o, k) => {
          if (j++ !== i) return;
          if (variant === 'value' && typeof o[k] === 'string') {
            o[k] = LONG(o[k] as string);
            changed = true;
          } else if (variant === 'key') {
            const entries = Object.entries(o);
            for (const key of Object.keys(o)) delete o[key];
            for (const [key, v] of entries) o[key === k ? `${k}Q`.repeat(300).slice(0, 250) : key] = v;
            changed = true;
          }
        });
        if (changed) yield stringify(js, { lineWidth: 0 });
      }
  }

  it('no problem of a shipped file with a long name or key planted anywhere quotes more than ~100 characters of it', () => {
    let checked = 0;
    for (const file of ['default.yaml', 'drr-blocked-class.yaml', 'trace-synthetic-chat.yaml']) {
      for (const text of planted(file)) {
        const { problems } = checkText(text, `scenarios/${file}`, memoryIO());
        checked++;
        for (const p of problems) {
          const echo = (p.message.match(/Q(?:[^Q]{0,30}Q)*/g) ?? []).reduce(
            (a, b) => Math.max(a, b.length),
            0,
          );
          expect(echo, p.message.slice(0, 300)).toBeLessThanOrEqual(120);
          expect(p.message.length, p.message.slice(0, 300)).toBeLessThan(700);
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  }, 120_000);

  it('lists of names: a few, each cut, the rest counted', () => {
    expect(nameList(['a', 'b', 'c'])).toBe('a, b, c');
    const many = Array.from({ length: 50 }, (_, i) => `name${i}`);
    expect(nameList(many)).toMatch(/^name0, name1, .* and \d+ more$/);
    expect(nameList(many).length).toBeLessThan(110);
    expect(nameList([LONG('x'), LONG('y')])).toMatch(/^x.{0,40}\(4,000 characters\) and 1 more$/);
  });

  it('1,000 stray keys in one mapping: the first ten one by one, each at its place, the rest counted', () => {
    const text = `policy_classes:\n  - {name: a, quantum: 1, ${Array.from({ length: 1000 }, (_, i) => `k${i}: 1`).join(', ')}}\n`;
    const ps = problemsOf(validatePolicyText(text)).filter((p) => p.message.includes('unknown key'));
    const m = ps.map((p) => p.message);
    expect(m).toHaveLength(11);
    for (let i = 0; i < 10; i++) expect(m[i]).toMatch(new RegExp(`unknown key 'k${i}';`));
    expect(new Set(ps.map((p) => p.col)).size, 'each key at its own column').toBe(11);
    expect(m[10]).toContain(
      "unknown key 'k10', unknown key 'k11', unknown key 'k12', and 987 more unknown keys;",
    );
    expect(Math.max(...m.map((x) => x.length))).toBeLessThan(500);
  });

  it("a trace's client, model or class name over 256 characters is refused at its line, quoted short", () => {
    const r = new TraceReader('t.csv', {
      format: 'csv',
      columns: { timestamp: 't', input: 'i', output: 'o', client: 'c' },
    });
    r.push(`t,i,o,c\n0,10,10,alice\n1,10,10,${'b'.repeat(100_000)}\n`);
    const res = r.end();
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.problems).toHaveLength(1);
      expect(res.problems[0].line).toBe(3);
      expect(res.problems[0].message).toMatch(
        /^the client name 'b{60}…' is 100,000 characters; the limit is 256$/,
      );
    }
    const col = new TraceReader('t.csv', {
      format: 'csv',
      columns: { timestamp: 't', input: 'i', output: 'o', client: 'z'.repeat(4000) },
    });
    col.push('t,i,o,c\n0,10,10,alice\n');
    const cr = col.end();
    expect(cr.ok).toBe(false);
    if (!cr.ok) expect(cr.problems[0].message.length).toBeLessThan(200);
  });

  it('an unknown command of 5,000 characters is quoted short', () => {
    const r = spawnSync('node', ['node_modules/.bin/tsx', 'src/cli/main.ts', 'x'.repeat(5000)], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^unknown command 'x{60}… \(5000 characters\)'/);
    expect(r.stderr.length).toBeLessThan(200);
  });
});

describe('regressions: keys that are mappings or lists (#15 re-check, from `npm run fuzz`)', () => {
  // Before: `? {x: 1}` or `[a, b]: 1` became a key '{ x: 1 }' (reported at 1:1, as the key could not
  // be found again) and Node printed 'Warning: Keys with collection values will be stringified' on
  // stderr, outside the file:line:col format.
  it('is refused at the key, in every format, with nothing else on stderr', () => {
    const at = (text: string) => {
      const r = parseYaml(text);
      if (r.ok) throw new Error('refusal expected');
      return r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
    };
    expect(at('policy_classes:\n  - {name: a, quantum: 1}\n? {x: 1}\n: 2\n')).toEqual([
      '3:3: a key must be plain text, not a mapping (write it as a name)',
    ]);
    expect(at('[a, b]: 1\n')).toEqual(['1:1: a key must be plain text, not a list (write it as a name)']);
    expect(at('a: &x {p: 1}\nb:\n  *x : 2\n')).toEqual([
      '3:3: a key must be plain text, not a mapping (write it as a name)',
    ]);
    expect(parseYaml('a: &x k\n*x : 2\n').ok).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'fg-key-'));
    const file = join(dir, 'k.yaml');
    writeFileSync(file, 'ops:\n  - pop: {}\n? [1, 2]\n: 3\n');
    const r = spawnSync('node', ['node_modules/.bin/tsx', 'src/cli/main.ts', 'validate', file], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`${file}:3:3: a key must be plain text, not a list (write it as a name)\n`);
  });
});

describe('regressions: one numeric mistake, one message (#15 leftover)', () => {
  // Before: `max_requests: 1e300` gave 'must be a whole number' (zod's int check is a safe-integer
  // check) and 'must be ≤ 10,000,000'; -2.5 gave 'whole number' and '≥ 1'; a uniform length's
  // `max: 0.5` gave 'max must be ≥ 1' and 'min must be ≤ max'; a policy quantum of -1e300 gave
  // 'must be ≤ 9007199254740991' and 'must be ≥ 1'.
  const located = (r: ReturnType<Check>) => problemsOf(r).map((p) => `${p.line}:${p.col}: ${p.message}`);

  it('max_requests: 1e300 says only that it is too large, at the value', () => {
    const text = 'version: 1\nname: mr\ntrace:\n  file: t.jsonl\n  max_requests: 1e300\nclients: []\n';
    expect(located(parseScenarioText(text))).toEqual([
      '5:17: trace.max_requests: max_requests must be ≤ 10,000,000',
    ]);
    expect(located(parseScenarioText(text.replace('1e300', '-2.5')))).toEqual([
      '5:17: trace.max_requests: max_requests must be ≥ 1',
    ]);
    expect(located(parseScenarioText(text.replace('1e300', '2.5')))).toEqual([
      '5:17: trace.max_requests: max_requests must be a whole number',
    ]);
    // a script's capped counts: not also 'must be ≤ 9007199254740991'
    expect(located(validateScriptText('workers: 1e300\nops:\n  - pop: {count: 1e20}\n'))).toEqual([
      '1:10: workers: workers must be ≤ 1000000',
      '3:18: ops[0].pop.count: count must be ≤ 1000000',
    ]);
    const quantum = 'policy_classes:\n  - {name: a, quantum: -1e300}\n';
    expect(located(validatePolicyText(quantum)).filter((l) => l.startsWith('2:'))).toEqual([
      '2:24: policy_classes[0].quantum: quantum must be ≥ 1',
    ]);
  });

  // every numeric field of a scenario that writes most of them (cluster, worker weights, a trace,
  // lengths, a scripted request, the router's fields)
  const base = {
    version: 1,
    name: 'numbers',
    seed: 3,
    duration_s: 30,
    cluster: {
      workers: 2,
      kv_cache_tokens: 50_000,
      block_size: 16,
      max_batch_tokens: 8192,
      max_running: 64,
      chunking: { mode: 'dynamic', chunk_tokens: 2048, target_step_ms: 40 },
    },
    scheduler: { policy: 'vtc', weights: { input: 1, output: 0 } },
    trace: { file: 't.jsonl', time_scale: 1, start_s: 0, stop_s: 20, max_requests: 100, block_tokens: 512 },
    clients: [
      {
        name: 'a',
        priority: 1,
        strict_priority: 0,
        worker: 1,
        due_in_s: 5,
        arrival: { process: 'gamma', rate: 2, cv: 1.5, start_s: 1, stop_s: 20 },
        program: {
          type: 'multi-turn',
          turns: 3,
          shared_prefix_tokens: 100,
          prompt_tokens: { dist: 'uniform', min: 10, max: 200 },
          output_tokens: { dist: 'normal', mean: 50, std: 10, min: 5, max: 100 },
        },
      },
    ],
    requests: [{ t: 2, client: 'b', prompt_tokens: 100, output_tokens: 10, max_new_tokens: 20, worker: 0 }],
  };
  type Doc = { [k: string | number]: unknown };
  const numericPaths: (string | number)[][] = [];
  const walk = (v: unknown, p: (string | number)[]) => {
    if (typeof v === 'number') numericPaths.push(p);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) walk(x, [...p, Array.isArray(v) ? Number(k) : k]);
  };
  walk(base, []);

  it('the base is valid and has the fields', () => {
    expect(parseScenarioText(stringify(base)).ok).toBe(true);
    expect(numericPaths.length).toBeGreaterThan(35);
  });

  it('any number written into any numeric field gives at most one message about that field', () => {
    const value = fc.oneof(
      fc.constantFrom(1e300, -1e300, 2.5, -2.5, 0.5, -0.5, 0, 1e20, 2 ** 53 + 2, -(2 ** 53) - 2),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
    fc.assert(
      fc.property(fc.nat(numericPaths.length - 1), value, (i, v) => {
        const path = numericPaths[i];
        const d = structuredClone(base) as Doc;
        let o = d;
        for (const k of path.slice(0, -1)) o = o[k] as Doc;
        o[path[path.length - 1]] = v;
        const r = parseScenarioText(stringify(d));
        if (r.ok) return;
        // the field's own problems and, below the top level, its mapping's (a bound against the
        // other bound, a weight against the other weight); a top-level duration_s may still make
        // a client or a request elsewhere wrong, each said at its place
        const key = path.join('.');
        const parent = path.length > 1 ? path.slice(0, -1).join('.') : key;
        const near = r.problems.filter((p) => p.path.join('.').startsWith(parent));
        const here = near.filter((p) => p.path.join('.') === key);
        expect(
          here.length,
          `${path.join('.')} = ${v}: ${here.map((p) => p.message).join(' | ')}`,
        ).toBeLessThanOrEqual(1);
        expect(
          near.length,
          `${path.join('.')} = ${v}: ${near.map((p) => p.message).join(' | ')}`,
        ).toBeLessThanOrEqual(1);
      }),
      { numRuns: 120 },
    );
  });
});

// A new user's tryout: `--set clients.alice=null` (and `clients: [null]` in a file) crashed the
// scenario schema's client check, which ran on whatever stood there: "internal error", exit 2.
describe('regressions: any node of any format replaced by a value of another kind', () => {
  const nodePaths = (text: string): (string | number)[][] => {
    const out: (string | number)[][] = [];
    const walk = (v: unknown, p: (string | number)[]) => {
      if (p.length > 0) out.push(p);
      if (v !== null && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) walk(x, [...p, Array.isArray(v) ? Number(k) : k]);
    };
    walk(parseDocument(text).toJS(), []);
    return out;
  };

  it('clients: [null] is a located type problem, not a crash', () => {
    const r = parseScenarioText(scenario.replace(/^clients:\n/m, 'clients:\n  - null\n'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.message)).toEqual([
      'clients[0]: expected a mapping (key: value lines), got an empty value (null)',
    ]);
  });

  it('a number in quotes is told to lose them', () => {
    const r = parseScenarioText(scenario.replace('prompt_tokens: 256', 'prompt_tokens: "10"'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems[0].message).toMatch(/got the text '10': write the number without quotes/);
  });

  for (const [name, { check, base }] of Object.entries(FORMATS)) {
    const paths = nodePaths(base);
    it(`${name}: never throws, and every problem has a place (${paths.length} nodes)`, () => {
      fc.assert(
        fc.property(
          fc.nat(paths.length - 1),
          fc.constantFrom<unknown>(null, 3, -1, 'x', [], [null], {}, { a: null }, true),
          (i, v) => {
            const doc = parseDocument(base);
            doc.setIn(paths[i], doc.createNode(v));
            const r = check(doc.toString());
            for (const p of r.problems ?? []) {
              expect(p.line).toBeGreaterThanOrEqual(1);
              expect(p.col).toBeGreaterThanOrEqual(1);
              expect(p.message).not.toMatch(/Cannot read|undefined|received/);
            }
          },
        ),
        { numRuns: 250 },
      );
    });
  }
});

describe('regressions: a script of many long pops (#15 re-check)', () => {
  it('30,000 `pop: {count: 1000000}` ops in 780 kB are refused at the op that passes 2,000,000 steps', () => {
    // the CLI printed 19 million lines and grew past 4 GB in a minute; a tab held ~90 bytes a step
    const many = burst.replace(
      'pop: {count: 9}',
      `pop: {count: 9}\n${'  - pop: {count: 1000000}\n'.repeat(30_000)}`,
    );
    const problems = problemsOf(validateScriptText(many));
    expect(problems).toHaveLength(1);
    const line = many.split('\n').findIndex((l) => l.includes('count: 1000000')) + 1;
    expect(problems[0]).toMatchObject({ line: line + 1, col: 5 });
    expect(problems[0].message).toBe(
      'ops[10]: the script runs 30,000,000,017 steps (an enqueue is one, a pop as many as its count), 2,000,017 by this op; the limit is 2,000,000. Lower the counts or split the script',
    );
  });

  it('2,000,000 steps in all still run', () => {
    const ops = (last: number) =>
      burst.replace('pop: {count: 9}', `pop: {count: 1000000}\n  - pop: {count: ${last}}`);
    expect(validateScriptText(ops(999_992)).ok).toBe(true);
    expect(validateScriptText(ops(999_993)).ok).toBe(false);
  });
});
