/**
 * A trace prompt described, not held (#14, #15.3): its page fingerprints (computed from the block
 * list, never from ids) match another prompt's exactly where their token ids match, for block sizes
 * that divide the trace's block tokens and for ones that do not; its ids on demand are the ids; a
 * queued or finished trace request holds a few hundred bytes whatever its prompt length.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepClone } from '../../../src/core/clone';
import { PageSeq } from '../../../src/core/replica/pages';
import { SimRequest } from '../../../src/core/sim/request';
import { TracePrompt, TraceRequestSpec, type TraceTable } from '../../../src/core/trace';
import { readTraceText } from '../../../src/format/trace';

const row = (ms: number, input: number, ids: number[], output = 4) =>
  JSON.stringify({ timestamp: ms, input_length: input, output_length: output, hash_ids: ids });

function table(rows: string[], blockTokens: number): TraceTable {
  const r = readTraceText('p.jsonl', rows.join('\n'), { blockTokens });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.value;
}

/** Leading pages of `a` and `b` whose two fingerprint words are equal. */
function samePages(a: Int32Array, b: Int32Array): number {
  let k = 0;
  while (2 * k < a.length && 2 * k < b.length && a[2 * k] === b[2 * k] && a[2 * k + 1] === b[2 * k + 1]) k++;
  return k;
}

function commonPrefix(a: Int32Array, b: Int32Array): number {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

describe('trace prompt pages', () => {
  it('two prompts share exactly the pages whose ids they share (any block size), and ids on demand are the ids', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 0, maxLength: 5 }),
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 0, maxLength: 5 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom(1, 2, 4, 8, 16, 3, 5, 12, 24),
        (a, b, la, lb, size) => {
          const B = 16;
          const t = table([row(0, la, a), row(1, lb, b)], B);
          const pa = new TracePrompt(t, 0, 'a');
          const pb = new TracePrompt(t, 1, 'b');
          const ta = pa.tokens();
          const tb = pb.tokens();
          expect(ta.length).toBe(la);
          // a slice written on demand equals the same slice of the ids
          const from = Math.floor(la / 3);
          const out = new Int32Array(la - from);
          pa.write(out, 0, from, la - from);
          expect([...out]).toEqual([...ta.subarray(from)]);
          // pages: as many as whole pages; shared exactly as far as the ids are shared
          const da = pa.pages(size);
          const db = pb.pages(size);
          expect(da.length).toBe(2 * Math.floor(la / size));
          const whole = Math.min(Math.floor(la / size), Math.floor(lb / size));
          expect(samePages(da, db)).toBe(Math.min(whole, Math.floor(commonPrefix(ta, tb) / size)));
          // and they agree with pages fingerprinted from the ids wherever those pages meet ids of
          // another source (a request's own tokens, outputs): pages outside blocks are `writePage`'s
          const span = Math.min(la, a.length * B);
          const fromIds = PageSeq.fromTokens(ta, size).data;
          for (let k = 0; k < da.length / 2; k++)
            if (B % size !== 0 || (k + 1) * size > span) {
              expect(da[2 * k]).toBe(fromIds[2 * k]);
              expect(da[2 * k + 1]).toBe(fromIds[2 * k + 1]);
            }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('the same block at another position, or another block, is a different page', () => {
    const t = table([row(0, 64, [1, 2]), row(1, 64, [2, 1]), row(2, 64, [1, 3])], 32);
    const d = [0, 1, 2].map((i) => new TracePrompt(t, i, `r${i}`).pages(16));
    expect(samePages(d[0], d[1])).toBe(0);
    expect(samePages(d[0], d[2])).toBe(2);
    // page 1 of block 1 is not page 0 of block 1
    expect(d[0][2] === d[0][0] && d[0][3] === d[0][1]).toBe(false);
  });

  it('two tables of one run share no page, even with the same hash ids (block spaces)', () => {
    const t = table([row(0, 64, [1, 2])], 32);
    const u = table([row(0, 64, [1, 2])], 32);
    const a = new TracePrompt(t, 0, 'a', { stride: 2, offset: 0 });
    const b = new TracePrompt(u, 0, 'b', { stride: 2, offset: 1 });
    const a2 = new TracePrompt(t, 0, 'a2', { stride: 2, offset: 0 });
    expect(samePages(a.pages(16), b.pages(16))).toBe(0);
    expect(samePages(a.pages(16), a2.pages(16))).toBe(4);
    expect(commonPrefix(a.tokens(), b.tokens())).toBe(0);
  });
});

describe('compact trace requests (#15.3)', () => {
  it('a queued or finished trace request holds a few hundred bytes, whatever its prompt length', () => {
    const bytesOf = (input: number) => {
      const t = table(
        [
          row(
            0,
            input,
            Array.from({ length: Math.ceil(input / 512) }, (_, i) => i),
          ),
        ],
        512,
      );
      const spec = new TraceRequestSpec(
        'trace@L1',
        'trace',
        t,
        0,
        'p/trace@L1',
        4,
        'standard',
        'trace@L1',
        'line 1',
      );
      const r = new SimRequest(spec, 0, 0, 0);
      // the router and the admission read its pages; then it waits (or finishes) compact
      const held = r.pages(16);
      expect(held.pages).toBe(Math.floor(input / 16));
      const running = deepClone(r, { share: new Set<object>([t]), isImmutableBuffer: () => false }).bytes;
      r.compact();
      const queued = deepClone(r, { share: new Set<object>([t]), isImmutableBuffer: () => false }).bytes;
      // the pages come back, the same, when asked again
      expect([...r.pages(16).data]).toEqual([...held.data]);
      return { running, queued };
    };
    const short = bytesOf(100);
    const long = bytesOf(100_000);
    expect(long.queued).toBe(short.queued);
    expect(long.queued).toBeLessThan(1024);
    // running, it holds its page fingerprints: half a byte per prompt token, not 4 bytes of ids
    expect(long.running - long.queued).toBeGreaterThanOrEqual(50_000);
    expect(long.running - long.queued).toBeLessThan(51_000);
  });
});
