/**
 * The texts in the editors: the scenario document and the policy override, the pristine versions they
 * started from, and what the page remembers of them per scenario (zustand `persist`: localStorage,
 * IndexedDB when the text is too large for it), so an edit — valid or not — is never lost across
 * reloads; when it cannot be kept at all, `saveProblem` says so (the editor shows it with a download).
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { outlineOf } from '../scenario/outline';
import { browserStores, type SaveProblem, type SyncStore, tieredStorage } from './text-storage';

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
  /** The last save failed (too large even for IndexedDB, or storage blocked); null once one works. */
  saveProblem: SaveProblem | null;
}

export const useEdits = create<EditsState>(() => ({
  texts: { scenario: '', policy: '' },
  original: { scenario: '', policy: '' },
  revision: 0,
  saveProblem: null,
}));

/** What the page remembers: the user's texts per shipped scenario id (absent: pristine). */
interface SavedEdits {
  byScenario: Record<string, Texts>;
}

const STORE_KEY = 'fairground:edits';
/** Before `persist`: one localStorage key per scenario. Read once, then dropped. */
const LEGACY_PREFIX = 'fairground:edits:';

function isTexts(v: unknown): v is Texts {
  const o = v as Partial<Texts> | null;
  return !!o && typeof o === 'object' && typeof o.scenario === 'string' && typeof o.policy === 'string';
}

/** The per-scenario keys of earlier versions as one persisted state (null when there are none). */
function legacyState(local: SyncStore & { key?(i: number): string | null; length?: number }): string | null {
  const byScenario: Record<string, Texts> = {};
  const keys: string[] = [];
  for (let i = 0; i < (local.length ?? 0); i++) {
    const k = local.key?.(i);
    if (k?.startsWith(LEGACY_PREFIX)) keys.push(k);
  }
  for (const k of keys) {
    try {
      const v: unknown = JSON.parse(local.getItem(k) ?? 'null');
      if (isTexts(v)) byScenario[k.slice(LEGACY_PREFIX.length)] = { scenario: v.scenario, policy: v.policy };
    } catch {
      /* unreadable: skip */
    }
    local.removeItem(k);
  }
  return keys.length ? JSON.stringify({ state: { byScenario }, version: 1 }) : null;
}

const stores = browserStores();
const storage = tieredStorage({
  ...stores,
  onProblem: (saveProblem) => {
    if (useEdits.getState().saveProblem !== saveProblem) useEdits.setState({ saveProblem });
  },
});

export const useSavedEdits = create<SavedEdits>()(
  persist(() => ({ byScenario: {} }), {
    name: STORE_KEY,
    version: 1,
    storage: createJSONStorage(() => ({
      ...storage,
      getItem: (name) => {
        const v = storage.getItem(name);
        if (v !== null || !stores.local) return v;
        return legacyState(stores.local as Storage);
      },
    })),
  }),
);

/** How long start-up waits for the remembered texts before it goes on without them (ms). */
export const EDITS_READY_TIMEOUT_MS = 2500;

/** The part of zustand's persist API that tells when a store's stored state has been read. */
export interface Hydration {
  hasHydrated(): boolean;
  onFinishHydration(fn: () => void): () => void;
}

/**
 * Resolves true once `store` has read its stored state, or false after `timeoutMs` when it has not:
 * a storage that never answers (IndexedDB requests that never settle, as in some blocked frames)
 * must not hang start-up.
 */
export function hydrated(store: Hydration, timeoutMs: number): Promise<boolean> {
  if (store.hasHydrated()) return Promise.resolve(true);
  return new Promise((resolve) => {
    let off = () => {};
    const timer = setTimeout(() => {
      off();
      resolve(false);
    }, timeoutMs);
    off = store.onFinishHydration(() => {
      clearTimeout(timer);
      off();
      resolve(true);
    });
  });
}

/**
 * Resolves once the remembered texts are read (at once unless they live in IndexedDB): true, or false
 * when the storage did not answer within EDITS_READY_TIMEOUT_MS (the page then goes on without them).
 */
export function editsReady(timeoutMs = EDITS_READY_TIMEOUT_MS): Promise<boolean> {
  return hydrated(useSavedEdits.persist, timeoutMs);
}

/**
 * The policy inside a scenario (`router.policy`) or an arbitration script (`policy`), as YAML text;
 * '' when there is none or the document does not parse.
 */
export function extractPolicy(scenarioText: string): string {
  const outline = outlineOf(scenarioText);
  return outline.kind === 'other' ? '' : outline.policy_yaml;
}

/** The policy text to pass to `load`: undefined unless the user changed it. */
export function policyOverride(texts: Texts, original: Texts): string | undefined {
  const p = texts.policy.trim();
  if (p === original.policy.trim()) return undefined;
  return p === '' ? undefined : texts.policy;
}

export function savedEdits(id: string): Texts | null {
  if (!id) return null;
  return useSavedEdits.getState().byScenario[id] ?? null;
}

/** Remember the texts of scenario `id` (forget them when they are the pristine ones). */
export function saveEdits(id: string, texts: Texts, original: Texts): void {
  if (!id) return;
  const pristine = texts.scenario === original.scenario && texts.policy === original.policy;
  const { byScenario } = useSavedEdits.getState();
  if (pristine && !(id in byScenario)) return;
  const next = { ...byScenario };
  if (pristine) delete next[id];
  else next[id] = { scenario: texts.scenario, policy: texts.policy };
  useSavedEdits.setState({ byScenario: next });
}

/** Replace both editors' texts (and their originals) from outside. */
export function setTexts(texts: Texts, original: Texts): void {
  useEdits.setState((s) => ({ texts, original, revision: s.revision + 1 }));
}

/** Record a user edit of one editor. */
export function editText(which: keyof Texts, text: string): void {
  useEdits.setState((s) => ({ texts: { ...s.texts, [which]: text } }));
}
