/**
 * Per-client round-robin (the DLPM paper's VTC baseline with several workers): each client's own
 * requests cycle over the workers, so every client spreads its load evenly whatever the others do.
 * Client i starts at worker i mod N, so the clients' first requests do not all land on worker 0.
 */
import type { PendingRequest, RouteChoice, RouterPolicy } from '../../router/router-policy';

/** What a snapshot shows of per-client round-robin: each client's next worker, by client index. */
export interface PerClientRoundRobinState {
  next_worker_by_client: number[];
}

export class PerClientRoundRobinRouter implements RouterPolicy {
  readonly name = 'per-client-rr';
  /** Next worker per client index (grown on demand for clients that only send scripted requests). */
  private next: number[] = [];

  constructor(private readonly workers: number) {}

  route(req: PendingRequest): RouteChoice {
    const c = req.client;
    while (this.next.length <= c) this.next.push(this.next.length % this.workers);
    const worker = this.next[c];
    this.next[c] = (worker + 1) % this.workers;
    return { worker, why: `next in turn for ${req.spec.client}` };
  }

  describe(): PerClientRoundRobinState {
    return { next_worker_by_client: [...this.next] };
  }
}
