/**
 * A policy's problems come in one round (#15 leftover): the cross-field rules run on every part the
 * schema accepts, beside the schema's own problems, so fixing what `validate` printed never reveals a
 * second batch. Before, a single schema problem (a quantum of -1) hid every rule problem of its
 * profile (a duplicate class name, a missing matrix cell, an unknown bucket …).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import '../fast-check-seed';
import { validatePolicyText } from '../../../src/policy';

const sample: unknown = parse(
  readFileSync(path.resolve(import.meta.dirname, '../../../scenarios/dynamo-sample-policy.yaml'), 'utf8'),
);

type Doc = { [k: string]: unknown };
const clone = (d: unknown): Doc => structuredClone(d) as Doc;
const rootClasses = (d: Doc) => d.policy_classes as Doc[];
const buckets = (d: Doc) => d.uncached_isl_buckets as Doc[];

/** `line: message` of every problem, sorted (columns move when a value's length changes). */
function problems(d: Doc): string[] {
  const res = validatePolicyText(stringify(d));
  return res.ok ? [] : res.problems.map((p) => `${p.line}: ${p.message}`).sort();
}

/** Rename a key in place, keeping the mapping's order (so no line moves). */
function renameKey(o: Doc, from: string, to: string): void {
  const entries = Object.entries(o);
  for (const k of Object.keys(o)) delete o[k];
  for (const [k, v] of entries) o[k === from ? to : k] = v;
}

// Rule slips: the schema accepts each, a cross-field rule refuses it. `i` picks a class.
const RULE_SLIPS: ((d: Doc, i: number) => void)[] = [
  (d, i) => {
    rootClasses(d)[i].name = rootClasses(d)[(i + 1) % 5].name; // duplicate class name
  },
  (d, i) => {
    if (rootClasses(d)[i].cache_bucket !== undefined) rootClasses(d)[i].cache_bucket = 'uncachd'; // unknown bucket
  },
  (d) => {
    d.default_policy_family = 'standrd'; // not a family
  },
  (d, i) => {
    if (rootClasses(d)[i].policy_family !== undefined) rootClasses(d)[i].policy_family = 'bulk'; // missing cells
  },
  (d) => {
    // busy_worker_ratio without a threshold (a key renamed, so no line moves)
    renameKey(rootClasses(d)[4], 'prefill_busy_threshold_frac', 'busy_worker_ratio');
    rootClasses(d)[4].busy_worker_ratio = 0.5;
  },
  (d) => {
    buckets(d)[1].min_tokens = 0; // floors not increasing
  },
  (d) => {
    const m = (d.models as Doc)['example/large-model'] as Doc;
    m.default_policy_family = 'latncy';
  },
];

// Schema slips on fields no rule reads (or reads only whether they are written).
const SCHEMA_SLIPS: ((d: Doc, i: number) => void)[] = [
  (d, i) => {
    rootClasses(d)[i].quantum = -1;
  },
  (d, i) => {
    rootClasses(d)[i].quantum = 'zero';
  },
  (d, i) => {
    rootClasses(d)[i].queue_policy = 'lifo';
  },
  (d, i) => {
    rootClasses(d)[i].request_queue_limit_per_worker = -5;
  },
  (d, i) => {
    renameKey(rootClasses(d)[i], 'queue_policy', 'queue_polcy'); // unknown key
  },
  (d, i) => {
    rootClasses(d)[i].prefill_busy_threshold_frac = 'high'; // written, though not a number
  },
  (d) => {
    const m = (d.models as Doc)['example/large-model'] as Doc;
    (m.policy_classes as Doc[])[0].quantum = 0;
  },
];

describe('a policy reports its schema and rule problems in one round (#15 leftover)', () => {
  it('the sample policy is valid (the base of the property below)', () => {
    expect(problems(clone(sample))).toEqual([]);
  });

  it('schema slips and rule slips together give exactly the problems each gives alone', () => {
    const slips = (n: number) => fc.array(fc.tuple(fc.nat(n - 1), fc.nat(4)), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(slips(RULE_SLIPS.length), slips(SCHEMA_SLIPS.length), (rules, schema) => {
        const ruled = clone(sample);
        for (const [k, i] of rules) RULE_SLIPS[k](ruled, i);
        const both = clone(ruled);
        const schemaOnly = clone(sample);
        for (const [k, i] of schema) {
          SCHEMA_SLIPS[k](both, i);
          SCHEMA_SLIPS[k](schemaOnly, i);
        }
        const fromRules = problems(ruled);
        const fromSchema = problems(schemaOnly);
        fc.pre(fromRules.length > 0 && fromSchema.length > 0);
        expect(problems(both)).toEqual([...fromRules, ...fromSchema].sort());
      }),
      { numRuns: 150 },
    );
  });

  it('the six problems of the page test and the rule problems behind them, all at once', () => {
    const text = [
      'default_policy_family: fam',
      'uncached_isl_buckets:',
      '  - {min_tokens: 0, bucket: small}',
      '  - {min_tokens: 10, bucket: big}',
      'policy_classes:',
      '  - {name: A, quantum: -1, policy_family: fam, cache_bucket: small}',
      '  - {name: B, quantum: zero}',
      '  - {name: A, quantum: 5}',
      '  - {quantum: 5}',
      '  - {name: F, quantum: 1.5, cache_bucket: bigg}',
      'worker_selection: {aggregated: nothere}',
      'request_classifier: {type: default}',
      '',
    ].join('\n');
    const res = validatePolicyText(text);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.problems.map((p) => `${p.line}:${p.col}: ${p.message}`)).toEqual([
      '6:24: policy_classes[0].quantum: quantum must be ≥ 1',
      '7:24: policy_classes[1].quantum: quantum must be a whole number',
      "8:12: duplicate class name 'A' (first declared at line 6)",
      "9:5: policy_classes[3]: missing required key 'name'",
      '10:24: policy_classes[4].quantum: quantum must be a whole number',
      "10:29: class 'F' has cache_bucket but no policy_family: a matrix class needs both, an explicit class neither; add policy_family or remove cache_bucket",
      "10:43: unknown bucket 'bigg' (did you mean 'big'?); buckets: small, big",
      "11:32: aggregated names no configured instance 'nothere'; instances: none, or 'default' for the built-in selector",
      "12:28: request_classifier.type 'default' is reserved; name a registered classifier plugin, or leave request_classifier out",
    ]);
  });

  it('a rule whose inputs are broken is skipped, not guessed', () => {
    const msgs = (text: string) => {
      const res = validatePolicyText(text);
      return res.ok ? [] : res.problems.map((p) => p.message);
    };
    const head = 'default_policy_family: f\nuncached_isl_buckets:\n  - {min_tokens: 0, bucket: a}\n';
    // a bucket whose name is broken: which buckets exist is unknown, so no 'unknown bucket', no missing cell
    const brokenBucket = msgs(
      `${head}  - {min_tokens: 5, bucket: 'b c'}\npolicy_classes:\n  - {name: x, quantum: 1, policy_family: f, cache_bucket: b}\n  - {name: y, quantum: 1, policy_family: f, cache_bucket: a}\n`,
    );
    expect(brokenBucket).toHaveLength(1);
    expect(brokenBucket[0]).toMatch(/bucket/);
    expect(brokenBucket.join('\n')).not.toMatch(/unknown bucket|missing matrix cell/);
    // a class whose family is broken: the families are unknown, so default_policy_family is not judged
    const brokenFamily = msgs(
      `${head}policy_classes:\n  - {name: x, quantum: 1, policy_family: 7, cache_bucket: a}\n`,
    );
    expect(brokenFamily).toHaveLength(1);
    expect(brokenFamily.join('\n')).not.toMatch(/is not a family|missing matrix cell/);
    // a class that is not a mapping, a classes list that is not a list, a model that is not a mapping
    for (const text of [
      `${head}policy_classes: [3, {name: x, quantum: 1, policy_family: f, cache_bucket: a}]\n`,
      `${head}policy_classes: 3\n`,
      'models: {m: 3}\n',
      'models: 3\nworker_selection: 4\nrequest_classifier: [1]\n',
    ]) {
      const m = msgs(text);
      expect(m.length).toBeGreaterThan(0);
      expect(m.join('\n')).not.toMatch(/undefined|is not a family|missing matrix cell|unknown bucket/);
    }
  });

  it('random garbage anywhere in the sample never throws and never names undefined', () => {
    const garbage = fc.oneof(
      fc.constantFrom(null, -1, 0, 1.5, 'x y', '', true, [], {}, [1], { a: 1 }, 'standard', 'cached'),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(40), garbage), { minLength: 1, maxLength: 4 }), (edits) => {
        const d = clone(sample);
        // the n-th (key, value) place of the document in a fixed walk
        for (const [n, v] of edits) {
          const places: [Doc | unknown[], string | number][] = [];
          const walk = (o: unknown) => {
            if (Array.isArray(o))
              for (const [i, x] of o.entries()) {
                places.push([o, i]);
                walk(x);
              }
            else if (o && typeof o === 'object')
              for (const [k, x] of Object.entries(o)) {
                places.push([o as Doc, k]);
                walk(x);
              }
          };
          walk(d);
          const [o, k] = places[n % places.length];
          (o as Doc)[k as string] = v;
        }
        const res = validatePolicyText(stringify(d));
        if (res.ok) return;
        for (const p of res.problems) expect(p.message).not.toMatch(/undefined|NaN|\[object/);
      }),
      { numRuns: 300 },
    );
  });
});
