/** Round-robin: the i-th routed request goes to worker i mod N, whatever the loads and caches. */
import type { RouteChoice, RouterPolicy } from '../../router/router-policy';

/** What a snapshot shows of round-robin routing: the worker the next request goes to. */
export interface RoundRobinState {
  next_worker: number;
}

export class RoundRobinRouter implements RouterPolicy {
  readonly name = 'round-robin';
  private next = 0;

  constructor(private readonly workers: number) {}

  route(): RouteChoice {
    const worker = this.next;
    this.next = (this.next + 1) % this.workers;
    return { worker, why: 'next in turn' };
  }

  describe(): RoundRobinState {
    return { next_worker: this.next };
  }
}
