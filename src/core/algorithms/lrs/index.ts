/** LRS (Vajra): least remaining slack first. */
import { defineScheduler } from '../descriptor';
import { explainLrs } from './explain';
import { LrsPrioritizer } from '../shared/prioritizer';
import { deadlineParams, deadlineShape } from '../shared/deadline';
import { LrsPolicy } from './policy';

export type { LrsDetail } from './policy';

export const lrs = defineScheduler({
  name: 'lrs',
  summary: 'least remaining slack first, slack = (arrival + D − now − remaining prefill) / D (Vajra)',
  params: deadlineShape,
  create: (cfg) => new LrsPolicy(deadlineParams(cfg.params)),
  explain: (d) => (d.algo === 'lrs' ? explainLrs(d) : null),
  prioritizer: (p, cost) => new LrsPrioritizer(deadlineParams(p), cost),
});
