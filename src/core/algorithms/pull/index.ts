/** Pull (Vajra's replica-set scheduler): one shared queue; a worker takes the next request when it has room. */
import { defineRouting } from '../descriptor';
import { PullRouter } from './policy';

export type { PullDetail } from './policy';

export const pull = defineRouting({
  name: 'pull',
  summary:
    "one shared queue in the scheduler's prioritizer order; a worker with room takes the next request (Vajra)",
  params: {},
  state: (p) => (p instanceof PullRouter ? p.describe() : undefined),
  create: () => new PullRouter(),
});
