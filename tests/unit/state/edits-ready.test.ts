import { describe, expect, it } from 'vitest';
import { editsReady, type Hydration, hydrated } from '../../../src/state/edits';

/** A persisted store whose storage answers after `answerMs` (never: null). */
function store(answerMs: number | null): Hydration {
  let done = false;
  const listeners = new Set<() => void>();
  if (answerMs !== null)
    setTimeout(() => {
      done = true;
      for (const fn of listeners) fn();
    }, answerMs);
  return {
    hasHydrated: () => done,
    onFinishHydration(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

describe('waiting for the remembered texts', () => {
  it('a storage that never answers does not hang start-up: false after the timeout', async () => {
    const t0 = Date.now();
    await expect(hydrated(store(null), 50)).resolves.toBe(false);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(45);
  });
  it('a storage that answers in time: true, without waiting for the timeout', async () => {
    const t0 = Date.now();
    await expect(hydrated(store(10), 5000)).resolves.toBe(true);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
  it('already read: true at once', async () => {
    const s = store(0);
    await new Promise((r) => setTimeout(r, 5));
    await expect(hydrated(s, 5000)).resolves.toBe(true);
  });
  it('the edits store itself (no browser storage here) is ready at once', async () => {
    await expect(editsReady(50)).resolves.toBe(true);
  });
});
