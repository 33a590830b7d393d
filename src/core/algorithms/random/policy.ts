/** Random: every request goes to a worker drawn uniformly from the router's own seeded stream. */
import type { ClusterView, RouteChoice, RouterPolicy } from '../../router/router-policy';

export class RandomRouter implements RouterPolicy {
  readonly name = 'random';

  route(_req: unknown, view: ClusterView): RouteChoice {
    const worker = view.rng.int(view.workers.length);
    return { worker, why: 'uniform draw' };
  }
}
