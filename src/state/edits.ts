/**
 * The texts in the editors: the scenario document and the policy override, the pristine versions they
 * started from, and their persistence in localStorage (per scenario), so an edit — valid or not — is
 * never lost across reloads.
 */
import { parse, stringify } from 'yaml';
import { create } from 'zustand';

export interface Texts {
  scenario: string;
  policy: string;
}

export interface EditsState {
  /** What the editors show. */
  texts: Texts;
  /** What the scenario shipped with (the policy: extracted from the scenario). */
  original: Texts;
  /** Bumped when the texts are replaced from outside (a scenario switch, a share link, a revert). */
  revision: number;
}

export const useEdits = create<EditsState>(() => ({
  texts: { scenario: '', policy: '' },
  original: { scenario: '', policy: '' },
  revision: 0,
}));

const KEY = 'fairground:edits:';

/**
 * The policy inside a scenario (`router.policy`) or an arbitration script (`policy`), as YAML text;
 * '' when there is none or the document does not parse.
 */
export function extractPolicy(scenarioText: string): string {
  try {
    const doc = parse(scenarioText, { maxAliasCount: 100 }) as Record<string, unknown> | null;
    if (!doc || typeof doc !== 'object') return '';
    const router = doc.router as Record<string, unknown> | undefined;
    const policy =
      'ops' in doc ? doc.policy : router && typeof router === 'object' ? router.policy : undefined;
    return policy && typeof policy === 'object' ? stringify(policy) : '';
  } catch {
    return '';
  }
}

/** The policy text to pass to `load`: undefined unless the user changed it. */
export function policyOverride(texts: Texts, original: Texts): string | undefined {
  const p = texts.policy.trim();
  if (p === original.policy.trim()) return undefined;
  return p === '' ? undefined : texts.policy;
}

export function savedEdits(id: string): Texts | null {
  if (!id) return null;
  try {
    const raw = globalThis.localStorage?.getItem(KEY + id);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<Texts>;
    return typeof v.scenario === 'string' && typeof v.policy === 'string'
      ? { scenario: v.scenario, policy: v.policy }
      : null;
  } catch {
    return null;
  }
}

export function saveEdits(id: string, texts: Texts, original: Texts): void {
  if (!id) return;
  try {
    if (texts.scenario === original.scenario && texts.policy === original.policy)
      globalThis.localStorage?.removeItem(KEY + id);
    else globalThis.localStorage?.setItem(KEY + id, JSON.stringify(texts));
  } catch {
    /* storage full or blocked: the texts stay in memory */
  }
}

/** Replace both editors' texts (and their originals) from outside. */
export function setTexts(texts: Texts, original: Texts): void {
  useEdits.setState((s) => ({ texts, original, revision: s.revision + 1 }));
}

/** Record a user edit of one editor. */
export function editText(which: keyof Texts, text: string): void {
  useEdits.setState((s) => ({ texts: { ...s.texts, [which]: text } }));
}
