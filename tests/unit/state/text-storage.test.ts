import { describe, expect, it } from 'vitest';
import {
  type AsyncStore,
  IN_IDB,
  LOCAL_MAX_CHARS,
  type SaveProblem,
  type SyncStore,
  tieredStorage,
} from '../../../src/state/text-storage';

/** localStorage with a quota in characters (as browsers count it: all values together). */
function local(quota: number): SyncStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem(k, v) {
      let used = v.length;
      for (const [key, x] of map) if (key !== k) used += x.length;
      if (used > quota) throw new DOMException('quota exceeded', 'QuotaExceededError');
      map.set(k, v);
    },
    removeItem: (k) => void map.delete(k),
  };
}

function idb(fail = false): AsyncStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get: async (k) => map.get(k),
    set: async (k, v) => {
      if (fail) throw new DOMException('the disk is full', 'QuotaExceededError');
      map.set(k, v);
    },
    del: async (k) => void map.delete(k),
  };
}

function setup(quota: number, idbFails = false) {
  const l = local(quota);
  const d = idb(idbFails);
  const problems: (SaveProblem | null)[] = [];
  const s = tieredStorage({ local: l, idb: d, onProblem: (p) => problems.push(p) });
  return { l, d, problems, s };
}

describe('what the page remembers: localStorage, then IndexedDB, else a reported problem', () => {
  it('small text goes to localStorage at once', async () => {
    const { l, d, problems, s } = setup(1000);
    expect(s.setItem('k', 'hello')).toBeUndefined(); // synchronous: a reload right after finds it
    expect(l.map.get('k')).toBe('hello');
    expect(d.map.size).toBe(0);
    expect(await s.getItem('k')).toBe('hello');
    expect(problems).toEqual([null]);
  });

  it('text over the quota goes to IndexedDB, with a marker in localStorage, and reads back', async () => {
    const { l, d, problems, s } = setup(100);
    const big = 'x'.repeat(500);
    await s.setItem('k', big);
    expect(l.map.get('k')).toBe(IN_IDB);
    expect(d.map.get('k')).toBe(big);
    expect(await s.getItem('k')).toBe(big);
    expect(problems.at(-1)).toBeNull();
    // back to a small text: localStorage again, and the IndexedDB copy goes
    s.setItem('k', 'small');
    expect(await s.getItem('k')).toBe('small');
    await new Promise((r) => setTimeout(r, 0));
    expect(d.map.has('k')).toBe(false);
  });

  it('text longer than localStorage should hold goes to IndexedDB without trying it', async () => {
    const { l, d, s } = setup(Number.POSITIVE_INFINITY);
    const big = 'y'.repeat(LOCAL_MAX_CHARS + 1);
    await s.setItem('k', big);
    expect(l.map.get('k')).toBe(IN_IDB);
    expect(d.map.get('k')).toBe(big);
  });

  it('when IndexedDB refuses too, the failure is reported (never swallowed) with the size', async () => {
    const { l, problems, s } = setup(100, true);
    await s.setItem('k', 'z'.repeat(300));
    expect(problems.at(-1)).toEqual({ chars: 300, message: 'QuotaExceededError: the disk is full' });
    expect(l.map.has('k')).toBe(false);
    // a later save that works clears the problem
    s.setItem('k', 'ok');
    expect(problems.at(-1)).toBeNull();
  });

  it('a burst of large writes lands the newest, and a small write after it is not overwritten by a marker', async () => {
    const { l, d, s } = setup(100);
    const writes = [
      s.setItem('k', 'a'.repeat(200)),
      s.setItem('k', 'b'.repeat(200)),
      s.setItem('k', 'c'.repeat(200)),
    ];
    s.setItem('k', 'tiny');
    await Promise.all(writes);
    expect(l.map.get('k')).toBe('tiny');
    expect(await s.getItem('k')).toBe('tiny');
  });
});
