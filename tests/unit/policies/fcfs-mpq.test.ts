/**
 * Preble's fcfs-mpq on hand-worked cases: requests filed in ten groups by cache hit ratio, one group
 * per step in round robin from 9 down, oldest first inside a group, at most (g + 1) × k per step, and
 * no head-of-line stop at a request that does not fit, except at one that fits only while its cached
 * prefix is unlocked (Preble's scan breaks there).
 */
import { describe, expect, it } from 'vitest';
import { LiveFcfsMpqPolicy } from '../../../src/core/algorithms/fcfs-mpq/live-policy';
import { FcfsMpqPolicy, mpqGroup, preblePrefillCap } from '../../../src/core/algorithms/fcfs-mpq/policy';
import { MODELS } from '../../../src/core/cost';
import { explainDecisionText } from '../../../src/core/explain';
import { concat, Harness, range } from './harness';

const mpq = (h: Harness) => h.policy as FcfsMpqPolicy;

/** A harness whose cache holds the 90-token document range(0, 90). */
function primed(policy: string, scheduler?: Record<string, unknown>, kvTokens?: number): Harness {
  const h = new Harness({ policy, clients: ['a', 'b'], scheduler, ...(kvTokens ? { kvTokens } : {}) });
  h.add({ id: 'doc', client: 'a', tokens: range(0, 90), out: 1 });
  while (h.step());
  h.admitted.length = 0;
  return h;
}

describe('fcfs-mpq (Preble)', () => {
  it('files requests by hit ratio: group 0 for none or up to 10 %, then ⌈10·h⌉ − 1', () => {
    expect([0, 0.05, 0.1, 0.11, 0.5, 0.51, 0.9, 0.95, 1].map(mpqGroup)).toEqual([0, 0, 0, 1, 4, 5, 8, 9, 9]);
  });

  it('serves one group per step, from 9 down and around: the cached request goes before older uncached ones', () => {
    const run = (policy: string) => {
      const h = primed(policy);
      h.add({ id: 'n1', client: 'b', tokens: range(1000, 100), out: 4 });
      h.add({ id: 'n2', client: 'b', tokens: range(2000, 100), out: 4 });
      // 90 of 100 tokens cached: hit ratio 0.9 → group 8
      h.add({ id: 'a1', client: 'a', tokens: concat(range(0, 90), range(3000, 10)), out: 4 });
      const steps: string[][] = [];
      for (let i = 0; i < 3; i++) {
        h.step();
        steps.push([...h.admitted]);
      }
      return { h, steps };
    };
    const { h, steps } = run('fcfs-mpq');
    // step 1: groups 9 (empty) → 8: only a1; step 2: groups 7…1 empty → 0: n1 and n2, oldest first
    expect(steps[0]).toEqual(['a1']);
    expect(steps[1]).toEqual(['a1', 'n1', 'n2']);
    const d = h.detailsOf('fcfs-mpq').slice(1); // after the priming request's
    expect(d[0]).toMatchObject({ group: 8, skipped_empty: [9], limit: 90, rank: 0, hit_ratio: 0.9 });
    expect(d[1]).toMatchObject({ group: 0, skipped_empty: [7, 6, 5, 4, 3, 2, 1], limit: 10, rank: 0 });
    expect(mpq(h).nextGroup).toBe(9);
    const text = explainDecisionText({ kind: 'admit', summary: '', detail: d[0] });
    expect(text).toContain('serves group 8');
    expect(text).toContain('hit ratio was 90%');
    // FCFS and LPM take all three in the first step
    expect(run('fcfs').steps[0]).toEqual(['n1', 'n2', 'a1']);
    expect(run('lpm').steps[0]).toEqual(['a1', 'n1', 'n2']);
  });

  it('admits at most (g + 1) × k requests of the group per step', () => {
    const h = primed('fcfs-mpq', { mpq_k: 2 });
    for (let i = 0; i < 5; i++)
      h.add({ id: `n${i}`, client: 'b', tokens: range(1000 * (i + 1), 20), out: 2 });
    h.step();
    expect(h.admitted).toEqual(['n0', 'n1']); // group 0: (0 + 1) × 2
    h.step();
    expect(h.admitted).toEqual(['n0', 'n1', 'n2', 'n3']);
  });

  it('passes over a request that does not fit in memory and admits the next (no head-of-line stop)', () => {
    const run = (policy: string) => {
      const h = primed(policy, undefined, 400);
      // a long-running request holds half the pool and keeps room for its output
      h.add({ id: 'hog', client: 'a', tokens: range(20_000, 200), out: 1000 });
      h.step();
      h.add({ id: 'big', client: 'b', tokens: range(5000, 300), out: 50 });
      h.add({ id: 'small', client: 'b', tokens: range(9000, 20), out: 2 });
      h.step();
      return h.admitted;
    };
    expect(run('fcfs-mpq')).toEqual(['hog', 'small']);
    expect(run('fcfs')).toEqual(['hog']); // FCFS stops at the head
  });

  it('ends the group scan at a request refused only once its cached path is locked (Preble breaks there)', () => {
    const run = (use?: FcfsMpqPolicy) => {
      const h = new Harness({
        policy: 'fcfs-mpq',
        clients: ['a', 'b'],
        kvTokens: 400,
        ...(use ? { use } : {}),
      });
      h.add({ id: 'doc', client: 'a', tokens: range(0, 160), out: 1 });
      while (h.step());
      h.add({ id: 'hog', client: 'a', tokens: range(20_000, 60), out: 40 });
      h.step();
      // both in group 5 (160 of 310 and of 290 tokens cached); x, older, is tried first. With the
      // document still evictable, x's 150 new tokens + 10 of output fit; once x locks it, they do not.
      const x = h.add({ id: 'x', client: 'b', tokens: concat(range(0, 160), range(5000, 150)), out: 10 });
      const y = h.add({ id: 'y', client: 'b', tokens: concat(range(0, 160), range(9000, 130)), out: 10 });
      h.admitted.length = 0;
      h.step();
      const groups = [mpq(h).groupOf(x), mpq(h).groupOf(y)];
      const first = [...h.admitted];
      while (h.step());
      return { groups, first, all: [...h.admitted] };
    };
    for (const use of [undefined, new FcfsMpqPolicy(0)]) {
      const r = run(use);
      expect(r.groups).toEqual([5, 5]);
      // y would fit beside the locked document, but the scan ended at x: nothing this step
      expect(r.first).toEqual([]);
      expect(r.all).toEqual(['x', 'y']);
    }
  });

  it('a preempted request is filed again with its hit ratio at that time', () => {
    const h = primed('fcfs-mpq');
    const r = h.add({ id: 'x', client: 'b', tokens: concat(range(0, 90), range(7000, 10)), out: 2 });
    expect(mpq(h).groupOf(r)).toBe(-1); // filed at the next step
    expect(h.policy.size()).toBe(1);
    expect(h.policy.waiting(5).map((q) => q.id)).toEqual(['x']);
  });

  it('has no running-request limit of its own: cluster.max_running does not bound it (Preble has none)', () => {
    const run = (policy: string, use?: FcfsMpqPolicy) => {
      const h = new Harness({ policy, clients: ['a', 'b'], maxRunning: 2, ...(use ? { use } : {}) });
      for (let i = 0; i < 5; i++)
        h.add({ id: `n${i}`, client: 'b', tokens: range(1000 * (i + 1), 20), out: 4 });
      h.step();
      return { admitted: [...h.admitted], running: h.w.runningCount };
    };
    // group 0 may admit (0 + 1) × 10 per step: all five at once, past max_running 2
    for (const use of [undefined, new FcfsMpqPolicy(0), new LiveFcfsMpqPolicy(0)])
      expect(run('fcfs-mpq', use)).toEqual({ admitted: ['n0', 'n1', 'n2', 'n3', 'n4'], running: 5 });
    // other policies keep the limit
    expect(run('fcfs').admitted).toEqual(['n0', 'n1']);
  });

  it('passes over a request whose uncached prompt would take the step to max_prefill, and goes on', () => {
    const run = (use?: FcfsMpqPolicy) => {
      const h = new Harness({
        policy: 'fcfs-mpq',
        clients: ['a', 'b'],
        scheduler: { mpq_max_prefill_tokens: 300 },
        ...(use ? { use } : {}),
      });
      h.add({ id: 'a', client: 'b', tokens: range(1000, 100), out: 4 });
      // 250 uncached + the step's 100 new prefill tokens reach 300: passed over, not a stop
      h.add({ id: 'big', client: 'b', tokens: range(2000, 250), out: 4 });
      h.add({ id: 'c', client: 'b', tokens: range(3000, 150), out: 4 });
      // 150 + 100 + 150 = 400: passed over too
      h.add({ id: 'd', client: 'b', tokens: range(4000, 150), out: 4 });
      h.add({ id: 'e', client: 'b', tokens: range(5000, 49), out: 4 });
      h.step();
      const first = [...h.admitted];
      const d = h.detailsOf('fcfs-mpq');
      h.step();
      return { first, second: h.admitted.slice(first.length), d };
    };
    for (const use of [undefined, new FcfsMpqPolicy(0, 10, 300), new LiveFcfsMpqPolicy(0, 10, 300)]) {
      const r = run(use);
      expect(r.first).toEqual(['a', 'c', 'e']);
      expect(r.d.map((x) => [x.rank, x.passed_over])).toEqual([
        [0, 0],
        [2, 1],
        [4, 2],
      ]);
      // the next visit of group 0 (the only group) starts a new step's count
      expect(r.second).toEqual(['big']);
    }
  });

  it("max_prefill defaults to Preble's: the larger of the model's context length and a sixth of the KV pool", () => {
    const llama = MODELS['llama-3.1-8b'];
    expect(preblePrefillCap(llama, 400_000)).toBe(131_072);
    expect(preblePrefillCap(llama, 1_200_000)).toBe(200_000);
    expect(preblePrefillCap(MODELS['qwen3-14b'], 100_000)).toBe(40_960);
    expect(preblePrefillCap({ ...llama, id: 'custom' }, 600)).toBe(100);
  });
});
