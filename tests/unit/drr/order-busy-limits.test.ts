/** Order inside a class, the busy tests and the queue limits. */
import { describe, expect, it } from 'vitest';
import {
  type ClassConfig,
  type CompiledPolicy,
  PolicyQueue,
  poolBusy,
  workerBusy,
} from '../../../src/core/drr';
import { explicitPolicy } from './helpers';

const always = () => true;

function oneClass(cfg: Partial<ClassConfig>): CompiledPolicy {
  const p = explicitPolicy([['c', 1_000_000]]);
  Object.assign(p.root!.classes[0], cfg);
  return p;
}

function drain(q: PolicyQueue<null>): string[] {
  const out: string[] = [];
  for (let r = q.pop(always); r.request; r = q.pop(always)) out.push(r.request.id);
  return out;
}

describe('order inside a class', () => {
  it('FCFS: strict tier first, then priority minus arrival, then enqueue order', () => {
    const q = new PolicyQueue<null>(oneClass({ queuePolicy: 'fcfs' }));
    const add = (id: string, arrivalS: number, priority = 0, strictPriority = 0) =>
      q.enqueue({
        id,
        requestedClass: 'c',
        rawIsl: 10,
        cachedTokens: 0,
        arrivalS,
        priority,
        strictPriority,
        payload: null,
      });
    add('late', 5);
    add('early', 1);
    add('jump', 9, 5); // 5 - 9 = -4 beats late (-5) but not early (-1)
    add('tie-early', 1); // same score as early: enqueue order
    add('strict', 100, 0, 1);
    add('negative-priority', 5, -10); // negative priority counts as 0: ties with late, enqueued after
    expect(q.classQueue('c').map((r) => r.id)).toEqual([
      'strict',
      'early',
      'tie-early',
      'jump',
      'late',
      'negative-priority',
    ]);
    expect(drain(q)).toEqual(['strict', 'early', 'tie-early', 'jump', 'late', 'negative-priority']);
  });

  it('WSPT: (1 + priority) / cost, larger first', () => {
    const q = new PolicyQueue<null>(oneClass({ queuePolicy: 'wspt' }));
    const add = (id: string, cost: number, priority = 0) =>
      q.enqueue({ id, requestedClass: 'c', rawIsl: cost, cachedTokens: 0, priority, payload: null });
    add('big', 1000); // 0.001
    add('small', 100); // 0.01
    add('big-urgent', 1000, 19); // 0.02
    add('zero', 0); // cost 1 -> 1
    expect(drain(q)).toEqual(['zero', 'big-urgent', 'small', 'big']);
  });
});

describe('busy tests', () => {
  const cls: ClassConfig = { name: 'c', quantum: 1, queuePolicy: 'fcfs', prefillBusyThreshold: 100 };
  it('a worker is busy strictly above the absolute or fractional threshold', () => {
    expect(workerBusy(cls, { activePrefillTokens: 100, maxBatchedTokens: 8192 })).toBe(false);
    expect(workerBusy(cls, { activePrefillTokens: 101, maxBatchedTokens: 8192 })).toBe(true);
    const frac: ClassConfig = { name: 'f', quantum: 1, queuePolicy: 'fcfs', prefillBusyThresholdFrac: 0.5 };
    expect(workerBusy(frac, { activePrefillTokens: 4096, maxBatchedTokens: 8192 })).toBe(false);
    expect(workerBusy(frac, { activePrefillTokens: 4097, maxBatchedTokens: 8192 })).toBe(true);
    const none: ClassConfig = { name: 'n', quantum: 1, queuePolicy: 'fcfs' };
    expect(workerBusy(none, { activePrefillTokens: 1e12, maxBatchedTokens: 1 })).toBe(false);
  });

  it('pool busy: all eligible busy, or busy count >= ratio * eligible; no eligible -> not busy', () => {
    const busy = { activePrefillTokens: 500, maxBatchedTokens: 8192 };
    const idle = { activePrefillTokens: 0, maxBatchedTokens: 8192 };
    expect(poolBusy(cls, [])).toBe(false);
    expect(poolBusy(cls, [busy, busy, idle])).toBe(false);
    expect(poolBusy(cls, [busy, busy, busy])).toBe(true);
    const ratio = { ...cls, busyWorkerRatio: 0.6 };
    expect(poolBusy(ratio, [busy, idle, idle])).toBe(false); // 1 < 1.8
    expect(poolBusy(ratio, [busy, busy, idle])).toBe(true); // 2 >= 1.8
    expect(poolBusy(ratio, [busy])).toBe(true); // a pinned request: its worker alone
  });

  it('queueing is enabled only when some class has a threshold', () => {
    expect(new PolicyQueue(explicitPolicy([['a', 1]])).queueingEnabled()).toBe(false);
    expect(new PolicyQueue(oneClass({ prefillBusyThresholdFrac: 2 })).queueingEnabled()).toBe(true);
    expect(new PolicyQueue(null).queueingEnabled()).toBe(false);
  });
});

describe('queue limits (checked before adding, scaled by workers)', () => {
  it('request count, then raw tokens, then cached tokens', () => {
    const q = new PolicyQueue<null>(
      oneClass({
        requestQueueLimitPerWorker: 2,
        rawIslTokenQueueLimitPerWorker: 1000,
        cachedTokenQueueLimitPerWorker: 300,
      }),
      { workers: 2 },
    );
    const add = (id: string, rawIsl: number, cachedTokens = 0) =>
      q.enqueue({ id, requestedClass: 'c', rawIsl, cachedTokens, payload: null });
    expect(add('a', 1500, 500).accepted).toBe(true); // empty class: every current is 0
    expect(add('b', 600, 50).accepted).toBe(true); // raw 1500 < 2000 before adding
    const raw = add('c', 10);
    expect(raw).toMatchObject({
      accepted: false,
      reason: 'raw_isl_token_queue_limit',
      current: 2100,
      limit: 2000,
    });
    const q3 = new PolicyQueue<null>(oneClass({ cachedTokenQueueLimitPerWorker: 300 }), { workers: 2 });
    expect(q3.enqueue({ id: 'x', rawIsl: 700, cachedTokens: 600, payload: null }).accepted).toBe(true);
    expect(q3.enqueue({ id: 'y', rawIsl: 1, cachedTokens: 0, payload: null })).toMatchObject({
      accepted: false,
      reason: 'cached_token_queue_limit',
      current: 600,
      limit: 600,
    });
    const r = add('d', 1);
    expect(r.accepted).toBe(false);
    expect(q.size()).toBe(2);
    expect(q.hasBacklog(r.ref)).toBe(true);
  });

  it('request count comes first and saturates nothing at normal sizes', () => {
    const q = new PolicyQueue<null>(
      oneClass({ requestQueueLimitPerWorker: 1, rawIslTokenQueueLimitPerWorker: 0 }),
    );
    const r = q.enqueue({ id: 'x', requestedClass: 'c', rawIsl: 1, cachedTokens: 0, payload: null });
    expect(r).toMatchObject({ accepted: false, reason: 'raw_isl_token_queue_limit', current: 0, limit: 0 });
    const q2 = new PolicyQueue<null>(
      oneClass({ requestQueueLimitPerWorker: 0, rawIslTokenQueueLimitPerWorker: 0 }),
    );
    expect(q2.enqueue({ id: 'x', rawIsl: 1, cachedTokens: 0, payload: null })).toMatchObject({
      reason: 'request_queue_limit',
    });
  });
});
