/**
 * Policy YAML -> validated file -> compiled policy, with every problem positioned: YAML syntax, the
 * zod schema (types, ranges, unknown keys with hints) and the cross-field rules, in one round.
 */
import type { CompiledPolicy, PolicyFile } from '../core/drr/types';
import {
  type ParsedYaml,
  type Path,
  type Problem,
  parseYaml,
  type Result,
  sortProblems,
  validate,
} from '../format/yaml';
import { Reporter } from '../format/reporter';
import { compilePolicy } from './compile';
import { prepassPolicy } from './generations';
import { policyRuleProblems, type RuleOptions } from './rules';
import { policyFileSchema } from './schema';

/** The plain value at `path` inside a parsed document (undefined when absent). */
export function valueAt(root: unknown, path: Path): unknown {
  let v: unknown = root;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

/** Schema and cross-field validation of the policy subtree at `basePath`. */
export function checkPolicyValue(
  parsed: ParsedYaml,
  basePath: Path = [],
  opts: RuleOptions = {},
): Result<PolicyFile> {
  const pre = new Reporter(parsed);
  const { value: input, flat } = prepassPolicy(valueAt(parsed.value, basePath), basePath, pre);
  const res = validate(policyFileSchema, parsed, basePath, input ?? null);
  // a profile written in the flat/SLO shape lacks the matrix keys, and its flat/SLO message already
  // names them: the schema's 'missing required key' for those is not repeated
  const flatAt = new Set(flat.profiles.map((p) => JSON.stringify(p)));
  const flatMissing = (p: Problem) => {
    const key = p.path[p.path.length - 1];
    return (
      (key === 'default_policy_family' || key === 'uncached_isl_buckets') &&
      flatAt.has(JSON.stringify(p.path.slice(0, -1))) &&
      valueAt(parsed.value, p.path) === undefined
    );
  };
  const schemaProblems = res.ok ? [] : res.problems.filter((p) => !flatMissing(p));
  // one round: the cross-field rules run on every part the schema accepts, beside its problems
  const problems = [
    ...pre.problems,
    ...schemaProblems,
    ...policyRuleProblems(input, parsed, basePath, opts, flat),
  ];
  return problems.length > 0 ? { ok: false, problems: sortProblems(problems) } : res;
}

/**
 * Validate and compile a policy found at `basePath` of an already parsed document (a policy file at
 * `[]`, a scenario's `['router', 'policy']`, a script's `['policy']`). Positions refer to the whole
 * document.
 */
export function parsePolicyValue(
  parsed: ParsedYaml,
  basePath: Path = [],
  opts: RuleOptions = {},
): Result<CompiledPolicy> {
  const res = checkPolicyValue(parsed, basePath, opts);
  return res.ok ? { ok: true, value: compilePolicy(res.value) } : res;
}

/** A policy file's text -> the validated file as written (Dynamo's strict rules). */
export function validatePolicyText(text: string): Result<PolicyFile> {
  const parsed = parseYaml(text);
  if (!parsed.ok) return parsed;
  return checkPolicyValue(parsed.value, []);
}

/** A policy file's text -> the compiled policy the queue runs on. */
export function parsePolicyText(text: string): Result<CompiledPolicy> {
  const parsed = parseYaml(text);
  if (!parsed.ok) return parsed;
  return parsePolicyValue(parsed.value, []);
}
