import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/prng';
import {
  createWorkload,
  fullContext,
  programRequests,
  type RequestSpec,
} from '../../../src/core/workload/index';
import { oneClient, startsWith } from './helpers';
import { pc } from '../program-client';

/** Run one program instance to the end, completing requests in an order chosen by `pick`. */
function runInstance(program: Record<string, unknown>, pick: (n: number) => number) {
  const scenario = oneClient(program);
  const w = createWorkload(scenario, new Rng(1));
  const pending: RequestSpec[] = [...w.onArrival('alice', 0).submit];
  const all: RequestSpec[] = [...pending];
  const follow: { after: RequestSpec; next: RequestSpec }[] = [];
  let t = 0;
  while (pending.length > 0) {
    const [done] = pending.splice(pick(pending.length), 1);
    t += 1;
    for (const ev of w.onComplete(done.id, t)) {
      if (ev.kind !== 'submit') throw new Error('programs only submit');
      expect(ev.t).toBeGreaterThanOrEqual(t);
      pending.push(ev.request);
      all.push(ev.request);
      follow.push({ after: done, next: ev.request });
    }
  }
  return { all, follow, waiting: w.waiting(), spec: pc(scenario.clients[0]).program };
}

describe('program invariants (property)', () => {
  const order = fc.array(fc.nat(), { minLength: 1, maxLength: 50 });
  const picker = (xs: number[]) => {
    let i = 0;
    return (n: number) => xs[i++ % xs.length] % n;
  };

  it('tree-of-thought: Σ b^d requests, unique ids, every child extends its parent’s full context', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        order,
        (depth, branching, xs) => {
          const r = runInstance(
            {
              type: 'tree-of-thought',
              depth,
              branching,
              question_tokens: 20,
              thought_tokens: { dist: 'uniform', min: 1, max: 9 },
              answer_tokens: 3,
              step_tokens: 2,
            },
            picker(xs),
          );
          expect(r.all.length).toBe(programRequests(r.spec));
          expect(new Set(r.all.map((q) => q.id)).size).toBe(r.all.length);
          for (const { after, next } of r.follow)
            expect(startsWith(next.tokens, fullContext(after))).toBe(true);
          expect(r.waiting).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('multi-turn: turns requests, each extends the previous turn', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), order, (turns, xs) => {
        const r = runInstance(
          {
            type: 'multi-turn',
            turns,
            prompt_tokens: { dist: 'uniform', min: 1, max: 30 },
            output_tokens: 5,
            think_time_s: 0.5,
          },
          picker(xs),
        );
        expect(r.all.length).toBe(turns);
        for (const { after, next } of r.follow)
          expect(startsWith(next.tokens, fullContext(after))).toBe(true);
        expect(r.waiting).toBe(0);
      }),
      { numRuns: 40 },
    );
  });

  it('judge: dimensions + 1 requests, the merge last, whatever the completion order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), order, (dimensions, xs) => {
        const r = runInstance(
          { type: 'judge', dimensions, article_tokens: 50, output_tokens: 4, merge_output_tokens: 2 },
          picker(xs),
        );
        expect(r.all.length).toBe(dimensions + 1);
        expect(r.all[r.all.length - 1].node).toBe('merge');
        expect(r.follow.length).toBe(1);
        expect(r.waiting).toBe(0);
      }),
      { numRuns: 40 },
    );
  });
});
