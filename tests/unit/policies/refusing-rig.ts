/**
 * A policy over a bare radix cache, for hand-made order cases (LPM's and DFS-weight's ties): every
 * try is refused (no KV), so a step sorts or walks the queue and leaves it whole, and the tries are
 * listed.
 */
import { expect } from 'vitest';
import type { AdmissionContext, LocalPolicy, WorkerView } from '../../../src/core/replica/local-policy';
import { RadixCache } from '../../../src/core/replica/radix-cache';
import type { SimRequest } from '../../../src/core/sim/request';
import { Harness } from './harness';

/** Tokens per radix page in these cases. */
export const RIG_BLOCK = 4;

export function refusingRig(use: LocalPolicy) {
  const radix = new RadixCache(RIG_BLOCK);
  const worker = { id: 0, now: 0, radix, deferSharedPrefixes: false } as unknown as WorkerView;
  const maker = new Harness({ policy: 'fcfs' });
  const tried: string[] = [];
  const ctx = {
    worker,
    slotsLeft: 8,
    budgetLeft: 8192,
    recording: false,
    tryAdmit(req: SimRequest) {
      tried.push(req.id);
      return 'no-kv' as const;
    },
  } as AdmissionContext;
  let t = 0;
  return {
    radix,
    tried,
    add(id: string, tokens: Int32Array) {
      use.enqueue(maker.request({ id, client: 'a', tokens, out: 4 }, t), worker, false);
    },
    /** One step's admission: the queue is ordered (sorted or walked), its head tried and refused. */
    step() {
      use.admit(ctx);
    },
    /** Cache `tokens` (a new leaf, or a split); the node their insertion ends in. */
    cache(tokens: Int32Array) {
      return radix.insert(tokens, tokens.length, ++t).node;
    },
    /** Evict exactly `tokens` tokens' worth of leaves, least recently used first. */
    evict(tokens: number) {
      expect(radix.evict(tokens / RIG_BLOCK)).toBe(tokens / RIG_BLOCK);
    },
    order: () => use.waiting(10).map((r) => r.id),
  };
}
