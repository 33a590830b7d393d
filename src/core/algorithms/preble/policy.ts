/**
 * Preble's E2 placement (exploit or explore) over the router's global prefix tree, with Preble's load.
 *
 * A request whose longest prefix held by some worker covers more than half of its prompt *exploits*:
 * it goes to the least-loaded worker among those holding that prefix. Otherwise it *explores*: the
 * least-loaded worker overall. Ties go to the lowest worker id.
 *
 * Load (`router.preble_load`), as Preble's global scheduler (`global_scheduler_with_time.py`) computes
 * it, in seconds of GPU time:
 *   - `time` (default): prefill — over the requests dispatched to the worker in the last
 *     `preble_window_s` seconds (Preble's sliding window: 3 minutes), the predicted time to prefill
 *     the tokens each one missed in the global tree (Preble: a prefix node's windowed miss rate ×
 *     its request count × its prefill time; summed per request here, which is the same sum when a
 *     node's requests are alike); plus decode — every request outstanding at the worker (dispatched,
 *     not finished) × its max_new_tokens (what Preble reads from the request's sampling parameters) ×
 *     the worker's TPOT, the median of the last 200 measured (Preble seeds the list with 0.15 s).
 *     Prefill times come from the step-time model of the cluster's GPU and model.
 *   - `tokens`: the simulator's earlier estimate, in prefill tokens: the missed tokens of the requests
 *     dispatched in the window plus running requests × the median output of completed ones.
 * With `router.preble_rebalance` (default on), an exploit choice that is the heaviest worker while
 * the heaviest exceeds `preble_imbalance` (default 1.5, Preble's HIGH_LOAD_THRESHOLD) × the lightest
 * goes to the lightest instead (Preble moves whole prefix nodes to the lightest worker; here the one
 * request moves).
 */
import type { SimRequest } from '../../sim/request';
import { type GpuProfile, GPUS, MODELS, type ModelProfile, prefillTimeS } from '../../cost';
import { Deque } from '../../replica/deque';
import type { ClusterView, PendingRequest, RouteChoice, RouterPolicy } from '../../router/router-policy';
import type { TokenSeq } from '../../replica/radix-cache';
import { GlobalPrefixTree } from '../shared/global-prefix-tree';
import type { PreblePlacementDetail } from './detail';

/** Preble's sliding window over recent dispatches, simulated seconds (timedelta(minutes=3)). */
export const PREBLE_WINDOW_S = 180;
/** TPOT Preble assumes before any measurement, seconds (its avg_topt_per_gpu seed). */
export const PREBLE_SEED_TPOT_S = 0.15;
/** Measured TPOTs kept per worker (deque maxlen 200). */
export const TPOT_WINDOW = 200;
/** Prefill tokens one decode token is worth in the `tokens` load estimate. */
export const DECODE_WEIGHT = 1;
/** Median decode length assumed before any request completed, tokens (`tokens` load). */
export const DEFAULT_DECODE_TOKENS = 128;
/** Completed output lengths kept for the running median (`tokens` load). */
const MEDIAN_WINDOW = 101;

export type PrebleLoad = 'time' | 'tokens';

export interface PrebleOptions {
  workers: number;
  rebalance: boolean;
  imbalance: number;
  /** Default 'time'. */
  load?: PrebleLoad;
  /** Default PREBLE_WINDOW_S. */
  windowS?: number;
  /** For prefill-time predictions (default A100-80GB, Llama-3.1-8B). */
  gpu?: GpuProfile;
  model?: ModelProfile;
}

/** Median of a list (the mean of the middle two when even, as numpy's median). */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return 0;
  return n % 2 === 1 ? s[(n - 1) >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** What a snapshot shows of Preble's router: its load measure, placement counts and load inputs. */
export interface PrebleState {
  load: PrebleLoad;
  window_s: number;
  exploits: number;
  explores: number;
  rebalances: number;
  /** Per worker: prefill cost placed within the window. */
  recent_prefill: number[];
  /** `time` load: per worker, outstanding max_new_tokens and the median TPOT (s). */
  outstanding_max_new_tokens?: number[];
  tpot_s?: number[];
  /** `tokens` load: the median decode length it assumes per running request. */
  median_decode_tokens?: number;
  global_tree_pages: number;
}

export class PrebleRouter implements RouterPolicy {
  readonly name = 'preble';
  private readonly workers: number;
  private readonly rebalance: boolean;
  private readonly imbalance: number;
  readonly load: PrebleLoad;
  readonly windowS: number;
  private readonly gpu: GpuProfile;
  private readonly model: ModelProfile;
  private tree: GlobalPrefixTree | null = null;
  /** Per worker: (dispatch time, prefill cost) in time order, and their running sum. */
  private readonly recent: Deque<[number, number]>[];
  private readonly recentSum: Float64Array;
  /** `time`: Σ max_new_tokens of the requests outstanding at each worker. */
  private readonly outstandingTokens: Float64Array;
  /** `time`: the last TPOT_WINDOW measured TPOTs per worker (seeded), and their median. */
  private readonly tpots: number[][];
  private readonly tpotMedian: Float64Array;
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
    this.load = o.load ?? 'time';
    this.windowS = o.windowS ?? PREBLE_WINDOW_S;
    this.gpu = o.gpu ?? GPUS['a100-80gb'];
    this.model = o.model ?? MODELS['llama-3.1-8b'];
    this.recent = Array.from({ length: o.workers }, () => new Deque<[number, number]>());
    this.recentSum = new Float64Array(o.workers);
    this.outstandingTokens = new Float64Array(o.workers);
    this.tpots = Array.from({ length: o.workers }, () => [PREBLE_SEED_TPOT_S]);
    this.tpotMedian = new Float64Array(o.workers).fill(PREBLE_SEED_TPOT_S);
  }

  private globalTree(view: ClusterView): GlobalPrefixTree {
    if (this.tree === null) this.tree = new GlobalPrefixTree(this.workers, view.workers[0].radix.blockSize);
    return this.tree;
  }

  /** Median output length of recently completed requests (the `tokens` decode estimate). */
  medianDecodeTokens(): number {
    if (!this.medianDirty) return this.medianCache;
    const xs = [...this.outputs].sort((a, b) => a - b);
    this.medianCache = xs[(xs.length - 1) >> 1];
    this.medianDirty = false;
    return this.medianCache;
  }

  /** Worker `w`'s TPOT estimate (`time` load): the median of its last measured TPOTs. */
  tpot(w: number): number {
    return this.tpotMedian[w];
  }

  /** Drop dispatches older than the window; the windowed prefill part of worker `w`'s load. */
  private prefillPart(w: number, now: number): number {
    const d = this.recent[w];
    while (d.size > 0 && d.at(0)[0] < now - this.windowS) this.recentSum[w] -= d.popFront()![1];
    if (d.size === 0) this.recentSum[w] = 0; // no float residue once the window is empty
    return this.recentSum[w];
  }

  /** Every worker's load at `now`, with its prefill and decode parts. */
  loadParts(view: ClusterView): { loads: number[]; prefill: number[]; decode: number[] } {
    const loads: number[] = [];
    const prefill: number[] = [];
    const decode: number[] = [];
    const perRunning = this.load === 'tokens' ? this.medianDecodeTokens() * DECODE_WEIGHT : 0;
    for (let w = 0; w < this.workers; w++) {
      const p = this.prefillPart(w, view.now);
      const d =
        this.load === 'time'
          ? this.outstandingTokens[w] * this.tpotMedian[w]
          : view.workers[w].runningCount * perRunning;
      prefill.push(p);
      decode.push(d);
      loads.push(p + d);
    }
    return { loads, prefill, decode };
  }

  /** Every worker's load at `now` (drops dispatches older than the window). */
  loads(view: ClusterView): number[] {
    return this.loadParts(view).loads;
  }

  route(req: PendingRequest, view: ClusterView): RouteChoice {
    const tree = this.globalTree(view);
    const match = tree.match(req.pages(tree.blockSize));
    const frac = req.promptLen > 0 ? match.length / req.promptLen : 0;
    const exploit = frac > 0.5 && match.holders.length > 0;
    const parts = this.loadParts(view);
    const loads = parts.loads;
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
      matched_fraction: frac,
      matched_tokens: match.length,
      prompt_len: req.promptLen,
      holders: match.holders,
      loads,
      chosen,
      rebalanced,
      load_kind: this.load,
      prefill_loads: parts.prefill,
      decode_loads: parts.decode,
      window_s: this.windowS,
      ...(this.load === 'time' ? { tpots: Array.from(this.tpotMedian) } : {}),
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
    const pages = req.pages(tree.blockSize);
    const held = tree.heldLength(pages, worker);
    const miss = req.promptLen - held;
    const cost = this.load === 'time' ? prefillTimeS(this.gpu, this.model, miss, held) : miss;
    this.recent[worker].pushBack([view.now, cost]);
    this.recentSum[worker] += cost;
    this.outstandingTokens[worker] += req.maxNewTokens;
    tree.insert(pages, worker);
  }

  onComplete(req: SimRequest, worker: number, view: ClusterView): void {
    if (worker >= 0 && worker < this.workers) {
      this.outstandingTokens[worker] -= req.maxNewTokens;
      if (this.outstandingTokens[worker] < 0.5) this.outstandingTokens[worker] = 0;
      // Preble records a finished request's TPOT when it produced more than one token
      const end = Number.isNaN(req.completionT) ? view.now : req.completionT;
      if (req.outputLen > 1 && !Number.isNaN(req.firstTokenT)) {
        const list = this.tpots[worker];
        list.push((end - req.firstTokenT) / (req.outputLen - 1));
        if (list.length > TPOT_WINDOW) list.shift();
        this.tpotMedian[worker] = median(list);
      }
    }
    if (this.outputs.length < MEDIAN_WINDOW) this.outputs.push(req.outputLen);
    else {
      this.outputs[this.outputsHead] = req.outputLen;
      this.outputsHead = (this.outputsHead + 1) % MEDIAN_WINDOW;
    }
    this.medianDirty = true;
  }

  onEvict(worker: number, path: TokenSeq, depth: number): void {
    this.tree?.evict(path, depth, worker);
  }

  describe(): PrebleState {
    return {
      load: this.load,
      window_s: this.windowS,
      exploits: this.exploits,
      explores: this.explores,
      rebalances: this.rebalances,
      recent_prefill: Array.from(this.recentSum),
      ...(this.load === 'time'
        ? {
            outstanding_max_new_tokens: Array.from(this.outstandingTokens),
            tpot_s: Array.from(this.tpotMedian),
          }
        : { median_decode_tokens: this.medianDecodeTokens() }),
      global_tree_pages: this.tree?.pageCount ?? 0,
    };
  }
}
