/**
 * DoubleQ (seed 002, Algorithm 2): the distributed half of DLPM. The router keeps a deficit q_{i,w}
 * for every (client i, worker w) pair, with worker quantum Q^w (`router.worker_quantum`), and a global
 * prefix tree of dispatched prompts.
 *
 * For a request of client i:
 *   1. G = the workers holding the longest prefix of the prompt in the global tree;
 *   2. G_avail = the workers with q_{i,w} > 0; while it is empty, every q_{i,w} gets Q^w (done in one
 *      go: the fewest whole refills that make some deficit positive);
 *   3. if G ∩ G_avail is non-empty, the worker there with the smallest queue (locality within credit),
 *      else the smallest-queue worker of G_avail (credit wins over locality). Ties: lowest id. The
 *      paper's listing swaps the two returns; this is the rule its text describes.
 * At dispatch q_{i,w} −= w_e · input tokens (`router.charge: input`, the default: Algorithm 2 line 16
 * charges r.input_tokens, cached or not; `charge: extend` charges only the tokens the global tree does
 * not hold for w) and the prompt enters the tree for w; at completion
 * q_{i,w} −= w_q · output tokens; when a worker's cache evicts a branch, the tree forgets it for that
 * worker. Queue size = requests waiting or running at the worker. The workers run DLPM locally.
 */
import type { SimRequest } from '../../sim/request';
import type { ClusterView, PendingRequest, RouteChoice, RouterPolicy } from '../../router/router-policy';
import type { TokenSeq } from '../../replica/radix-cache';
import { GlobalPrefixTree } from '../shared/global-prefix-tree';
import type { DoubleQDispatchDetail } from './detail';

export interface DoubleQOptions {
  workers: number;
  clients: readonly string[];
  workerQuantum: number;
  weightInput: number;
  weightOutput: number;
  /** What dispatch charges: the whole prompt (Algorithm 2) or the part w does not hold. */
  charge?: 'input' | 'extend';
}

/** Whole refills of Q^w needed before some deficit in `q[from .. from + n)` is positive. */
export function refillsNeeded(q: Float64Array, from: number, n: number, quantum: number): number {
  let k = Number.POSITIVE_INFINITY;
  for (let w = 0; w < n; w++) {
    const d = q[from + w];
    const need = d > 0 ? 0 : Math.floor(-d / quantum) + 1;
    if (need < k) k = need;
  }
  return k;
}

/** What a snapshot shows of DoubleQ routing: Q^w, the charge rule, q_{i,w} and refills per client. */
export interface DoubleQState {
  worker_quantum: number;
  charge: 'input' | 'extend';
  /** Client name -> its deficit at each worker (q_{i,w}). */
  deficits: Record<string, number[]>;
  /** Client name -> how many times its deficits were refilled. */
  refills: Record<string, number>;
  global_tree_pages: number;
}

export class DoubleQRouter implements RouterPolicy {
  readonly name = 'doubleq';
  readonly workers: number;
  readonly workerQuantum: number;
  private readonly wIn: number;
  private readonly wOut: number;
  readonly charge: 'input' | 'extend';
  private clients: string[];
  /** q_{i,w} at [i · workers + w]; grows when a client first appears. */
  private q: Float64Array;
  private tree: GlobalPrefixTree | null = null;
  /** Total refills handed out per client (for the UI). */
  private refillCount: number[];

  constructor(o: DoubleQOptions) {
    this.workers = o.workers;
    this.workerQuantum = o.workerQuantum;
    this.wIn = o.weightInput;
    this.wOut = o.weightOutput;
    this.charge = o.charge ?? 'input';
    this.clients = [...o.clients];
    this.q = new Float64Array(Math.max(1, this.clients.length) * o.workers);
    this.refillCount = this.clients.map(() => 0);
  }

  /** Make room for a client index first seen now (clients that only send scripted requests). */
  private ensureClient(req: PendingRequest): void {
    const c = req.client;
    if (c < this.clients.length) return;
    while (this.clients.length <= c) {
      this.clients.push(this.clients.length === c ? req.spec.client : `client-${this.clients.length}`);
      this.refillCount.push(0);
    }
    const q = new Float64Array(this.clients.length * this.workers);
    q.set(this.q.subarray(0, Math.min(this.q.length, q.length)));
    this.q = q;
  }

  /** The global tree, created on first use with the workers' page size. */
  globalTree(view: ClusterView): GlobalPrefixTree {
    if (this.tree === null) this.tree = new GlobalPrefixTree(this.workers, view.workers[0].radix.blockSize);
    return this.tree;
  }

  route(req: PendingRequest, view: ClusterView): RouteChoice {
    this.ensureClient(req);
    const n = this.workers;
    const base = req.client * n;
    const q = this.q;
    const tree = this.globalTree(view);
    const pages = req.pages(tree.blockSize);
    const match = tree.match(pages);
    const G = match.holders;
    const refills = refillsNeeded(q, base, n, this.workerQuantum);
    if (refills > 0) {
      const add = refills * this.workerQuantum;
      for (let w = 0; w < n; w++) q[base + w] += add;
      this.refillCount[req.client] += refills;
    }
    const ws = view.workers;
    const size = (w: number) => ws[w].waitingCount + ws[w].runningCount;
    let local = -1;
    for (const w of G) if (q[base + w] > 0 && (local < 0 || size(w) < size(local))) local = w;
    let chosen = local;
    if (chosen < 0)
      for (let w = 0; w < n; w++) if (q[base + w] > 0 && (chosen < 0 || size(w) < size(chosen))) chosen = w;
    if (!view.recording) return { worker: chosen };
    const Gavail: number[] = [];
    const deficits: Record<number, number> = {};
    for (let w = 0; w < n; w++) {
      if (q[base + w] > 0) Gavail.push(w);
      deficits[w] = q[base + w];
    }
    const detail: DoubleQDispatchDetail = {
      algo: 'doubleq',
      request: req.id,
      client: req.spec.client,
      matched_tokens: match.length,
      g: G,
      g_avail: Gavail,
      refills,
      worker_quantum: this.workerQuantum,
      chosen,
      charge: this.charge,
      charged_tokens:
        this.charge === 'input' ? req.promptLen : req.promptLen - tree.heldLength(pages, chosen),
      queue_lens: ws.map((_, w) => size(w)),
      deficits,
    };
    return {
      worker: chosen,
      why:
        local >= 0
          ? `holds the longest prefix (${match.length} tokens) and ${req.spec.client} has credit there`
          : `${req.spec.client} has no credit on a prefix holder: shortest queue with credit`,
      detail,
    };
  }

  onDispatch(req: PendingRequest, worker: number, view: ClusterView): void {
    this.ensureClient(req);
    const tree = this.globalTree(view);
    const pages = req.pages(tree.blockSize);
    const charged = this.charge === 'input' ? req.promptLen : req.promptLen - tree.heldLength(pages, worker);
    this.q[req.client * this.workers + worker] -= this.wIn * charged;
    tree.insert(pages, worker);
  }

  onComplete(req: SimRequest, worker: number): void {
    this.ensureClient(req);
    this.q[req.client * this.workers + worker] -= this.wOut * req.outputLen;
  }

  onEvict(worker: number, path: TokenSeq, depth: number): void {
    this.tree?.evict(path, depth, worker);
  }

  /** q_{i,w} of client `i` at worker `w`. */
  deficit(client: number, worker: number): number {
    return this.q[client * this.workers + worker] ?? 0;
  }

  clientDeficits(client: number): number[] {
    return Array.from({ length: this.workers }, (_, w) => this.deficit(client, w));
  }

  describe(): DoubleQState {
    const deficits: Record<string, number[]> = {};
    this.clients.forEach((c, i) => {
      deficits[c] = Array.from(this.q.subarray(i * this.workers, (i + 1) * this.workers));
    });
    const refills: Record<string, number> = {};
    this.clients.forEach((c, i) => {
      refills[c] = this.refillCount[i];
    });
    return {
      worker_quantum: this.workerQuantum,
      charge: this.charge,
      deficits,
      refills,
      global_tree_pages: this.tree?.pageCount ?? 0,
    };
  }
}
