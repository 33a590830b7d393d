/**
 * Builds a session from the text the user gave: an arbitration script (a document with `ops:`) runs in
 * the DRR sandbox, anything else is a cluster scenario. The optional policy text overrides the
 * scenario's `router.policy` or the script's `policy`. Problems come back positioned (line:col) and
 * tagged with the text they belong to; nothing here throws.
 */
import { OPTIMISTIC_ADMISSION_NOTE } from '../core/replica/sglang';
import { SimConfigError } from '../core/sim';
import { parseYaml, type Problem, problem } from '../format/yaml';
import { documentHead, parsePolicyValue, scriptWithPolicy } from '../policy';
import { validateScenario } from '../scenario';
import { pageTraceSource } from './page-traces';
import { SandboxSession } from './arbitration-session';
import { ClusterSession } from './cluster-session';
import type { LoadOutcome, Session } from './session';

/** Whether the document holds a value at `path` (nested mappings). */
function keyAt(doc: unknown, path: readonly string[]): boolean {
  let v: unknown = doc;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, k)) return false;
    v = Reflect.get(v, k);
  }
  return v !== undefined && v !== null;
}

function fail(source: 'scenario' | 'policy', problems: Problem[]): LoadOutcome {
  return { ok: false, source, problems };
}

export function loadSession(scenarioYaml: string, policyYaml?: string): LoadOutcome {
  const parsed = parseYaml(scenarioYaml);
  if (!parsed.ok) return fail('scenario', parsed.problems);
  const head = documentHead(parsed.value.value);
  if (head.kind === 'not-mapping') {
    return fail('scenario', [problem(1, 1, 'expected a scenario or an arbitration script (a YAML mapping)')]);
  }
  if (head.kind === 'policy') {
    return fail('scenario', [
      problem(
        1,
        1,
        'this is a policy file, not a scenario: paste it into the Policy tab, and pick a scenario here',
      ),
    ]);
  }
  const override = policyYaml !== undefined && policyYaml.trim() !== '' ? policyYaml : undefined;
  const name = head.name || 'untitled';
  const description = head.description;

  if (head.kind === 'script') {
    // the sandbox accepts the explicit-classes-only policy shorthand
    const res = scriptWithPolicy(parsed.value, override);
    if (!res.ok) return fail(res.source, res.problems);
    const run = res.value;
    const make = (): Session => new SandboxSession(run, name, description);
    return { ok: true, session: make(), make, releaseSet: keyAt(parsed.value.value, ['release']) };
  }

  if (override !== undefined) {
    // a cluster takes Dynamo's policy file as it is: its problems are the policy text's
    const p = parseYaml(override);
    if (!p.ok) return fail('policy', p.problems);
    const compiled = parsePolicyValue(p.value, []);
    if (!compiled.ok) return fail('policy', compiled.problems);
  }

  const res = validateScenario(parsed.value, {
    ...(override !== undefined ? { policy: { text: override, file: 'policy' } } : {}),
    ...pageTraceSource(),
  });
  if (!res.ok) return fail('scenario', res.problems);
  const scenario = res.value;
  // the scenario panel says when the replicas do not run SGLang's admission (#11)
  const shown =
    scenario.worker.admission === 'optimistic'
      ? `${description}\n\n${OPTIMISTIC_ADMISSION_NOTE}`
      : description;
  const make = (): Session => new ClusterSession(scenario, name, shown);
  try {
    return {
      ok: true,
      session: make(),
      make,
      releaseSet: keyAt(parsed.value.value, ['router', 'dynamo_release']),
    };
  } catch (err) {
    if (err instanceof SimConfigError) {
      const at = parsed.value.locate(err.path);
      return fail('scenario', [problem(at.line, at.col, err.message, err.path)]);
    }
    const message = err instanceof Error ? err.message : String(err);
    return fail('scenario', [problem(1, 1, `the simulator cannot run this scenario: ${message}`)]);
  }
}
