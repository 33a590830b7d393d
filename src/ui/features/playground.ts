/** Loading texts into the playground the way a user edit would: the run restarts and the editors show them. */
import { extractPolicy, setTexts, type Texts, useEdits } from '../../state/edits';
import type { Driver } from '../driver';
import { problemText } from '../../format/yaml';

/**
 * Load a scenario (and optionally a policy override) and show it in the editors. `original` is what
 * Revert goes back to (by default the texts themselves); `id` names a shipped scenario for the picker.
 * Returns the problems' text when the load fails.
 */
export async function openInPlayground(
  driver: Driver,
  scenario: string,
  policy: string | undefined,
  opts: { id?: string; original?: Texts } = {},
): Promise<string | null> {
  const res = await driver.load(scenario, policy, opts.id !== undefined ? { id: opts.id } : {});
  if (!res.ok)
    return res.problems.map((p) => `${res.source}:${p.line}:${p.col}: ${problemText(p)}`).join('\n');
  const texts = { scenario, policy: policy ?? extractPolicy(scenario) };
  setTexts(texts, opts.original ?? texts);
  return null;
}

/** The texts the playground is running now (the policy only when it overrides the scenario's). */
export function currentTexts(): { scenario: string; policy?: string; original: Texts } {
  const { texts, original } = useEdits.getState();
  const p = texts.policy.trim();
  const overridden = p !== '' && p !== original.policy.trim();
  return overridden
    ? { scenario: texts.scenario, policy: texts.policy, original }
    : { scenario: texts.scenario, original };
}
