import { describe, expect, it } from 'vitest';
import { ReqState } from '../../../src/core/sim/request';
import { outputTokenIds } from '../../../src/core/workload/tokens';
import { drainWorker, range, req, worker } from './helpers';

describe('continuous batching', () => {
  it('decodes first, then continues partial prefills, then admits in FCFS order within the token budget', () => {
    const { w, completed } = worker({ maxBatchTokens: 100 });
    const r1 = req('r1', range(0, 150), 3);
    const r2 = req('r2', range(1000, 30), 2);
    w.enqueue(r1, 0);
    w.enqueue(r2, 0);
    // step 1: r1 takes the whole budget; r2 waits (no budget left)
    let t = w.beginStep(0);
    expect(r1.chunk).toBe(100);
    expect(r2.state).toBe(ReqState.Waiting);
    w.endStep(t);
    expect(r1.prefilled).toBe(100);
    expect(r1.generated).toBe(0);
    // step 2: r1 finishes its prefill (50), r2 is admitted with its whole prompt (30)
    const t2 = w.beginStep(t);
    expect(r1.chunk).toBe(50);
    expect(r2.chunk).toBe(30);
    t += t2;
    w.endStep(t);
    expect(r1.generated).toBe(1);
    expect(r2.generated).toBe(1);
    expect(r1.firstTokenT).toBe(t);
    // step 3: both decode one token; r2 (2 output tokens) completes
    t += w.beginStep(t);
    expect(r1.chunk).toBe(1);
    expect(r2.chunk).toBe(1);
    w.endStep(t);
    expect(completed).toEqual(['r2']);
    drainWorker(w, t);
    expect(completed).toEqual(['r2', 'r1']);
    expect(w.check()).toBeNull();
  });

  it('respects max_running and the per-request chunk size', () => {
    const { w } = worker({ maxBatchTokens: 1000, maxRunning: 2, chunkTokens: 64 });
    const rs = [0, 1, 2].map((i) => req(`r${i}`, range(i * 1000, 100), 5));
    for (const r of rs) w.enqueue(r, 0);
    w.beginStep(0);
    expect(rs.map((r) => r.chunk)).toEqual([64, 64, 0]);
    expect(w.runningCount).toBe(2);
    expect(w.waitingCount).toBe(1);
  });

  it('reuses a cached prefix: the prompt of a finished request is matched by the next one', () => {
    const { w } = worker({ blockSize: 4 });
    const doc = range(0, 40);
    const r1 = req('r1', doc, 4);
    w.enqueue(r1, 0);
    const t = drainWorker(w, 0);
    const follow = Int32Array.from([...doc, ...range(500, 10)]);
    const r2 = req('r2', follow, 2);
    w.enqueue(r2, t);
    w.beginStep(t);
    expect(r2.cachedLen).toBe(40); // the whole document (10 pages)
    expect(r2.chunk).toBe(10);
    expect(w.admittedCachedTokens).toBe(40);
    expect(w.check()).toBeNull();
  });

  it('a follow-up that extends the reply also matches the reply (prompt + output cached at completion)', () => {
    const { w } = worker({ blockSize: 1 });
    const r1 = req('r1', range(0, 20), 6);
    w.enqueue(r1, 0);
    drainWorker(w, 0);
    // the cached context is prompt + all output tokens but the last (its KV is never computed)
    expect(w.radix.cachedTokens).toBe(25);
    const followUp = Int32Array.from([...r1.tokens, ...outputTokenIds(r1.spec), ...range(9000, 5)]);
    expect(w.radix.matchLength(followUp)).toBe(25);
  });

  it('keeps at least one prompt token to compute even when the whole prompt is cached', () => {
    const { w } = worker({ blockSize: 1 });
    const p = range(0, 10);
    w.enqueue(req('a', p, 1), 0);
    const t = drainWorker(w, 0);
    const b = req('b', p, 1);
    w.enqueue(b, t);
    w.beginStep(t);
    expect(b.cachedLen).toBe(9);
    expect(b.chunk).toBe(1);
  });
});

describe('dynamic chunking (Vajra)', () => {
  it('takes the largest chunk whose predicted step fits the target, and at least 32 tokens', () => {
    const { w } = worker({ maxBatchTokens: 8192, chunkMode: 'dynamic', targetStepS: 0.05 });
    const r = req('long', range(0, 6000), 2);
    w.enqueue(r, 0);
    const dt = w.beginStep(0);
    expect(r.chunk).toBeGreaterThan(32);
    expect(r.chunk).toBeLessThan(6000);
    expect(dt).toBeLessThanOrEqual(0.05);
    // one more token would not fit
    const fixed = worker({ maxBatchTokens: r.chunk + 1 });
    const r2 = req('long2', range(0, 6000), 2);
    fixed.w.enqueue(r2, 0);
    expect(fixed.w.beginStep(0)).toBeGreaterThan(0.05);
    // with an impossible target the floor of 32 tokens still moves the prefill
    const tiny = worker({ chunkMode: 'dynamic', targetStepS: 0.0001 });
    const r3 = req('long3', range(0, 6000), 2);
    tiny.w.enqueue(r3, 0);
    tiny.w.beginStep(0);
    expect(r3.chunk).toBe(32);
  });
});

describe('preemption (recompute)', () => {
  function tight(preemption: 'fcfs' | 'priority') {
    // 6 blocks of 4 tokens; two requests of 8 prompt tokens each take 2 blocks apiece. Optimistic
    // admission: both start (SGLang's reservation would hold the second back, see sglang-admission.test.ts)
    const h = worker({ kvTokens: 24, blockSize: 4, preemption, admission: 'optimistic' });
    const r1 = req('r1', range(0, 8), 12, 0, 'batch');
    const r2 = req('r2', range(100, 8), 12, 0, 'critical');
    h.w.enqueue(r1, 0);
    h.w.enqueue(r2, 0);
    return { ...h, r1, r2 };
  }

  it('fcfs: the tail of the running batch is preempted and goes back to the front of the queue', () => {
    const { w, r1, r2, preempted, records } = tight('fcfs');
    let t = 0;
    for (let i = 0; i < 20 && preempted.length === 0; i++) {
      t += w.beginStep(t);
      expect(w.check()).toBeNull();
      w.endStep(t);
    }
    expect(preempted).toEqual(['r2']);
    expect(r2.state).toBe(ReqState.Waiting);
    expect(r2.prefilled).toBe(0);
    expect(r2.preemptions).toBe(1);
    expect(w.policy.waiting(5)[0]).toBe(r2);
    expect(r1.state).toBe(ReqState.Running);
    expect(records.some((d) => d.kind === 'preempt' && d.request === 'r2')).toBe(true);
    drainWorker(w, t);
    expect(w.kv.allocatedBlocks).toBe(w.radix.cachedBlocks);
  });

  it('priority: the least urgent request is the victim', () => {
    const { w, preempted } = tight('priority');
    let t = 0;
    for (let i = 0; i < 20 && preempted.length === 0; i++) {
      t += w.beginStep(t);
      w.endStep(t);
    }
    expect(preempted).toEqual(['r1']);
  });
});
