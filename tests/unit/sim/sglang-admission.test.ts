/**
 * The replica's SGLang mechanisms on hand-made cases (#11): admission keeps KV room for output
 * (max_new_tokens × the adaptive new-token ratio), prefill chunks enter the radix cache as they
 * complete, and shared-prefix duplicates wait behind the longest-prefix order. Each case also runs
 * the same input under `admission: 'optimistic'` (the mechanism off) and shows the difference, so
 * removing a mechanism fails its test.
 */
import { describe, expect, it } from 'vitest';
import {
  INIT_NEW_TOKEN_RATIO,
  MIN_NEW_TOKEN_RATIO,
  NEW_TOKEN_RATIO_DECAY,
  RETRACT_DECODE_STEPS,
} from '../../../src/core/replica/sglang';
import { concat, Harness } from '../policies/harness';
import { drainWorker, range, req, worker } from './helpers';

describe('output reservation at admission', () => {
  function twoRequests(admission: 'sglang' | 'optimistic') {
    // 100 tokens of KV. r1: 40 prompt + up to 50 output = 90, fits alone. r2: 20 prompt + 50 output.
    const h = worker({ kvTokens: 100, admission });
    const r1 = req('r1', range(0, 40), 50, 0, 'standard', 50);
    const r2 = req('r2', range(1000, 20), 50, 0, 'standard', 50);
    h.w.enqueue(r1, 0);
    h.w.enqueue(r2, 0);
    h.w.beginStep(0);
    return { ...h, r1, r2 };
  }

  it('holds back a request whose prompt + max_new_tokens does not fit beside the running ones', () => {
    const s = twoRequests('sglang');
    // r1 admitted and prefilled whole this step: it keeps its 50 output tokens; 100 − 40 − 50 = 10 left
    expect(s.w.running.map((r) => r.id)).toEqual(['r1']);
    expect(s.w.reservedTokens).toBe(50);
    // the same input without the reservation admits both (and would preempt later)
    const o = twoRequests('optimistic');
    expect(o.w.running.map((r) => r.id)).toEqual(['r1', 'r2']);
  });

  it('reserves max_new_tokens, never the true output length', () => {
    // true output 2 tokens, but the request says it may write 50: admission must keep 50
    const h = worker({ kvTokens: 100 });
    const r1 = req('r1', range(0, 40), 2, 0, 'standard', 50);
    const r2 = req('r2', range(1000, 20), 2, 0, 'standard', 50);
    h.w.enqueue(r1, 0);
    h.w.enqueue(r2, 0);
    h.w.beginStep(0);
    expect(h.w.running.map((r) => r.id)).toEqual(['r1']);
  });

  it('running requests keep (max_new − generated) × ratio; the ratio decays per decode step and resets when idle', () => {
    const h = worker({ kvTokens: 10_000 });
    const r = req('r', range(0, 100), 30, 0, 'standard', 1000);
    h.w.enqueue(r, 0);
    let t = h.w.beginStep(0); // prefill (no decode yet: no decay)
    h.w.endStep(t);
    expect(h.w.newTokenRatio).toBe(INIT_NEW_TOKEN_RATIO);
    for (let k = 1; k <= 5; k++) {
      t += h.w.beginStep(t);
      const ratio = INIT_NEW_TOKEN_RATIO - k * NEW_TOKEN_RATIO_DECAY;
      expect(h.w.newTokenRatio).toBeCloseTo(ratio, 12);
      expect(h.w.reservedTokens).toBeCloseTo((1000 - r.generated) * ratio, 9);
      h.w.endStep(t);
    }
    t = drainWorker(h.w, t);
    expect(h.w.newTokenRatio).toBe(INIT_NEW_TOKEN_RATIO);
    expect(MIN_NEW_TOKEN_RATIO).toBeCloseTo(0.098, 12);
  });

  it('a retraction frees RETRACT_DECODE_STEPS tokens per request left and re-estimates the ratio', () => {
    // 256 tokens of KV, eight requests of 8 prompt + 60 output tokens (544 in all). A new request keeps
    // its whole 60; once running only 60 × ratio: with the ratio at its floor (as after 600 decode
    // steps) admission packs more than fits, and decoding runs out of memory
    const h = worker({ kvTokens: 256, blockSize: 4 });
    const rs = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => req(`r${i}`, range(i * 100, 8), 60, 0, 'standard', 60));
    for (const r of rs) h.w.enqueue(r, 0);
    let t = h.w.beginStep(0);
    h.w.endStep(t);
    expect(h.w.running.length).toBe(3); // 3 × 68 leaves 52 < 68 in the first step
    h.w.newTokenRatio = MIN_NEW_TOKEN_RATIO;
    let dt = 0;
    for (let i = 0; i < 500 && h.preempted.length === 0; i++) {
      if (i > 0) {
        t += dt;
        h.w.endStep(t);
      }
      dt = h.w.beginStep(t);
      expect(h.w.check()).toBeNull();
    }
    // the step that retracted is planned, not run yet
    expect(h.preempted.length).toBeGreaterThan(1);
    const left = h.w.running.filter((r) => !r.inPrefill);
    // RETRACT_DECODE_STEPS free tokens per decoding request left (before this step's decode blocks,
    // at most one per request, were taken)
    expect(left.length).toBeGreaterThan(1);
    expect((h.w.kv.freeBlocks + left.length) * 4).toBeGreaterThanOrEqual(left.length * RETRACT_DECODE_STEPS);
    const gen = left.reduce((a, r) => a + r.generated, 0);
    const maxNew = left.reduce((a, r) => a + r.maxNewTokens, 0);
    expect(h.w.newTokenRatio).toBeCloseTo(
      Math.min(1, (gen + RETRACT_DECODE_STEPS * left.length) / (maxNew + 1)),
      12,
    );
    // SGLang's victim: fewest generated tokens, ties the longest prompt, then the latest admitted
    const retract = h.records.find((d) => d.kind === 'preempt');
    expect(retract?.summary).toContain('retracts');
    t += dt;
    h.w.endStep(t);
    drainWorker(h.w, t);
    expect(h.completed.length).toBe(8);
  });
});

describe('prefill chunks enter the radix cache as they complete', () => {
  function afterOneChunk(admission: 'sglang' | 'optimistic') {
    const h = worker({ kvTokens: 10_000, blockSize: 4, maxBatchTokens: 16, admission });
    const doc = range(0, 64);
    const a = req('a', concat(doc, range(5000, 4)), 2, 0, 'standard', 2);
    h.w.enqueue(a, 0);
    const t = h.w.beginStep(0);
    h.w.endStep(t);
    expect(a.prefilled).toBe(16);
    expect(h.w.check()).toBeNull();
    return h.w.radix.matchLength(concat(doc, range(6000, 4)));
  }

  it('a later request on the same document finds the first chunk cached while the first still prefills', () => {
    expect(afterOneChunk('sglang')).toBe(16);
    expect(afterOneChunk('optimistic')).toBe(0);
  });
});

describe('in-batch prefix deferral (longest-prefix orders)', () => {
  function firstStep(admission: 'sglang' | 'optimistic') {
    // two questions on one 96-token document and one unrelated prompt, nothing cached, two slots
    const h = new Harness({ policy: 'lpm', clients: ['a', 'b'], maxRunning: 2, blockSize: 4, admission });
    const doc = range(0, 96);
    h.add({ id: 'q1', client: 'a', tokens: concat(doc, range(5000, 8)), out: 2 });
    h.add({ id: 'q2', client: 'a', tokens: concat(doc, range(6000, 8)), out: 2 });
    const other = h.add({ id: 'other', client: 'b', tokens: range(9000, 104), out: 2 });
    h.step();
    return { h, other };
  }

  it('admits the unrelated request before the duplicate; the duplicate then hits the cache', () => {
    const { h } = firstStep('sglang');
    expect(h.admitted).toEqual(['q1', 'other']);
    while (h.step());
    expect(h.admitted[2]).toBe('q2');
    expect(h.admitDetails()[2].cached_tokens).toBe(96);
    // without deferral the duplicate goes second, in queue order, and prefills the document again
    const o = firstStep('optimistic');
    expect(o.h.admitted).toEqual(['q1', 'q2']);
    expect(o.h.admitDetails()[1].cached_tokens).toBe(0);
  });
});

describe('the first admission check touches nothing', () => {
  // 100 tokens of KV. r1's 40-token prompt ends cached and unlocked (evictable). r2 (50 tokens) is
  // admitted; r3 shares r1's prompt and needs 55 more tokens: 55 > 10 free + 40 evictable, so it
  // is refused before its cached prefix is locked, and that prefix keeps its LRU time and version.
  for (const admission of ['sglang', 'optimistic'] as const)
    it(`${admission}: a sure refusal does not re-time the request's cached prefix`, () => {
      const h = worker({ kvTokens: 100, admission });
      h.w.enqueue(req('r1', range(0, 40), 1, 0, 'standard', 1), 0);
      const t1 = drainWorker(h.w);
      const p = h.w.radix.match(range(0, 40)).node;
      expect(p.len).toBe(40);
      const before = { lastAccess: p.lastAccess, version: p.version };
      h.w.enqueue(req('r2', range(1000, 50), 5, 0, 'standard', 5), t1 + 1);
      h.w.enqueue(req('r3', concat(range(0, 40), range(5000, 55)), 5, 0, 'standard', 5), t1 + 1);
      h.w.beginStep(t1 + 1);
      expect(h.w.running.map((r) => r.id)).toEqual(['r2']);
      expect({ lastAccess: p.lastAccess, version: p.version }).toEqual(before);
      expect(h.w.check()).toBeNull();
    });
});
