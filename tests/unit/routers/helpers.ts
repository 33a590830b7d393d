/** A hand-built ClusterView for pinning router choices without running the engine. */
import { Rng } from '../../../src/core/prng';
import type { ClusterView, RouterWorkerView } from '../../../src/core/router/router-policy';
import { SimRequest } from '../../../src/core/sim/request';
import { RadixCache } from '../../../src/core/replica/radix-cache';

export const range = (from: number, n: number) => Int32Array.from({ length: n }, (_, i) => from + i);
export const concat = (...parts: Int32Array[]) => Int32Array.from(parts.flatMap((p) => [...p]));

let serial = 0;
/** A request of client index `client` (named c<client>). */
export function req(id: string, tokens: Int32Array, client = 0, out = 8): SimRequest {
  return new SimRequest(
    { id, client: `c${client}`, tokens, outputTokens: out, sloClass: 'standard', program: id, node: 'n' },
    client,
    serial++,
    0,
  );
}

export interface FakeWorker {
  id: number;
  waitingCount: number;
  runningCount: number;
  activePrefillTokens: number;
  maxBatchTokens: number;
  maxRunning: number;
  radix: RadixCache;
  kv: { freeBlocks: number; totalBlocks: number };
}

export function fakeWorker(
  id: number,
  o: Partial<Omit<FakeWorker, 'id' | 'radix'>> = {},
  block = 4,
): FakeWorker {
  return {
    id,
    waitingCount: o.waitingCount ?? 0,
    runningCount: o.runningCount ?? 0,
    activePrefillTokens: o.activePrefillTokens ?? 0,
    maxBatchTokens: o.maxBatchTokens ?? 1000,
    maxRunning: o.maxRunning ?? 8,
    radix: new RadixCache(block),
    kv: o.kv ?? { freeBlocks: 1000, totalBlocks: 1000 },
  };
}

export interface FakeView extends ClusterView {
  workers: FakeWorker[];
  now: number;
}

export function view(workers: FakeWorker[], seed = 1, recording = true): FakeView {
  return {
    now: 0,
    workers,
    rng: new Rng(seed),
    recording,
    overlap(r: SimRequest, w: number): number {
      const wk: RouterWorkerView = workers[w];
      const max = Math.floor((r.promptLen - 1) / wk.radix.blockSize) * wk.radix.blockSize;
      return wk.radix.matchLength(r.tokens, max);
    },
  };
}

/** The worker of a route answer (throws on hold). */
export function chosen(c: { worker: number } | { hold: true }): number {
  if ('hold' in c) throw new Error('held');
  return c.worker;
}

/** Policy classes the release tests share (A and C busy at any booked prefill token, bg never). */
export const RELEASE_CLASSES = `      - {name: x, policy_family: std, cache_bucket: any, quantum: 1000, prefill_busy_threshold: 0}
      - {name: bg, quantum: 1000}
      - {name: A, quantum: 1000, prefill_busy_threshold: 0}
      - {name: B, quantum: 300, prefill_busy_threshold: 256}
      - {name: C, quantum: 2000, prefill_busy_threshold: 0}`;

/**
 * A scenario text for the release tests: scripted `requests` (YAML list lines) on `workers` FCFS
 * workers behind a least-loaded router with a policy queue of `classes` under `release`.
 */
export function releaseScenarioText(o: {
  name: string;
  release: string;
  workers: number;
  duration: number;
  requests: string;
  classes?: string;
}): string {
  return `version: 1
name: ${o.name}
seed: 1
duration_s: ${o.duration}
cluster: { workers: ${o.workers}, kv_cache_tokens: 60000, max_batch_tokens: 1024, max_running: 16 }
router:
  routing: least-loaded
  dynamo_release: ${o.release}
  policy:
    default_policy_family: std
    uncached_isl_buckets: [{min_tokens: 0, bucket: any}]
    policy_classes:
${o.classes ?? RELEASE_CLASSES}
scheduler: { policy: fcfs }
requests:
${o.requests}`;
}
