import { afterEach, describe, expect, it, vi } from 'vitest';

/** A localStorage stand-in (Node has none). */
function memoryStorage(init: Record<string, string> = {}): Storage {
  const m = new Map(Object.entries(init));
  return {
    get length() {
      return m.size;
    },
    key: (i) => [...m.keys()][i] ?? null,
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, String(v)),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
  };
}

/** The prefs module as a fresh page would load it, with this storage. */
async function load(storage: Storage | 'blocked') {
  vi.resetModules();
  if (storage === 'blocked')
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('blocked', 'SecurityError');
      },
    });
  else Object.defineProperty(globalThis, 'localStorage', { configurable: true, value: storage });
  return import('../../../src/state/prefs');
}

afterEach(() => {
  Object.defineProperty(globalThis, 'localStorage', { configurable: true, value: undefined });
});

describe('the page’s remembered preferences (zustand persist)', () => {
  it('a theme picked is written under one key and read back by the next page', async () => {
    const store = memoryStorage();
    const first = await load(store);
    expect(first.usePrefs.getState().theme).toBe('light');
    first.setTheme('dark');
    first.usePrefs.setState({ lastScenario: 'drr-burst' });
    expect(JSON.parse(store.getItem(first.PREFS_KEY) ?? '{}')).toEqual({
      state: { theme: 'dark', lastScenario: 'drr-burst' },
      version: 1,
    });
    const next = await load(store);
    expect(next.usePrefs.getState()).toMatchObject({ theme: 'dark', lastScenario: 'drr-burst' });
  });

  it('the separate keys of earlier versions are read once, then dropped', async () => {
    const store = memoryStorage({ 'fairground:theme': 'dark', 'fairground:last-scenario': 'vtc-overload' });
    const { usePrefs } = await load(store);
    expect(usePrefs.getState()).toMatchObject({ theme: 'dark', lastScenario: 'vtc-overload' });
    expect(store.getItem('fairground:theme')).toBeNull();
    expect(store.getItem('fairground:last-scenario')).toBeNull();
  });

  it('values that are not ours are ignored, not taken', async () => {
    const store = memoryStorage({
      'fairground:prefs': JSON.stringify({ state: { theme: 'neon', lastScenario: 7 }, version: 1 }),
    });
    const { usePrefs } = await load(store);
    expect(usePrefs.getState()).toMatchObject({ theme: 'light', lastScenario: '' });
  });

  it('blocked storage: nothing is remembered and nothing throws', async () => {
    const { usePrefs, setTheme } = await load('blocked');
    expect(usePrefs.persist.hasHydrated()).toBe(true);
    expect(() => setTheme('dark')).not.toThrow();
    expect(usePrefs.getState().theme).toBe('dark');
  });
});
