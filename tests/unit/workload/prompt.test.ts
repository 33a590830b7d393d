/**
 * Described synthetic prompts (#15.3, src/core/workload/prompt.ts): a chain of stream segments gives
 * exactly the ids `buildTokens` writes for the same pieces, and exactly the page fingerprints of those
 * ids, whatever the order in which prompts sharing segments are fingerprinted, released or asked for
 * another page size (the segments remember fingerprints; a wrong reuse would show here).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PageSeq } from '../../../src/core/replica/pages';
import { type Segment, StreamPrompt, withReply } from '../../../src/core/workload/prompt';
import { buildTokens, outputLabel } from '../../../src/core/workload/tokens';

interface Built {
  prompt: StreamPrompt;
  pieces: Segment[];
}

/** A forest of prompts: each new one extends an earlier one (or nothing) by 0–3 segments, or by a reply. */
const forest = fc.array(
  fc.record({
    parent: fc.nat(),
    root: fc.boolean(),
    reply: fc.boolean(),
    context: fc.boolean(),
    counts: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 3 }),
  }),
  { minLength: 1, maxLength: 12 },
);

/** What to do with the prompts, in order: fingerprint one (page size), release one. */
const ops = fc.array(
  fc.record({ which: fc.nat(), release: fc.boolean(), size: fc.constantFrom(1, 2, 3, 4, 16) }),
  { minLength: 1, maxLength: 30 },
);

function grow(spec: { parent: number; root: boolean; reply: boolean; context: boolean; counts: number[] }[]) {
  const built: Built[] = [];
  spec.forEach((s, i) => {
    const parent = built.length === 0 || s.root ? null : built[s.parent % built.length];
    let base = parent?.prompt ?? null;
    const pieces: Segment[] = parent ? [...parent.pieces] : [];
    if (parent && s.reply) {
      base = withReply(parent.prompt, `r${i}`, 1 + (s.counts[0] % 30));
      pieces.push({ label: outputLabel(`r${i}`), count: 1 + (s.counts[0] % 30) });
    }
    const own = s.counts.map((count, j) => ({ label: `p${i}/${j}`, count }));
    const prompt = StreamPrompt.extend(base, own, s.context);
    if (prompt === null) return;
    built.push({ prompt, pieces: [...pieces, ...own.filter((p) => p.count > 0)] });
  });
  return built;
}

describe('StreamPrompt', () => {
  it('has the ids buildTokens writes, and any range of them', () => {
    fc.assert(
      fc.property(forest, fc.nat(), fc.nat(), (spec, a, b) => {
        for (const { prompt, pieces } of grow(spec)) {
          const ids = buildTokens(pieces);
          expect(prompt.length).toBe(ids.length);
          expect(Array.from(prompt.tokens())).toEqual(Array.from(ids));
          const from = a % prompt.length;
          const count = b % (prompt.length - from + 1);
          const out = new Int32Array(count + 2).fill(-7);
          prompt.write(out, 1, from, count);
          expect(Array.from(out)).toEqual([-7, ...ids.subarray(from, from + count), -7]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('has the page fingerprints of its ids, whatever was fingerprinted or released before', () => {
    fc.assert(
      fc.property(forest, ops, (spec, todo) => {
        const built = grow(spec);
        if (built.length === 0) return;
        for (const op of todo) {
          const { prompt, pieces } = built[op.which % built.length];
          if (op.release) prompt.release();
          const want = PageSeq.fromTokens(buildTokens(pieces), op.size).data;
          expect(Array.from(prompt.pages(op.size))).toEqual(Array.from(want));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a follow-up copies the fingerprints its parent computed and hashes only its own segments', () => {
    const question = StreamPrompt.build(null, [{ label: 'q', count: 250 }], true);
    const parent = StreamPrompt.build(question, [{ label: 'a/step', count: 16 }], false);
    parent.pages(16);
    const reply = withReply(parent, 'a', 64);
    const child = StreamPrompt.build(reply, [{ label: 'a.0/step', count: 16 }], false);
    // a probe on the ids the child's pages read: only the reply's and its own are computed here
    const seen = new Set<StreamPrompt>();
    for (const s of [question, parent, reply, child]) {
      const idAt = s.idAt.bind(s);
      s.idAt = (pos: number) => {
        seen.add(s);
        return idAt(pos);
      };
    }
    child.pages(16);
    expect([question, parent, reply, child].map((s) => seen.has(s))).toEqual([false, true, true, true]);
    // (the parent is read for the ids of the page that straddles its end, not hashed whole)
  });

  it('release drops only the prompt’s own segments', () => {
    const question = StreamPrompt.build(null, [{ label: 'q', count: 40 }], true);
    const own = StreamPrompt.build(question, [{ label: 'x', count: 40 }], false);
    own.pages(16);
    own.release();
    let hashed = 0;
    const idAt = question.idAt.bind(question);
    question.idAt = (pos: number) => {
      hashed++;
      return idAt(pos);
    };
    own.pages(16);
    // the question's 2 whole pages come from what it kept: only its last 8 ids (a page across) are read
    expect(hashed).toBe(8);
  });
});
