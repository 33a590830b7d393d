/**
 * Text mutations of the formats' files, shared by the fuzzer (`npm run fuzz`, seeded by the project's
 * Rng) and the policy fuzz property test (fast-check, so a failing input shrinks): one data type per
 * mutation, one `applyMutation`, and two ways to draw mutations.
 */
import fc from 'fast-check';
import type { Rng } from '../../src/core/prng';

/** Tokens inserted at random places: YAML syntax, extreme numbers, odd characters, risky keys. */
export const FUZZ_TOKENS = [
  ':',
  '-',
  ' ',
  '  ',
  '{',
  '}',
  '[',
  ']',
  '&a ',
  '*a',
  '\n',
  '\t',
  '"',
  "'",
  '#',
  '!',
  '|',
  '>',
  '%',
  '@',
  '`',
  '0',
  '-1',
  '1e400',
  '1e-400',
  '9007199254740993',
  '18446744073709551616',
  'x',
  '~',
  'null',
  ',',
  '? ',
  '<<: ',
  '.inf',
  '-.inf',
  '.nan',
  'true',
  '\u0000',
  '\u202e',
  '\ud800',
  '💥',
  '<script>',
  '_a_b ',
  'policy_file: /dev/zero',
  'quantum: ',
  'rate: 10000',
  'duration_s: 86400',
  'lrs',
  'count: 1000000',
] as const;

/** A run of one letter long enough to see whether a message echoes it. */
export function longRun(rng: Rng): string {
  return String.fromCharCode(0x41 + rng.int(26)).repeat(200 + rng.int(30_000));
}

/** Values put after a `key: ` (the n-th one) in place of what was there. */
export const FUZZ_VALUES = [
  '0',
  '-5',
  '1.5',
  '99999999999999999999',
  'abc',
  '[]',
  '{}',
  '""',
  '0.0',
  '.nan',
] as const;

/** Extreme numbers put in place of the first number of the text. */
export const FUZZ_EXTREMES = ['0', '-0', '1e308', '4294967296', '0.0000001', '99999999999'] as const;

/** Positions are taken modulo the text's length (or line count), so any non-negative number is valid. */
export type Mutation =
  | { kind: 'delete'; at: number; len: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'dupLine'; line: number }
  | { kind: 'dropLine'; line: number }
  | { kind: 'swapLines'; a: number; b: number }
  /** the value after the n-th `: ` */
  | { kind: 'value'; at: number; value: string }
  /** the first number of the text */
  | { kind: 'extreme'; value: string }
  /** the n-th word becomes one letter repeated `len` times (does a message echo it?) */
  | { kind: 'longWord'; word: number; letter: number; len: number }
  /** `depth` opening brackets (closed again or not) */
  | { kind: 'nest'; at: number; depth: number; closed: boolean }
  /** a list entry of another kind (`- null`, `- 3`, `- []`) put before the n-th entry of a block list */
  | { kind: 'item'; line: number; value: string };

const WORD = /\b[A-Za-z_][\w.-]*/g;

export function applyMutation(text: string, m: Mutation): string {
  const lines = text.split('\n');
  switch (m.kind) {
    case 'delete': {
      const at = m.at % Math.max(1, text.length);
      return text.slice(0, at) + text.slice(at + m.len);
    }
    case 'insert': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'dupLine': {
      const i = m.line % lines.length;
      lines.splice(i, 0, lines[i]);
      return lines.join('\n');
    }
    case 'dropLine':
      lines.splice(m.line % lines.length, 1);
      return lines.join('\n');
    case 'swapLines': {
      const a = m.a % lines.length;
      const b = m.b % lines.length;
      [lines[a], lines[b]] = [lines[b], lines[a]];
      return lines.join('\n');
    }
    case 'value': {
      const parts = text.split(': ');
      if (parts.length < 2) return text;
      const i = 1 + (m.at % (parts.length - 1));
      parts[i] = parts[i].replace(/^[^,}\n]*/, m.value);
      return parts.join(': ');
    }
    case 'extreme':
      return text.replace(/\b\d+(\.\d+)?\b/, m.value);
    case 'longWord': {
      const count = text.match(WORD)?.length ?? 0;
      if (count === 0) return text;
      const target = m.word % count;
      let n = 0;
      const long = String.fromCharCode(0x41 + (m.letter % 26)).repeat(m.len);
      return text.replace(WORD, (w) => (n++ === target ? long : w));
    }
    case 'nest': {
      const at = m.at % (text.length + 1);
      return `${text.slice(0, at)}${'['.repeat(m.depth)}${']'.repeat(m.closed ? m.depth : 0)}${text.slice(at)}`;
    }
    case 'item': {
      const items = lines.flatMap((l, i) => (/^\s*- /.test(l) ? [i] : []));
      if (items.length === 0) return text;
      const i = items[m.line % items.length];
      lines.splice(i, 0, `${/^\s*/.exec(lines[i])?.[0] ?? ''}- ${m.value}`);
      return lines.join('\n');
    }
  }
}

/** What an `item` mutation puts in a list: entries of every kind but the one the list wants. */
export const FUZZ_ITEMS = ['null', '3', '-1', 'x', '[]', '[null]', '{}', '{a: null}', 'true', '""'] as const;

/** One mutation drawn from the fuzzer's seeded stream. */
export function randomMutation(rng: Rng): Mutation {
  const at = rng.int(1 << 30);
  switch (rng.int(11)) {
    case 0:
      return { kind: 'delete', at, len: 1 + rng.int(12) };
    case 1:
    case 2:
      return { kind: 'insert', at, text: FUZZ_TOKENS[rng.int(FUZZ_TOKENS.length)] };
    case 3:
      return { kind: 'dupLine', line: at };
    case 4:
      return { kind: 'dropLine', line: at };
    case 5:
      return { kind: 'swapLines', a: at, b: rng.int(1 << 30) };
    case 6:
      return { kind: 'longWord', word: at, letter: rng.int(26), len: 200 + rng.int(30_000) };
    case 7:
      return { kind: 'nest', at, depth: 60 + rng.int(3000), closed: rng.int(2) === 1 };
    case 8:
      return { kind: 'value', at, value: FUZZ_VALUES[rng.int(FUZZ_VALUES.length)] };
    case 9:
      return { kind: 'item', line: at, value: FUZZ_ITEMS[rng.int(FUZZ_ITEMS.length)] };
    default:
      return { kind: 'extreme', value: FUZZ_EXTREMES[rng.int(FUZZ_EXTREMES.length)] };
  }
}

/** One to four mutations of `text` from the seeded stream. */
export function mutate(text: string, rng: Rng): string {
  let t = text;
  const n = 1 + rng.int(4);
  for (let i = 0; i < n; i++) t = applyMutation(t, randomMutation(rng));
  return t;
}

/**
 * The same mutations for fast-check (shrinkable). `tokens`: what `insert` may insert. The heavy kinds
 * (long words, deep nesting) are left to the fuzzer, whose inputs are judged on time and messages.
 */
export function mutationArb(tokens: readonly string[] = FUZZ_TOKENS): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 8 }) }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...tokens) }),
    fc.record({ kind: fc.constant('dupLine' as const), line: fc.nat() }),
    fc.record({ kind: fc.constant('dropLine' as const), line: fc.nat() }),
    fc.record({ kind: fc.constant('swapLines' as const), a: fc.nat(), b: fc.nat() }),
    fc.record({ kind: fc.constant('value' as const), at: fc.nat(), value: fc.constantFrom(...FUZZ_VALUES) }),
    fc.record({ kind: fc.constant('item' as const), line: fc.nat(), value: fc.constantFrom(...FUZZ_ITEMS) }),
  );
}
