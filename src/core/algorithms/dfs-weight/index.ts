/** DFS-weight (SGLang): a depth-first walk of the radix cache, heaviest branch first. */
import { defineScheduler } from '../descriptor';
import { createDfsWeight } from './policy';

export type { DfsWeightDetail } from './policy';

export const dfsWeight = defineScheduler({
  name: 'dfs-weight',
  summary: 'depth-first walk of the radix cache, heaviest branch first (SGLang)',
  params: {},
  // No walk of the queue per step: the weights, the order and what SGLang's kept list says about
  // ties are kept live under the radix cache's changes (./live-policy.ts), O(depth · log n) per
  // request whose match moved. Declared (as 0)
  // because, as LPM's, the requests whose match moved are re-read from their page fingerprints,
  // which they then keep while they wait: the run estimate charges those bytes for every order
  // that declares this.
  walkedPerStep: () => 0,
  create: () => createDfsWeight(),
});
