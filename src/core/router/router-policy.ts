/**
 * The plug-in point for router policies: which worker gets a request. Each one (round-robin, random,
 * least-loaded, pull, per-client round-robin, Preble, DoubleQ, the KV-aware router, ...) lives in its
 * own folder under src/core/algorithms/ and is registered by the descriptor list there.
 *
 * `route` sees the request (never its true output length) and a read-only view of the cluster:
 * per-worker loads and each worker's prefix overlap with the request. It answers with a worker, or
 * `hold` for late binding (a `pull` router): held requests stay in the router, in order, and are
 * offered again whenever a worker finishes a step.
 */
import type { RouteDecisionDetail } from '../algorithms/details';
import type { GpuProfile, ModelProfile } from '../cost';
import type { Rng } from '../prng';
import type { SimRequest } from '../sim/request';
import type { RadixCache, TokenSeq } from '../replica/radix-cache';
import type { RequestSpec } from '../workload/types';

/**
 * A request as a router may see it before it completes: everything but its true output length (no
 * real router knows how long the answer will be). The compiler enforces it: `route` and `onDispatch`
 * take this type, and reading `outputLen` or `spec.outputTokens` through it does not compile.
 */
export type PendingRequest = Omit<SimRequest, 'outputLen' | 'spec'> & {
  readonly spec: Omit<RequestSpec, 'outputTokens'>;
};

/** What a router may know about one worker. */
export interface RouterWorkerView {
  readonly id: number;
  readonly waitingCount: number;
  readonly runningCount: number;
  /** Σ remaining prefill tokens of requests assigned to the worker (Dynamo's busy signal). */
  readonly activePrefillTokens: number;
  readonly maxBatchTokens: number;
  readonly maxRunning: number;
  readonly radix: RadixCache;
  readonly kv: { readonly freeBlocks: number; readonly totalBlocks: number };
}

export interface ClusterView {
  readonly now: number;
  readonly workers: readonly RouterWorkerView[];
  /** Tokens of `req`'s prompt cached at worker `w` (whole pages; computed once per request and worker). */
  overlap(req: PendingRequest, w: number): number;
  /** The router's own random stream (seeded, forked from the scenario seed). */
  readonly rng: Rng;
  /** Decision records are being built (a policy may skip building `detail` otherwise). */
  readonly recording: boolean;
}

export type RouteChoice =
  | { worker: number; why?: string; detail?: RouteDecisionDetail }
  | { hold: true; why?: string };

export interface RouterPolicy {
  readonly name: string;
  // (function-typed properties, not methods: TypeScript then checks an implementation's parameter
  // strictly, so a policy cannot widen `PendingRequest` back to `SimRequest`)
  route: (req: PendingRequest, view: ClusterView) => RouteChoice;
  /** The request was handed to `worker` (after `route`, or after a policy-queue pop). */
  onDispatch?: (req: PendingRequest, worker: number, view: ClusterView) => void;
  /** A request finished on `worker`: its output length is known now (DoubleQ charges it here). */
  onComplete?: (req: SimRequest, worker: number, view: ClusterView) => void;
  /**
   * Worker `worker`'s prefix cache evicted the branch that starts after the first `depth` tokens of
   * `path` (`path` holds those tokens and the branch's first page, as page fingerprints).
   * Routers that keep a global prefix tree (Preble, DoubleQ) prune it here.
   */
  onEvict?(worker: number, path: TokenSeq, depth: number): void;
  /** Client `client`'s deficit at each worker, when the router keeps one per pair (DoubleQ's q_{i,w}). */
  clientDeficits?(client: number): number[];
}

/** What a router factory receives; `P` is the algorithm's own parameters (its folder's zod shape). */
export interface RouterPolicyConfig<P = unknown> {
  workers: number;
  clients: readonly string[];
  weights: { input: number; output: number };
  /** The workers' hardware and model (for cost predictions such as Preble's prefill-time load). */
  gpu?: GpuProfile;
  model?: ModelProfile;
  /** The algorithm's parameters from the scenario's `router` section, defaults applied. */
  params: P;
}
