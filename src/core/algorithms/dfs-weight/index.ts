/** DFS-weight (SGLang): a depth-first walk of the radix cache, heaviest branch first. */
import { defineScheduler } from '../descriptor';
import { createDfsWeight } from './policy';

export type { DfsWeightDetail } from './policy';

export const dfsWeight = defineScheduler({
  name: 'dfs-weight',
  summary: 'depth-first walk of the radix cache, heaviest branch first (SGLang)',
  params: {},
  // the walk visits the radix tree's branches that hold waiting requests: all of them each step
  walkedPerStep: (_params, waiting) => waiting,
  create: () => createDfsWeight(),
});
