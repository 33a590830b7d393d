/**
 * What the page remembers of the viewer between visits: the theme and the last shipped scenario
 * opened (a reload comes back to it). zustand's `persist` keeps them in localStorage under one key,
 * as the edits store keeps the texts; where storage is blocked (a frame on another site's page)
 * nothing is remembered and nothing fails.
 */
import { create } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';

export type Theme = 'light' | 'dark';

export interface Prefs {
  theme: Theme;
  /** The last shipped scenario opened ('' before the first). */
  lastScenario: string;
}

export const PREFS_KEY = 'fairground:prefs';
/** Before `persist`: one key each. Read once when there are no prefs yet, then dropped. */
const LEGACY_THEME_KEY = 'fairground:theme';
const LEGACY_SCENARIO_KEY = 'fairground:last-scenario';

function local(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // SecurityError: storage blocked for this document
    return null;
  }
}

/** localStorage that never throws (blocked, full): a failed write is simply not remembered. */
function safeStorage(): StateStorage {
  return {
    getItem(name) {
      try {
        const store = local();
        const v = store?.getItem(name) ?? null;
        if (v !== null || !store || name !== PREFS_KEY) return v;
        return legacyPrefs(store);
      } catch {
        return null;
      }
    },
    setItem(name, value) {
      try {
        local()?.setItem(name, value);
      } catch {
        /* blocked or full: not remembered */
      }
    },
    removeItem(name) {
      try {
        local()?.removeItem(name);
      } catch {
        /* blocked */
      }
    },
  };
}

/** The separate keys of earlier versions as one persisted state (null when there are none). */
function legacyPrefs(store: Storage): string | null {
  const theme = store.getItem(LEGACY_THEME_KEY);
  const lastScenario = store.getItem(LEGACY_SCENARIO_KEY);
  if (theme === null && lastScenario === null) return null;
  store.removeItem(LEGACY_THEME_KEY);
  store.removeItem(LEGACY_SCENARIO_KEY);
  const state: Partial<Prefs> = {};
  if (theme === 'light' || theme === 'dark') state.theme = theme;
  if (lastScenario) state.lastScenario = lastScenario;
  return JSON.stringify({ state, version: 1 });
}

/** The system's preference, before the viewer picked a theme. */
function systemTheme(): Theme {
  try {
    return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

export const usePrefs = create<Prefs>()(
  persist(() => ({ theme: systemTheme(), lastScenario: '' }), {
    name: PREFS_KEY,
    version: 1,
    storage: createJSONStorage(safeStorage),
    // only well-formed values come back (the stored text is the user's machine's, not ours)
    merge: (persisted: unknown, current) => {
      const out = { ...current };
      if (!persisted || typeof persisted !== 'object') return out;
      if ('theme' in persisted && (persisted.theme === 'light' || persisted.theme === 'dark'))
        out.theme = persisted.theme;
      if ('lastScenario' in persisted && typeof persisted.lastScenario === 'string')
        out.lastScenario = persisted.lastScenario;
      return out;
    },
  }),
);

export function setTheme(theme: Theme): void {
  usePrefs.setState({ theme });
}
