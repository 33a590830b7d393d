/**
 * Preble's E2 placement (exploit or explore) over the router's global prefix tree.
 *
 * A request whose longest prefix held by some worker covers more than half of its prompt *exploits*:
 * it goes to the least-loaded worker among those holding that prefix. Otherwise it *explores*: the
 * least-loaded worker overall. Ties go to the lowest worker id.
 *
 * Load of a worker, in prefill-token units: the prefill work it was recently given — the uncached
 * (missed) tokens of every request dispatched to it in the last `WINDOW_S` simulated seconds, so
 * prefixes that hit often weigh little and those that miss weigh fully — plus its running requests
 * times the median decode length of completed requests (`DECODE_WEIGHT` prefill tokens per decode
 * token). With `router.preble_rebalance` (default on), an exploit choice that is the heaviest worker
 * while the heaviest exceeds `preble_imbalance` (default 1.5) × the lightest goes to the lightest
 * instead.
 */
import type { SimRequest } from '../../sim/request';
import { Deque } from '../../replica/deque';
import type { ClusterView, PendingRequest, RouteChoice, RouterPolicy } from '../../router/router-policy';
import { GlobalPrefixTree } from '../shared/global-prefix-tree';
import type { PreblePlacementDetail } from './detail';

/** How far back dispatched prefill work counts toward a worker's load, simulated seconds. */
export const WINDOW_S = 60;
/** Prefill tokens one decode token is worth in the load estimate. */
export const DECODE_WEIGHT = 1;
/** Median decode length assumed before any request completed, tokens. */
export const DEFAULT_DECODE_TOKENS = 128;
/** Completed output lengths kept for the running median. */
const MEDIAN_WINDOW = 101;

export interface PrebleOptions {
  workers: number;
  rebalance: boolean;
  imbalance: number;
}

export class PrebleRouter implements RouterPolicy {
  readonly name = 'preble';
  private readonly workers: number;
  private readonly rebalance: boolean;
  private readonly imbalance: number;
  private tree: GlobalPrefixTree | null = null;
  /** Per worker: (dispatch time, missed tokens) in time order, and their running sum. */
  private readonly recent: Deque<[number, number]>[];
  private readonly recentSum: Float64Array;
  private readonly outputs: number[] = [];
  private outputsHead = 0;
  private medianCache = DEFAULT_DECODE_TOKENS;
  private medianDirty = false;
  private exploits = 0;
  private explores = 0;
  private rebalances = 0;

  constructor(o: PrebleOptions) {
    this.workers = o.workers;
    this.rebalance = o.rebalance;
    this.imbalance = o.imbalance;
    this.recent = Array.from({ length: o.workers }, () => new Deque<[number, number]>());
    this.recentSum = new Float64Array(o.workers);
  }

  private globalTree(view: ClusterView): GlobalPrefixTree {
    if (this.tree === null) this.tree = new GlobalPrefixTree(this.workers, view.workers[0].radix.blockSize);
    return this.tree;
  }

  /** Median output length of recently completed requests (the decode-time estimate). */
  medianDecodeTokens(): number {
    if (!this.medianDirty) return this.medianCache;
    const xs = [...this.outputs].sort((a, b) => a - b);
    this.medianCache = xs[(xs.length - 1) >> 1];
    this.medianDirty = false;
    return this.medianCache;
  }

  /** Every worker's load at `now` (drops dispatches older than the window). */
  loads(view: ClusterView): number[] {
    const decode = this.medianDecodeTokens() * DECODE_WEIGHT;
    const out: number[] = [];
    for (let w = 0; w < this.workers; w++) {
      const d = this.recent[w];
      while (d.size > 0 && d.at(0)[0] < view.now - WINDOW_S) this.recentSum[w] -= d.popFront()![1];
      if (d.size === 0) this.recentSum[w] = 0; // no float residue once the window is empty
      out.push(this.recentSum[w] + view.workers[w].runningCount * decode);
    }
    return out;
  }

  route(req: PendingRequest, view: ClusterView): RouteChoice {
    const match = this.globalTree(view).match(req.tokens);
    const frac = req.promptLen > 0 ? match.length / req.promptLen : 0;
    const exploit = frac > 0.5 && match.holders.length > 0;
    const loads = this.loads(view);
    const argmin = (ws: Iterable<number>) => {
      let best = -1;
      for (const w of ws) if (best < 0 || loads[w] < loads[best]) best = w;
      return best;
    };
    const all = loads.map((_, i) => i);
    let chosen = exploit ? argmin(match.holders) : argmin(all);
    let rebalanced = false;
    if (exploit && this.rebalance) {
      const light = argmin(all);
      let heavy = 0;
      for (let w = 1; w < loads.length; w++) if (loads[w] > loads[heavy]) heavy = w;
      if (chosen === heavy && light !== heavy && loads[heavy] > this.imbalance * loads[light]) {
        chosen = light;
        rebalanced = true;
      }
    }
    if (exploit) this.exploits++;
    else this.explores++;
    if (rebalanced) this.rebalances++;
    if (!view.recording) return { worker: chosen };
    const detail: PreblePlacementDetail = {
      algo: 'preble',
      request: req.id,
      mode: exploit ? 'exploit' : 'explore',
      matchedFraction: frac,
      matchedTokens: match.length,
      promptTokens: req.promptLen,
      holders: match.holders,
      loads,
      chosen,
      rebalanced,
    };
    return {
      worker: chosen,
      why: rebalanced
        ? `exploit, but the holder is the heaviest worker: rebalanced to the lightest`
        : exploit
          ? `exploit: ${(frac * 100).toFixed(0)}% of the prompt cached; least loaded holder`
          : `explore: ${(frac * 100).toFixed(0)}% cached; least loaded worker`,
      detail,
    };
  }

  onDispatch(req: PendingRequest, worker: number, view: ClusterView): void {
    const tree = this.globalTree(view);
    const miss = req.promptLen - tree.heldLength(req.tokens, worker);
    this.recent[worker].pushBack([view.now, miss]);
    this.recentSum[worker] += miss;
    tree.insert(req.tokens, worker);
  }

  onComplete(req: SimRequest): void {
    if (this.outputs.length < MEDIAN_WINDOW) this.outputs.push(req.outputLen);
    else {
      this.outputs[this.outputsHead] = req.outputLen;
      this.outputsHead = (this.outputsHead + 1) % MEDIAN_WINDOW;
    }
    this.medianDirty = true;
  }

  onEvict(worker: number, path: Int32Array, depth: number): void {
    this.tree?.evict(path, depth, worker);
  }

  describe(): Record<string, unknown> {
    return {
      exploits: this.exploits,
      explores: this.explores,
      rebalances: this.rebalances,
      recent_prefill_tokens: Array.from(this.recentSum),
      median_decode_tokens: this.medianDecodeTokens(),
      global_tree_pages: this.tree?.pageCount ?? 0,
    };
  }
}
