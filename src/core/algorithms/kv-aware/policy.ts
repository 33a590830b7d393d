/**
 * KV-aware routing in the style of Dynamo's KV router: every worker gets a score
 *
 *   score = overlap_weight · (prompt blocks already cached there) − load,
 *   load  = active prefill tokens / block size + decode blocks (KV held privately by running requests),
 *
 * and the request goes to the highest score (ties: lowest worker id). The overlap is whole pages of
 * the worker's own radix cache, the same number the router uses as `cached_tokens` when it classifies
 * the request for the policy-class queues.
 */
import type {
  ClusterView,
  PendingRequest,
  RouteChoice,
  RouterPolicy,
  RouterWorkerView,
} from '../../router/router-policy';

/** What a KV-aware dispatch records. */
export interface KvAwareDetail {
  algo: 'kv-aware';
  overlap_weight: number;
  /** Per worker: prompt blocks already cached there. */
  overlap_blocks: number[];
  /** Per worker: active prefill tokens / block size + decode blocks. */
  loads: number[];
  scores: number[];
  chosen: number;
}

/** Blocks of KV a worker holds outside its prefix tree (running requests' private blocks). */
export function decodeBlocks(w: RouterWorkerView): number {
  return Math.max(0, w.kv.totalBlocks - w.kv.freeBlocks - w.radix.cachedBlocks);
}

/** What a snapshot shows of the KV-aware router: the weight of prefix overlap against load. */
export interface KvAwareState {
  overlap_weight: number;
}

export class KvAwareRouter implements RouterPolicy {
  readonly name = 'kv-aware';

  constructor(private readonly overlapWeight: number) {}

  route(req: PendingRequest, view: ClusterView): RouteChoice {
    const ws = view.workers;
    const n = ws.length;
    let best = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    const rec = view.recording;
    const scores: number[] = [];
    const overlaps: number[] = [];
    const loads: number[] = [];
    for (let i = 0; i < n; i++) {
      const w = ws[i];
      const b = w.radix.blockSize;
      const overlapBlocks = view.overlap(req, i) / b;
      const load = w.activePrefillTokens / b + decodeBlocks(w);
      const score = this.overlapWeight * overlapBlocks - load;
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
      if (rec) {
        scores.push(score);
        overlaps.push(overlapBlocks);
        loads.push(load);
      }
    }
    if (!rec) return { worker: best };
    return {
      worker: best,
      why: `best score ${bestScore.toFixed(1)} (overlap ${overlaps[best]} blocks, load ${loads[best].toFixed(1)} blocks)`,
      detail: {
        algo: 'kv-aware',
        overlap_weight: this.overlapWeight,
        overlap_blocks: overlaps,
        loads,
        scores,
        chosen: best,
      } satisfies KvAwareDetail,
    };
  }

  describe(): KvAwareState {
    return { overlap_weight: this.overlapWeight };
  }
}
