/** EDF (Vajra): earliest absolute deadline first. */
import { defineScheduler } from '../descriptor';
import { explainEdf } from './explain';
import { EdfPrioritizer } from '../shared/prioritizer';
import { deadlineParams, deadlineShape } from '../shared/deadline';
import { createEdf } from './policy';

export type { EdfDetail } from './policy';

export const edf = defineScheduler({
  name: 'edf',
  summary:
    'earliest deadline first, deadline = arrival + max(multiplier × predicted prefill, minimum) (Vajra)',
  params: deadlineShape,
  create: (cfg) => createEdf(deadlineParams(cfg.params)),
  explain: (d) => (d.algo === 'edf' ? explainEdf(d) : null),
  prioritizer: (p, cost) => new EdfPrioritizer(deadlineParams(p), cost),
});
