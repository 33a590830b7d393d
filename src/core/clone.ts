/**
 * A deep copy of an object graph that keeps what a generic copy loses: each object's prototype (so a
 * copied class instance still has its methods), shared references (an object reachable along two
 * paths is copied once, and cycles are fine), Maps and Sets in insertion order, and typed arrays as
 * views on copied buffers (two views on one buffer stay views on one buffer).
 *
 * Functions are not copied: a copy points at the same function. That is only correct for functions
 * that hold no state of their own, which is why the engine keeps its state in fields and methods,
 * never in closures; `ownFunctions` lists the function-valued fields of a graph so a test can hold
 * the engine to that rule.
 *
 * The walk uses an explicit stack, so long linked structures (radix-tree chains, request lists) do
 * not overflow the call stack.
 */

/** Buffers promised never to change again (see `markImmutable`). */
const immutableBuffers = new WeakSet<ArrayBufferLike>();

/**
 * Promise that the buffer under `view` is never written again (a request's prompt, a full slab of
 * cached token runs). Copies of the engine then share it instead of copying it, which keeps
 * checkpoints of a long run small. Returns the view.
 */
export function markImmutable<V extends ArrayBufferView>(view: V): V {
  immutableBuffers.add(view.buffer);
  return view;
}

/** Whether `markImmutable` was called on a view of this buffer. */
export function isImmutableBuffer(buffer: ArrayBufferLike): boolean {
  return immutableBuffers.has(buffer);
}

export interface CloneOptions {
  /** Objects to share instead of copying (immutable inputs: the scenario, model tables). */
  share?: ReadonlySet<object>;
  /**
   * ArrayBuffers whose contents never change after they are written: shared, not copied (default:
   * the ones passed to `markImmutable`).
   */
  isImmutableBuffer?: (buffer: ArrayBufferLike) => boolean;
}

export interface CloneResult<T> {
  value: T;
  /** A rough size of what was copied (bytes): buffers exactly, other objects estimated. */
  bytes: number;
}

type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

type TypedArrayCtor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => TypedArray;

const OBJECT = 0;
const ARRAY = 1;
const MAP = 2;
const SET = 3;
const OBJECT_BYTES = 48;
const SLOT_BYTES = 8;

/** A deep copy of `root` (see the module comment for what is and is not copied). */
export function deepClone<T>(root: T, opts: CloneOptions = {}): CloneResult<T> {
  const share = opts.share;
  const immutable = opts.isImmutableBuffer ?? isImmutableBuffer;
  const seen = new Map<object, unknown>();
  /** Triples (source, shell, kind) whose contents still have to be copied. */
  const todo: (object | number)[] = [];
  let bytes = 0;

  const buffer = (b: ArrayBufferLike): ArrayBufferLike => {
    const hit = seen.get(b);
    if (hit !== undefined) return hit as ArrayBufferLike;
    let copy: ArrayBufferLike = b;
    if (!immutable(b)) {
      copy = b.slice(0);
      bytes += b.byteLength;
    }
    seen.set(b, copy);
    return copy;
  };

  /** The copy of `v`: primitives and functions as they are, objects as a shell queued for filling. */
  const copyOf = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const hit = seen.get(v);
    if (hit !== undefined) return hit;
    if (share?.has(v)) {
      seen.set(v, v);
      return v;
    }
    const proto = Object.getPrototypeOf(v);
    let shell: object;
    let kind: number;
    if (proto === Array.prototype) {
      const n = (v as unknown[]).length;
      shell = new Array(n);
      bytes += OBJECT_BYTES + SLOT_BYTES * n;
      kind = ARRAY;
    } else if (proto === Map.prototype) {
      shell = new Map();
      bytes += OBJECT_BYTES + 4 * SLOT_BYTES * (v as Map<unknown, unknown>).size;
      kind = MAP;
    } else if (ArrayBuffer.isView(v)) {
      if (v instanceof DataView) shell = new DataView(buffer(v.buffer), v.byteOffset, v.byteLength);
      else {
        const ta = v as TypedArray;
        const Ctor = ta.constructor as TypedArrayCtor;
        shell = new Ctor(buffer(ta.buffer), ta.byteOffset, ta.length);
      }
      bytes += OBJECT_BYTES;
      seen.set(v, shell);
      return shell;
    } else if (v instanceof ArrayBuffer) return buffer(v);
    else if (proto === Set.prototype) {
      shell = new Set();
      bytes += OBJECT_BYTES + 2 * SLOT_BYTES * (v as Set<unknown>).size;
      kind = SET;
    } else if (v instanceof RegExp || v instanceof Date) {
      seen.set(v, v);
      return v;
    } else if (Array.isArray(v) || v instanceof Map || v instanceof Set) {
      throw new Error('deepClone: subclasses of Array, Map and Set are not supported');
    } else {
      shell = Object.create(proto);
      bytes += OBJECT_BYTES;
      kind = OBJECT;
    }
    seen.set(v, shell);
    todo.push(v, shell, kind);
    return shell;
  };

  const fill = (src: object, dst: object, kind: number): void => {
    if (kind === OBJECT) {
      const from = src as Record<string, unknown>;
      const out = dst as Record<string, unknown>;
      const keys = Object.keys(from);
      bytes += SLOT_BYTES * keys.length;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const x = from[key];
        out[key] = typeof x === 'object' && x !== null ? copyOf(x) : x;
      }
    } else if (kind === ARRAY) {
      const from = src as unknown[];
      const out = dst as unknown[];
      for (let i = 0; i < from.length; i++) {
        const x = from[i];
        out[i] = typeof x === 'object' && x !== null ? copyOf(x) : x;
      }
    } else if (kind === MAP) {
      const out = dst as Map<unknown, unknown>;
      for (const [k, v] of src as Map<unknown, unknown>) out.set(copyOf(k), copyOf(v));
    } else {
      const out = dst as Set<unknown>;
      for (const v of src as Set<unknown>) out.add(copyOf(v));
    }
  };

  const value = copyOf(root) as T;
  while (todo.length > 0) {
    const kind = todo.pop() as number;
    const dst = todo.pop() as object;
    const src = todo.pop() as object;
    fill(src, dst, kind);
  }
  return { value, bytes };
}

/**
 * Paths of the function-valued own fields and accessor properties reachable from `root` (each
 * object visited once). A deep copy shares these, so each must be free of state: a test compares
 * the list with the engine's known stateless ones.
 */
export function ownFunctions(root: unknown, share?: ReadonlySet<object>): string[] {
  const found = new Set<string>();
  const seen = new Set<object>();
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop() as [unknown, string];
    if (typeof v !== 'object' || v === null || seen.has(v) || share?.has(v)) continue;
    seen.add(v);
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push([v[i], `${path}[]`]);
    } else if (v instanceof Map) {
      for (const [k, x] of v) {
        stack.push([k, `${path}{key}`]);
        stack.push([x, `${path}{}`]);
      }
    } else if (v instanceof Set) {
      for (const x of v) stack.push([x, `${path}{}`]);
    } else {
      const name = (v as object).constructor?.name ?? 'Object';
      for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(v))) {
        const at = `${name === 'Object' ? path : name}.${key}`;
        if (d.get || d.set) found.add(`${at} (accessor)`);
        else if (typeof d.value === 'function') found.add(at);
        else stack.push([d.value, at]);
      }
    }
  }
  return [...found].sort();
}
