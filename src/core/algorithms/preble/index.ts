/** Preble's E2 placement: exploit a held prefix or explore, by load. */
import { z } from 'zod';
import { num } from '../../zod-fields';
import { defineRouting } from '../descriptor';
import { explainPreblePlacement } from './explain';
import { PrebleRouter } from './policy';

export type { PreblePlacementDetail } from './detail';

export const preble = defineRouting({
  name: 'preble',
  summary: 'exploit the workers holding more than half of the prompt, else explore; least loaded (Preble E2)',
  params: {
    preble_rebalance: z.boolean({ error: 'preble_rebalance must be true or false' }).default(true).meta({
      description:
        'preble: move new work off the heaviest worker when it exceeds preble_imbalance × the lightest (default true).',
    }),
    preble_imbalance: num('preble_imbalance', 1, 100).default(1.5).meta({
      description: 'preble: load ratio heaviest / lightest that triggers rebalancing (default 1.5).',
    }),
  },
  create: (cfg) =>
    new PrebleRouter({
      workers: cfg.workers,
      rebalance: cfg.params.preble_rebalance,
      imbalance: cfg.params.preble_imbalance,
    }),
  explain: (d) => (d.algo === 'preble' ? explainPreblePlacement(d) : null),
});
