/** Preble's E2 placement: exploit a held prefix or explore, by load. */
import { z } from 'zod';
import { num } from '../../zod-fields';
import { defineRouting } from '../descriptor';
import { explainPreblePlacement } from './explain';
import { PREBLE_WINDOW_S, PrebleRouter } from './policy';

export type { PreblePlacementDetail } from './detail';

export const preble = defineRouting({
  name: 'preble',
  summary:
    'exploit the workers holding more than half of the prompt, else explore; least loaded by predicted prefill and decode time (Preble E2)',
  params: {
    preble_rebalance: z.boolean({ error: 'preble_rebalance must be true or false' }).default(true).meta({
      description:
        'preble: move new work off the heaviest worker when it exceeds preble_imbalance × the lightest (default true).',
    }),
    preble_imbalance: num('preble_imbalance', 1, 100).default(1.5).meta({
      description: 'preble: load ratio heaviest / lightest that triggers rebalancing (default 1.5).',
    }),
    preble_load: z
      .enum(['time', 'tokens'], { error: "preble_load must be 'time' or 'tokens'" })
      .default('time')
      .meta({
        description:
          "preble: how a worker's load is estimated. 'time' (default, Preble's): predicted prefill time of the tokens each request dispatched in the window missed, plus outstanding requests × max_new_tokens × the worker's measured TPOT. 'tokens': missed tokens in the window plus running requests × the median output length (the simulator's earlier estimate).",
      }),
    preble_window_s: num('preble_window_s', 0, 86_400, true)
      .default(PREBLE_WINDOW_S)
      .meta({
        description: `preble: how far back dispatched prefill work counts toward a worker's load, seconds (default ${PREBLE_WINDOW_S}: Preble's 3-minute window).`,
      }),
  },
  state: (p) => (p instanceof PrebleRouter ? p.describe() : undefined),
  create: (cfg) =>
    new PrebleRouter({
      workers: cfg.workers,
      rebalance: cfg.params.preble_rebalance,
      imbalance: cfg.params.preble_imbalance,
      load: cfg.params.preble_load,
      windowS: cfg.params.preble_window_s,
      ...(cfg.gpu ? { gpu: cfg.gpu } : {}),
      ...(cfg.model ? { model: cfg.model } : {}),
    }),
  explain: (d) => (d.algo === 'preble' ? explainPreblePlacement(d) : null),
});
