import { describe, expect, it } from 'vitest';
import { deepClone, isImmutableBuffer, markImmutable, ownFunctions } from '../../../src/core/clone';

class Counter {
  n = 0;
  bump(): number {
    this.n += 1;
    return this.n;
  }
}

describe('deepClone', () => {
  it('keeps prototypes, so a copied instance still has its methods and its own state', () => {
    const a = new Counter();
    a.bump();
    const { value: b } = deepClone(a);
    expect(b).toBeInstanceOf(Counter);
    expect(b.bump()).toBe(2);
    expect(a.n).toBe(1);
  });

  it('copies a shared object once and keeps cycles', () => {
    const shared = { x: 1 };
    const root: { a: { x: number }; b: { x: number }; self?: unknown } = { a: shared, b: shared };
    root.self = root;
    const { value } = deepClone(root);
    expect(value.a).toBe(value.b);
    expect(value.a).not.toBe(shared);
    expect(value.self).toBe(value);
  });

  it('copies Maps and Sets in insertion order, with object keys mapped to their copies', () => {
    const k = { id: 'k' };
    const m = new Map<unknown, unknown>([
      ['z', 1],
      [k, { v: 2 }],
      ['a', 3],
    ]);
    const root = { m, k, s: new Set(['q', 'b', 'x']) };
    const { value } = deepClone(root);
    expect([...value.m.keys()].map((x) => (typeof x === 'string' ? x : 'obj'))).toEqual(['z', 'obj', 'a']);
    expect(value.m.get(value.k)).toEqual({ v: 2 });
    expect(value.m.has(k)).toBe(false);
    expect([...value.s]).toEqual(['q', 'b', 'x']);
  });

  it('keeps two views on one buffer on one copied buffer', () => {
    const buf = new Int32Array([1, 2, 3, 4]);
    const tail = buf.subarray(2);
    const { value } = deepClone({ buf, tail });
    value.buf[3] = 99;
    expect(value.tail[1]).toBe(99);
    expect(buf[3]).toBe(4);
    expect(value.tail.byteOffset).toBe(8);
  });

  it('shares buffers marked immutable and objects in `share`, copies the rest', () => {
    const prompt = markImmutable(new Int32Array([7, 8, 9]));
    const config = { gpu: 'A100' };
    const state = new Float64Array(2);
    const { value, bytes } = deepClone({ prompt, config, state }, { share: new Set([config]) });
    expect(value.prompt.buffer).toBe(prompt.buffer);
    expect(isImmutableBuffer(prompt.buffer)).toBe(true);
    expect(value.config).toBe(config);
    expect(value.state.buffer).not.toBe(state.buffer);
    expect(bytes).toBeGreaterThanOrEqual(16);
  });

  it('walks long chains without overflowing the stack', () => {
    type Link = { next: Link | null; i: number };
    let head: Link | null = null;
    for (let i = 0; i < 200_000; i++) head = { next: head, i };
    const { value } = deepClone(head);
    let n = 0;
    for (let l = value; l !== null; l = l.next) n++;
    expect(n).toBe(200_000);
  });
});

describe('ownFunctions', () => {
  it('names closures and accessors held in fields, not methods on prototypes', () => {
    let hidden = 0;
    class Holder {
      counter = new Counter();
      cb = () => hidden++;
      opts = {
        get live() {
          return hidden;
        },
      };
    }
    expect(ownFunctions(new Holder())).toEqual(['Holder.cb', 'Holder.opts.live (accessor)']);
  });
});
