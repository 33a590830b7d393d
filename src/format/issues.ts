/**
 * zod issues → positioned problems, tuned for the scenario schema: unions of a number and a
 * distribution (or of 'auto' and a number) report the branch the user evidently meant instead of
 * zod's bare "Invalid input"; unknown keys get a "did you mean" hint from the keys of the branch the
 * document selected (e.g. only judge keys inside a judge program); missing keys are named.
 */
import type { z } from 'zod';
import { didYouMean, type ParsedYaml, type Path, type Problem, pathText, problem, quote } from './yaml';

type Issue = z.core.$ZodIssue;
type AnyDef = { type: string; [k: string]: unknown };

function defOf(schema: unknown): AnyDef | undefined {
  return (schema as { _zod?: { def?: AnyDef } })?._zod?.def;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The value at `path` in a plain JS value (undefined when absent). */
export function valueAtPath(root: unknown, path: Path): unknown {
  let v: unknown = root;
  for (const seg of path) {
    if (Array.isArray(v) && typeof seg === 'number') v = v[seg];
    else if (isMapping(v)) v = v[String(seg)];
    else return undefined;
  }
  return v;
}

function literalValues(schema: unknown): unknown[] {
  const def = defOf(schema);
  if (!def) return [];
  if (def.type === 'literal') return def.values as unknown[];
  if (['default', 'optional', 'prefault', 'nullable', 'readonly'].includes(def.type))
    return literalValues(def.innerType);
  return [];
}

/** A key schema that only exists to say where the key belongs (`z.custom`, possibly optional). */
function refused(schema: unknown): boolean {
  const def = defOf(schema);
  if (def === undefined) return false;
  if (def.type === 'optional') return refused(def.innerType);
  return def.type === 'custom';
}

/** Keys accepted at `path`, following the document's own values through discriminated unions. */
export function keysAt(schema: unknown, input: unknown, path: Path): string[] {
  const out = new Set<string>();
  const walk = (s: unknown, value: unknown, i: number, guard: number): void => {
    const def = defOf(s);
    if (!def || guard > 60) return;
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
        walk(def.innerType, value, i, guard + 1);
        return;
      case 'pipe':
        // a preprocess step (transform → schema): the keys are the schema's
        walk(defOf(def.in)?.type === 'transform' ? def.out : def.in, value, i, guard + 1);
        return;
      case 'union': {
        const options = def.options as unknown[];
        const disc = def.discriminator as string | undefined;
        let chosen = options;
        if (disc && isMapping(value)) {
          const matching = options.filter((o) => {
            const shape = (defOf(o)?.shape ?? defOf(defOf(o)?.in)?.shape) as
              | Record<string, unknown>
              | undefined;
            return shape !== undefined && literalValues(shape[disc]).includes(value[disc]);
          });
          if (matching.length > 0) chosen = matching;
        }
        for (const o of chosen) walk(o, value, i, guard + 1);
        return;
      }
      case 'object': {
        const shape = def.shape as Record<string, unknown>;
        if (i === path.length) {
          // a key whose schema always fails (z.custom: one that belongs elsewhere) is not offered
          for (const k of Object.keys(shape)) if (!refused(shape[k])) out.add(k);
          return;
        }
        const seg = path[i];
        if (typeof seg === 'string' && seg in shape) {
          walk(shape[seg], isMapping(value) ? value[seg] : undefined, i + 1, guard + 1);
        }
        return;
      }
      case 'array':
        if (i < path.length) {
          const seg = path[i];
          walk(
            def.element,
            Array.isArray(value) && typeof seg === 'number' ? value[seg] : undefined,
            i + 1,
            guard + 1,
          );
        }
        return;
      default:
        return;
    }
  };
  walk(schema, input, 0, 0);
  return [...out];
}

function isRootMismatch(errors: Issue[]): boolean {
  return (
    errors.length === 1 &&
    errors[0].path.length === 0 &&
    (errors[0].code === 'invalid_type' || errors[0].code === 'invalid_value')
  );
}

const GENERIC = new Set(['Invalid input']);

/** Unknown keys of one mapping reported one by one; the ones after these share a message. */
export const UNKNOWN_KEYS_EACH = 10;

/** Replace union issues by the issues of the branch the input evidently meant (paths made absolute). */
export function flattenIssues(issues: readonly Issue[], input: unknown): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && issue.keys.length > 1) {
      // one problem per key, each at its own place (the CLI's contract: one message per problem);
      // past UNKNOWN_KEYS_EACH the rest share one message, so 1,000 stray keys stay a short list
      for (const k of issue.keys.slice(0, UNKNOWN_KEYS_EACH)) out.push({ ...issue, keys: [k] });
      if (issue.keys.length > UNKNOWN_KEYS_EACH)
        out.push({ ...issue, keys: issue.keys.slice(UNKNOWN_KEYS_EACH) });
      continue;
    }
    if (issue.code !== 'invalid_union' || !('errors' in issue) || issue.errors.length === 0) {
      out.push(issue);
      continue;
    }
    const base = issue.path as Path;
    if (valueAtPath(input, base) === undefined) {
      out.push({ ...issue, code: 'invalid_type', expected: 'object', message: 'missing' } as Issue);
      continue;
    }
    const meant = issue.errors.filter((errs) => !isRootMismatch(errs));
    if (meant.length === 1) {
      const absolute = meant[0].map((e) => ({ ...e, path: [...base, ...e.path] }) as Issue);
      out.push(...flattenIssues(absolute, input));
      continue;
    }
    if (!GENERIC.has(issue.message)) {
      out.push(issue);
      continue;
    }
    const expected = issue.errors
      .flatMap((errs) =>
        errs.filter((e) => e.code === 'invalid_type').map((e) => (e as { expected: string }).expected),
      )
      .map((e) => (e === 'object' ? 'a mapping' : `a ${e}`));
    const given = valueAtPath(input, base);
    const quotedNumber =
      expected.includes('a number') &&
      typeof given === 'string' &&
      given.trim() !== '' &&
      Number.isFinite(Number(given));
    out.push({
      ...issue,
      message: `expected ${[...new Set(expected)].join(' or ') || 'a different value'}${quotedNumber ? ` (got the text '${quote(given)}': write the number without quotes)` : ''}`,
    });
  }
  return out;
}

/**
 * One issue → a positioned problem. `input` is what was validated; `basePath` is where it sits in the
 * parsed document (e.g. ['router', 'policy'] for a policy written inside a scenario).
 */
export function issueProblem(
  issue: Issue,
  schema: unknown,
  parsed: ParsedYaml,
  input: unknown,
  basePath: Path = [],
): Problem {
  const rel = issue.path as Path;
  const path = [...basePath, ...rel];
  const where = path.length ? `${pathText(path)}: ` : '';
  if (issue.code === 'unrecognized_keys') {
    const known = keysAt(schema, input, rel);
    // a few keys in full, the rest counted: a mapping of 1,000 stray keys is still one short message
    const parts = issue.keys.slice(0, 3).map((k) => {
      const hint = didYouMean(k, known);
      return hint ? `unknown key '${quote(k)}' (did you mean '${hint}'?)` : `unknown key '${quote(k)}'`;
    });
    if (issue.keys.length > 3) parts.push(`and ${issue.keys.length - 3} more unknown keys`);
    const allowed = known.length ? `; allowed keys: ${known.join(', ')}` : '';
    const keyPath = [...path, issue.keys[0]];
    const at = parsed.locate(keyPath, { key: true });
    return problem(at.line, at.col, `${where}${parts.join(', ')}${allowed}`, keyPath);
  }
  if (issue.code === 'invalid_key') {
    // a mapping key its record refuses (an empty model name): the key's own rule says why, at the key
    // (the record's message, e.g. "models must map model names to profiles", names no fault)
    const inner = (issue as { issues?: readonly { message: string }[] }).issues?.[0]?.message;
    const parent = path.slice(0, -1);
    const at = parsed.locate(path, { key: true });
    const label = pathText(parent);
    return problem(at.line, at.col, `${label ? `${label}: ` : ''}${inner ?? issue.message}`, path);
  }
  if (
    rel.length > 0 &&
    valueAtPath(input, rel) === undefined &&
    (issue.code === 'invalid_type' || issue.code === 'invalid_value')
  ) {
    const parent = path.slice(0, -1);
    const at = parsed.locate(parent);
    return problem(
      at.line,
      at.col,
      `${pathText(parent) || 'document'}: missing required key '${quote(String(path[path.length - 1]))}'`,
      path,
    );
  }
  const at = parsed.locate(path);
  if (issue.code === 'invalid_union' && 'note' in issue && issue.note === 'No matching discriminator') {
    const given = valueAtPath(input, rel);
    const options = ((issue as { options?: unknown[] }).options ?? []).map(String);
    const hint = typeof given === 'string' ? didYouMean(given, options) : undefined;
    return problem(
      at.line,
      at.col,
      `${where}${issue.message}${hint ? ` (did you mean '${hint}'?)` : ''}`,
      path,
    );
  }
  if (issue.code === 'invalid_value' && 'values' in issue) {
    const given = valueAtPath(input, rel);
    const hint = typeof given === 'string' ? didYouMean(given, issue.values.map(String)) : undefined;
    return problem(
      at.line,
      at.col,
      `${where}${issue.message}${hint ? ` (did you mean '${hint}'?)` : ''}`,
      path,
    );
  }
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input'))
    return problem(at.line, at.col, `${where}${typeMessage(issue.expected, valueAtPath(input, rel))}`, path);
  return problem(at.line, at.col, `${where}${issue.message}`, path);
}

const KIND_WORDS: Record<string, string> = {
  object: 'a mapping (key: value lines)',
  array: 'a list',
  number: 'a number',
  string: 'a text value',
  boolean: 'true or false',
};

/** What a value is, in words, quoting at most a short piece of it. */
function kindOf(v: unknown): string {
  if (v === null) return 'an empty value (null)';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `the text '${quote(v)}'`;
  return `${typeof v === 'number' ? 'the number' : 'the value'} ${String(v)}`;
}

/**
 * zod's own "Invalid input: expected object, received null", said in the document's terms; a number
 * written in quotes is told to lose them.
 */
export function typeMessage(expected: string, given: unknown): string {
  const want = KIND_WORDS[expected] ?? `a ${expected}`;
  const quotedNumber =
    expected === 'number' &&
    typeof given === 'string' &&
    given.trim() !== '' &&
    Number.isFinite(Number(given));
  return `expected ${want}, got ${kindOf(given)}${quotedNumber ? ': write the number without quotes' : ''}`;
}
