/**
 * A scenario's problems come in one round (#15 leftover): the cross-field rules (checks.ts) run
 * beside the schema on every value it accepts, so fixing what `validate` printed never reveals a
 * second batch. Before, one schema problem (a seed of -1) hid every rule problem (a duplicate
 * client name, a request after duration_s, a pinned worker that does not exist …); a script's
 * release check waited for its schema and its ops.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import '../fast-check-seed';
import { memoryIO } from '../../../src/cli/io';
import { validateCommand } from '../../../src/cli/validate';
import { validateScriptText } from '../../../src/policy';
import { parseScenarioText } from '../../../src/scenario';
import { loadSession } from '../../../src/worker/load';

type Doc = { [k: string]: unknown };

const client = (name: string) => ({
  name,
  slo_class: 'standard',
  worker: 0,
  arrival: { process: 'poisson', rate: 1, start_s: 0, stop_s: 50 },
  program: { type: 'single' },
});
const request = (id: string) => ({
  t: 1,
  client: 'alice',
  id,
  prompt_tokens: 100,
  output_tokens: 10,
  shared_prefix: 'doc',
  shared_prefix_tokens: 0,
  priority: 0,
  slo_class: 'batch',
});
const BASE: Doc = {
  version: 1,
  name: 'one round',
  seed: 7,
  duration_s: 60,
  cluster: {
    workers: 2,
    kv_cache_tokens: 20_000,
    max_batch_tokens: 8192,
    max_running: 64,
    chunking: { chunk_tokens: 4096 },
  },
  scheduler: { policy: 'fcfs' },
  clients: [client('alice'), client('bob'), client('carol')],
  requests: [request('r0'), request('r1'), request('r2')],
};

const clone = (): Doc => structuredClone(BASE);
const clients = (d: Doc) => d.clients as Doc[];
const requests = (d: Doc) => d.requests as Doc[];
const cluster = (d: Doc) => d.cluster as Doc;

/** `line: message` of every problem, sorted (columns move when a value's length changes). */
function problems(d: Doc): string[] {
  const res = parseScenarioText(stringify(d));
  return res.ok ? [] : res.problems.map((p) => `${p.line}: ${p.message}`).sort();
}

/** Rename a key in place, keeping the mapping's order (so no line moves). */
function renameKey(o: Doc, from: string, to: string): void {
  const entries = Object.entries(o);
  for (const k of Object.keys(o)) delete o[k];
  for (const [k, v] of entries) o[k === from ? to : k] = v;
}

// Rule slips: the schema accepts each, a cross-field rule refuses it; no line moves. `i` picks an entry.
const RULE_SLIPS: ((d: Doc, i: number) => void)[] = [
  (d, i) => {
    clients(d)[i].name = clients(d)[(i + 1) % 3].name; // duplicate client name
  },
  (d, i) => {
    (clients(d)[i].arrival as Doc).start_s = 500; // never arrives
  },
  (d, i) => {
    (clients(d)[i].arrival as Doc).stop_s = 0; // stops before it starts
  },
  (d, i) => {
    clients(d)[i].worker = 7; // no such worker
  },
  (d, i) => {
    requests(d)[i].t = 90; // after duration_s
  },
  (d, i) => {
    requests(d)[i].shared_prefix_tokens = 5000; // more than the prompt
  },
  (d, i) => {
    requests(d)[i].id = requests(d)[(i + 1) % 3].id; // duplicate id
  },
  (d, i) => {
    requests(d)[i].prompt_tokens = 30_000; // more than the KV cache
  },
  (d) => {
    (cluster(d).chunking as Doc).chunk_tokens = 9000; // more than max_batch_tokens
  },
];

// Schema slips on values no rule reads; no line moves.
const SCHEMA_SLIPS: ((d: Doc, i: number) => void)[] = [
  (d) => {
    d.seed = -1;
  },
  (d) => {
    d.name = 5;
  },
  (d) => {
    cluster(d).max_running = 0;
  },
  (d) => {
    (d.scheduler as Doc).policy = 'lifo';
  },
  (d, i) => {
    clients(d)[i].slo_class = 'gold';
  },
  (d, i) => {
    renameKey(clients(d)[i], 'slo_class', 'slo_clas'); // unknown key
  },
  (d, i) => {
    requests(d)[i].priority = 'high';
  },
  (d, i) => {
    requests(d)[i].slo_class = 'gold';
  },
];

describe('a scenario reports its schema and rule problems in one round (#15 leftover)', () => {
  it('the base scenario is valid (the base of the property below)', () => {
    expect(problems(clone())).toEqual([]);
  });

  it('schema slips and rule slips together give exactly the problems each gives alone', () => {
    const slips = (n: number) => fc.array(fc.tuple(fc.nat(n - 1), fc.nat(2)), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(slips(RULE_SLIPS.length), slips(SCHEMA_SLIPS.length), (rules, schema) => {
        const ruled = clone();
        for (const [k, i] of rules) RULE_SLIPS[k](ruled, i);
        const both = structuredClone(ruled);
        const schemaOnly = clone();
        for (const [k, i] of schema) {
          SCHEMA_SLIPS[k](both, i);
          SCHEMA_SLIPS[k](schemaOnly, i);
        }
        const fromRules = problems(ruled);
        const fromSchema = problems(schemaOnly);
        fc.pre(fromRules.length > 0 && fromSchema.length > 0);
        expect(problems(both)).toEqual([...fromRules, ...fromSchema].sort());
      }),
      { numRuns: 40 },
    );
  });

  it('a rule whose inputs are broken is skipped, not guessed', () => {
    const cases: [(d: Doc) => void, RegExp][] = [
      // duration_s unreadable: no verdict on a request's t or a client's start
      [
        (d) => {
          d.duration_s = 'soon';
          requests(d)[0].t = 90;
          (clients(d)[0].arrival as Doc).start_s = 500;
        },
        /after duration_s|never arrive|would inject/,
      ],
      // kv_cache_tokens unreadable: no verdict on a prompt that may not fit
      [
        (d) => {
          cluster(d).kv_cache_tokens = 'lots';
          requests(d)[0].prompt_tokens = 30_000;
        },
        /KV cache|at least one block/,
      ],
      // an unknown GPU under kv_cache_tokens: auto: no verdict on fitting the model
      [
        (d) => {
          cluster(d).kv_cache_tokens = 'auto';
          cluster(d).gpu = 'h1000';
        },
        /does not fit|KV cache/,
      ],
      // workers unreadable: no verdict on a pinned worker
      [
        (d) => {
          cluster(d).workers = 0;
          clients(d)[0].worker = 7;
        },
        /does not exist/,
      ],
      // an unreadable client name is nobody's duplicate, an unreadable id nobody's either
      [
        (d) => {
          clients(d)[0].name = 'a b';
          clients(d)[1].name = 'a b';
          requests(d)[0].id = 'x y';
          requests(d)[1].id = 'x y';
        },
        /duplicate/,
      ],
      // a broken arrival: no window verdicts and no size estimate
      [
        (d) => {
          (clients(d)[0].arrival as Doc).rate = -1;
          (clients(d)[0].arrival as Doc).stop_s = 0;
        },
        /stop_s must be|would inject/,
      ],
    ];
    for (const [slip, silent] of cases) {
      const d = clone();
      slip(d);
      const found = problems(d);
      expect(found.length).toBeGreaterThan(0);
      expect(found.join('\n')).not.toMatch(silent);
      expect(found.join('\n')).not.toMatch(/undefined|NaN/);
    }
  });

  it('validate prints a seed of -1 and the rules it used to hide, in one list sorted by position', async () => {
    const d = clone();
    d.seed = -1;
    clients(d)[1].name = 'alice';
    requests(d)[2].t = 90;
    const io = memoryIO({ 's.yaml': stringify(d) });
    expect(await validateCommand(['s.yaml'], io)).toBe(1);
    const lines = io.stderr.join('\n').split('\n');
    expect(lines.map((l) => l.replace(/^(s\.yaml:\d+:\d+: [^(:]*).*/, '$1'))).toEqual([
      's.yaml:3:7: seed',
      "s.yaml:25:11: duplicate client name 'alice' ",
      's.yaml:64:8: t ',
    ]);
  });

  it("the page's problem list (the worker's load) carries the same problems as validate", async () => {
    const d = clone();
    d.seed = -1;
    clients(d)[1].name = 'alice';
    requests(d)[2].t = 90;
    const text = stringify(d);
    const io = memoryIO({ 's.yaml': text });
    await validateCommand(['s.yaml'], io);
    const page = loadSession(text);
    expect(page.ok).toBe(false);
    if (page.ok) return;
    expect(page.source).toBe('scenario');
    expect(page.problems.map((p) => `s.yaml:${p.line}:${p.col}: ${p.message}`)).toEqual(
      io.stderr.join('\n').split('\n'),
    );
    expect(page.problems).toHaveLength(3);
  });
});

describe("a script's release check comes in the same round (#15 leftover)", () => {
  const script =
    'release: v1.5\npolicy:\n  policy_classes:\n    - { name: A, quantum: 1, queue_admission: { type: session_aware } }\nops:\n  - enqueue: { class: A, cost: 3 }\n';
  const messages = (text: string) => {
    const res = validateScriptText(text);
    return res.ok ? [] : res.problems.map((p) => `${p.line}: ${p.message.replace(/ \(.*/, '')}`);
  };
  const release = '1: the policy is valid for Dynamo v1.4.0 – v1.4.2 only, not v1.5';
  it('beside an op problem', () => {
    expect(messages(`${script}  - enqueue: { class: B, cost: 3 }\n`)).toEqual([
      release,
      "7: unknown class 'B'",
    ]);
  });
  it('beside a schema problem', () => {
    expect(messages(`${script}workers: 0\n`)).toEqual([release, '7: workers: workers must be ≥ 1']);
  });
  it('not when the release itself is unreadable', () => {
    expect(messages(script.replace('v1.5', 'v9'))).toEqual([
      "1: release: release must be one of 'v1.3', 'v1.4', 'v1.5', 'v1.6'",
    ]);
  });
});
