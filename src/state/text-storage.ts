/**
 * Where the page keeps what the user typed: zustand `persist` storage that writes to localStorage
 * and, when the text is too large for it (the quota, a few MB per origin), to IndexedDB instead,
 * leaving a small marker in localStorage. When even IndexedDB refuses, the failure is reported
 * (`onProblem`), never swallowed: the page then says so where the user is looking and offers a
 * download. Reads follow the marker. The two back ends are injected so tests can make either fail.
 */
import { del as idbDel, get as idbGet, set as idbSet } from 'idb-keyval';
import type { StateStorage } from 'zustand/middleware';

/** The few calls used of each back end. */
export interface SyncStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
export interface AsyncStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  del(key: string): Promise<void>;
}

/** What a failed save reports: how big the text was and why it could not be kept. */
export interface SaveProblem {
  chars: number;
  message: string;
}

/** Written to localStorage in place of a value that lives in IndexedDB. */
export const IN_IDB = '{"fairground:in":"indexeddb"}';

/** Values longer than this (characters) go straight to IndexedDB (localStorage holds ~5 MB in all). */
export const LOCAL_MAX_CHARS = 1_000_000;

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

export function tieredStorage(opts: {
  local: SyncStore | null;
  idb: AsyncStore | null;
  onProblem: (p: SaveProblem | null) => void;
}): StateStorage {
  const { local, idb, onProblem } = opts;
  /** Values waiting for IndexedDB, newest per key (a burst of keystrokes writes once). */
  const pending = new Map<string, string>();
  let draining: Promise<void> | null = null;
  /** Writes asked for so far; an IndexedDB write only claims the key if none came after it. */
  let writes = 0;
  const lastWrite = new Map<string, number>();

  const toIdb = async (name: string, value: string, localError: unknown, id: number): Promise<void> => {
    if (!idb) {
      onProblem({ chars: value.length, message: describe(localError ?? 'no storage in this browser') });
      return;
    }
    try {
      await idb.set(name, value);
    } catch (err) {
      onProblem({ chars: value.length, message: describe(err) });
      return;
    }
    if (lastWrite.get(name) !== id) return; // a newer value was written (or is on its way)
    try {
      local?.setItem(name, IN_IDB);
    } catch {
      // the marker does not fit either: drop the stale copy so a read goes to IndexedDB
      try {
        local?.removeItem(name);
      } catch {
        /* nothing more to do */
      }
    }
    onProblem(null);
  };

  const drain = async (localError: unknown): Promise<void> => {
    while (pending.size > 0) {
      const [name, value] = pending.entries().next().value as [string, string];
      pending.delete(name);
      await toIdb(name, value, localError, lastWrite.get(name) ?? 0);
    }
    draining = null;
  };

  return {
    getItem(name) {
      let v: string | null = null;
      try {
        v = local?.getItem(name) ?? null;
      } catch {
        v = null;
      }
      if (v !== null && v !== IN_IDB) return v;
      if (!idb) return null;
      return idb.get(name).then(
        (x) => x ?? null,
        () => null,
      );
    },
    setItem(name, value) {
      lastWrite.set(name, ++writes);
      // Small values: localStorage at once (a reload right after typing finds them).
      let localError: unknown = null;
      if (local && value.length <= LOCAL_MAX_CHARS) {
        try {
          local.setItem(name, value);
          pending.delete(name);
          onProblem(null);
          if (idb) void idb.del(name).catch(() => {});
          return;
        } catch (err) {
          localError = err;
        }
      }
      pending.set(name, value);
      draining ??= drain(localError);
      return draining;
    },
    removeItem(name) {
      lastWrite.set(name, ++writes);
      try {
        local?.removeItem(name);
      } catch {
        /* blocked storage */
      }
      pending.delete(name);
      if (idb) void idb.del(name).catch(() => {});
    },
  };
}

/** The browser's back ends, or null where they are missing or blocked. */
export function browserStores(): { local: SyncStore | null; idb: AsyncStore | null } {
  let local: SyncStore | null = null;
  let blocked = false;
  try {
    local = globalThis.localStorage ?? null;
  } catch {
    // SecurityError: storage is blocked for this document (e.g. a frame on another site's page with
    // third-party storage blocked). IndexedDB is blocked then too, and in Chromium its requests may
    // never settle, which would leave the edits' hydration (editsReady) and so start-up hanging.
    local = null;
    blocked = true;
  }
  const idb: AsyncStore | null =
    blocked || typeof indexedDB === 'undefined'
      ? null
      : {
          get: (k) => idbGet<string>(k),
          set: (k, v) => idbSet(k, v),
          del: (k) => idbDel(k),
        };
  return { local, idb };
}
