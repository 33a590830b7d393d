/**
 * One YAML syntax slip gives one message (the yaml package reports a cascade of follow-on errors for
 * a line indented one space too little: 13 for line 28 of the sample policy). The editor shows the
 * same list as the CLI, so this holds for both.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupDigits, parseYaml } from '../../../src/format/yaml';
import { policyReleaseLabel } from '../../../src/policy/release-range';
import { validatePolicyText } from '../../../src/policy';

const sample = readFileSync(
  path.resolve(import.meta.dirname, '../../../scenarios/dynamo-sample-policy.yaml'),
  'utf8',
).split('\n');

describe('a YAML syntax error is one message', () => {
  it('every one-space indentation slip of the sample policy yields exactly one problem, at or next to its line', () => {
    let slips = 0;
    sample.forEach((line, i) => {
      if (!/^ {3,}\S/.test(line)) return;
      for (const changed of [line.slice(1), ` ${line}`]) {
        const lines = [...sample];
        lines[i] = changed;
        const text2 = lines.join('\n');
        // Slips that still parse change the structure instead (reported by the schema, elsewhere).
        if (parseYaml(text2).ok) continue;
        const res = validatePolicyText(text2);
        if (res.ok) throw new Error('a syntax error must fail validation');
        slips++;
        expect(res.problems).toHaveLength(1);
        expect(res.problems[0].line).toBeLessThanOrEqual(i + 2);
        expect(res.problems[0].line).toBeGreaterThanOrEqual(i);
      }
    });
    expect(slips).toBeGreaterThan(10);
  });

  it('the message says what to check', () => {
    const lines = [...sample];
    const i = lines.findIndex((l) => /^ {4}\S/.test(l) && lines.indexOf(l) > 20);
    lines[i] = lines[i].slice(1);
    const res = validatePolicyText(lines.join('\n'));
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.problems[0].message).toMatch(/indentation/);
  });
});

describe('a list item that belongs to no list says what to check', () => {
  // The yaml package's own words ("A block sequence may not be used as an implicit map key") do not
  // say what to change; the slips behind them are a value left after a key that has items under it,
  // and an item indented unlike the others of its list.
  it.each([
    ['a value after a key that has items', 'buckets: [x]\n  - min_tokens: 0\n'],
    ['an item indented unlike the others', 'a:\n  - b\n - c\n'],
  ])('%s', (_, text) => {
    const r = parseYaml(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problems).toHaveLength(1);
      expect(r.problems[0].message).toMatch(
        /key above it has nothing after its ":".*indented like the other items/,
      );
    }
  });
});

describe('a second document says what to do, not which function to call', () => {
  // It read "Source contains multiple documents; please use YAML.parseAllDocuments()".
  it('points at the "---" and says to remove or merge what follows', () => {
    const r = parseYaml('policy_classes:\n  - {name: a, quantum: 1}\n---\nworkers: 2\n');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problems.map((p) => `${p.line}:${p.col}`)).toEqual(['3:1']);
      expect(r.problems[0].message).toMatch(/^a second document starts here .*remove this line/);
      expect(r.problems[0].message).not.toMatch(/parseAllDocuments/);
    }
  });
});

describe('an alias that names no anchor is said so, at the alias', () => {
  // It read "too many alias expansions (limit 100)" at 1:1, the alias-bomb message.
  it.each([
    ['an anchor never set', 'a: 1\nb: *nope\n', '2:4'],
    ['an anchor set only after the alias', 'a: *x\nb: &x 1\n', '1:4'],
  ])('%s', (_, text, at) => {
    const r = parseYaml(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problems).toHaveLength(1);
      const [p] = r.problems;
      expect(`${p.line}:${p.col}`).toBe(at);
      expect(p.message).toMatch(/names no anchor before it: mark the value it should repeat with &/);
      expect(p.message).not.toMatch(/too many/);
    }
  });
});

describe('an unclosed `{` or `[` is reported at its opener (#14)', () => {
  const at = (text: string) => {
    const r = parseYaml(text);
    if (r.ok) throw new Error('a syntax error expected');
    expect(r.problems).toHaveLength(1);
    const [p] = r.problems;
    return `${p.line}:${p.col}: ${p.message}`;
  };
  it('points at the opener, not at the end of the file or the next line', () => {
    expect(at('name: x\nlimits: {a: 1, b: 2\nother: 3\n')).toBe(
      '2:9: this `{` is never closed (close it with `}`, or write the entries as indented lines)',
    );
    expect(at('name: x\nclasses: [a, b\n')).toBe(
      '2:10: this `[` is never closed (close it with `]`, or write the entries as indented lines)',
    );
    // a multi-line flow collection left open runs to the end of the file
    expect(at('a: [\n  1,\n  2\n')).toMatch(/^1:4: this `\[` is never closed/);
    // inside a list item
    expect(at('clients:\n  - {name: a, rate: 1\n  - name: b\n')).toMatch(/^2:5: this `\{` is never closed/);
  });
  it('nested: the inner opener that is left open, and a closer of the other kind named', () => {
    expect(at('a: {b: [1, 2}\n')).toBe(
      '1:8: this `[` is never closed: the `}` at 1:13 does not match it (close it with `]`)',
    );
    expect(at('a: {b: {c: 1}\n')).toMatch(/^1:4: this `\{` is never closed/);
  });
  it('an earlier error still comes first; closed collections and stray closers are not openers', () => {
    expect(at('a:\n  b: 1\n c: 2\nd: {x\n')).toMatch(/^3:1: All mapping items/);
    expect(at('a: {x: 1}}\n')).toMatch(/^1:10: Unexpected flow-map-end/);
    expect(parseYaml('a: {x: [1, 2]}\nb: { x: 1,\n     y: 2 }\n').ok).toBe(true);
  });
});

describe('an unclosed quote is reported at the opening quote (#15 leftover)', () => {
  const at = (text: string) => {
    const r = parseYaml(text);
    if (r.ok) throw new Error('a syntax error expected');
    expect(r.problems).toHaveLength(1);
    const [p] = r.problems;
    return `${p.line}:${p.col}: ${p.message}`;
  };
  it('at the end of the file and in the middle, double and single quotes', () => {
    // before: '2:1: Missing closing "quote', one line past the end of the file
    expect(at('a: "x\n')).toBe(
      '1:4: unclosed quote: this `"` is never closed (end the text with `"`; a `"` inside the text is written `\\"`)',
    );
    // before: '4:1' (a quoted text may span lines, so the parser reads on to the end)
    expect(at('a: "x\nb: 1\nc: 2\n')).toMatch(/^1:4: unclosed quote: this `"`/);
    expect(at("a: 'x\nb: 1\n")).toBe(
      "1:4: unclosed quote: this `'` is never closed (end the text with `'`; a `'` inside the text is written `''`)",
    );
    expect(at('a:\n  - "abc\n  - def\nb: 2\n')).toMatch(/^2:5: unclosed quote/);
    expect(at('a:\n  b: "x\nc: 1\n')).toMatch(/^2:6: unclosed quote/);
    expect(at('"abc: 1\n')).toMatch(/^1:1: unclosed quote/);
    expect(at('a: "x')).toMatch(/^1:4: unclosed quote/);
  });
  it("escaped closers do not close: \\\" in double quotes, '' in single quotes", () => {
    expect(at('a: "x\\"\nb: 1\n')).toMatch(/^1:4: unclosed quote: this `"`/);
    expect(at("a: 'it''s\nb: 1\n")).toMatch(/^1:4: unclosed quote: this `'`/);
    expect(parseYaml("a: \"x\\\\\"\nb: 'it''s'\nc: \"\"\nd: ''\n").ok).toBe(true);
  });
  it('inside a flow collection the quote is the slip, not the `{` whose closer it swallowed', () => {
    expect(at('a: {b: "x}\nc: 1\n')).toMatch(/^1:8: unclosed quote/);
    expect(at("a: [1, 'x, 2]\n")).toMatch(/^1:8: unclosed quote: this `'`/);
    // an open `{` before the quote, cut off by the next line's indentation, is still the `{`
    expect(at('a: {x: 1\nb: "y\n')).toMatch(/^1:4: this `\{` is never closed/);
    // an earlier error still comes first
    expect(at('a:\n  b: 1\n c: 2\nd: "x\n')).toMatch(/^3:1: All mapping items/);
  });
  it('every value of the sample policy opened with a quote and left open is reported at that quote', () => {
    let n = 0;
    sample.forEach((line, i) => {
      const m = /^(\s*(?:- )?[a-z_]+: )(\S.*)$/.exec(line);
      if (!m || m[2].startsWith('#')) return;
      for (const q of ['"', "'"]) {
        const lines = [...sample];
        lines[i] = `${m[1]}${q}${m[2].replaceAll(q, '')}`;
        const r = validatePolicyText(lines.join('\n'));
        if (r.ok) throw new Error(`line ${i + 1}: an unclosed quote must fail`);
        n++;
        expect(r.problems).toHaveLength(1);
        expect(r.problems[0]).toMatchObject({ line: i + 1, col: m[1].length + 1 });
        expect(r.problems[0].message).toMatch(new RegExp(`^unclosed quote: this \`${q}\``));
      }
    });
    expect(n).toBeGreaterThan(20);
  });
});

describe('"Nested mappings are not allowed in compact mappings": the two slips behind it', () => {
  it('a second ": " on a line is named as such, at the value that holds it', () => {
    const r = parseYaml('policy_classes:\n  - name: a\n    queue_policy: wsptx: []\n');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ line: 3, col: 19 });
    expect(r.problems[0].message).toMatch(
      /^a second ": " on this line: the value of 'queue_policy' reads as "wsptx: \[\]"/,
    );
    expect(r.problems[0].message).not.toMatch(/indentation|one-line entry/);
  });

  it('a key line indented deeper than a key that has its value is reported at that line, not the one above', () => {
    // the default scenario with its line 110 (`slo_class: standard` under `- name: bob`) indented 3 more
    const lines = readFileSync(
      path.resolve(import.meta.dirname, '../../../scenarios/default.yaml'),
      'utf8',
    ).split('\n');
    expect(lines[108]).toBe('  - name: bob');
    lines[109] = `   ${lines[109]}`;
    const r = parseYaml(lines.join('\n'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ line: 110, col: 8 });
    expect(r.problems[0].message).toMatch(
      /^this line is indented deeper than 'name' above it, which already has a value after its ":" \(check the indentation/,
    );
    // also past a blank line, and past more lines of a value that spans lines
    for (const text of ['a:\n  c: 2\n\n     d: 3\n', 'a:\n  c: two\n     words\n     d: 3\n']) {
      const r2 = parseYaml(text);
      expect(!r2.ok && r2.problems[0]).toMatchObject({ line: 4, col: 6 });
    }
  });
});

describe('a text over the size limit', () => {
  const big = `a: ${'x'.repeat(2_200_800)}`;
  it('is "too long", with grouped numbers, not "not valid"', () => {
    const r = parseYaml(big);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems[0].message).toBe(
      'too long: the document is 2,200,803 characters; the limit is 1,000,000. Split it or remove unused parts.',
    );
    const label = policyReleaseLabel(big);
    expect(label?.text).toBe('Too long: 2,200,803 characters, over the 1,000,000 a document may hold');
    expect(label?.text).not.toMatch(/valid/i);
  });
  it('groups digits the same everywhere', () => {
    expect([0, 999, 1000, 20_000, 1_000_000, -1234567].map(groupDigits)).toEqual([
      '0',
      '999',
      '1,000',
      '20,000',
      '1,000,000',
      '-1,234,567',
    ]);
  });
});
