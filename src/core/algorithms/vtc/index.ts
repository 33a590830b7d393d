/** VTC, the Virtual Token Counter (Sheng et al., OSDI'24): the client with the least service first. */
import { z } from 'zod';
import { defineScheduler } from '../descriptor';
import { explainVtcAdmit } from './explain';
import { VtcPolicy } from './policy';

export type { VtcAdmitDetail } from './detail';

export const vtc = defineScheduler({
  name: 'vtc',
  summary: 'the waiting client with the smallest virtual token counter first, head-of-line (VTC)',
  params: {
    charge: z
      .enum(['input', 'extend'], { error: "charge must be 'input' or 'extend'" })
      .default('input')
      .meta({
        description:
          "vtc: what admission charges to the client's counter: 'input' (default) w_e × the whole prompt, as the VTC artifact does; 'extend' w_e × the uncached part only (the DLPM paper's system-view cost).",
      }),
  },
  state: (p) => (p instanceof VtcPolicy ? p.describe() : undefined),
  create: (cfg) => new VtcPolicy(cfg, cfg.params.charge),
  explain: (d) => (d.algo === 'vtc' ? explainVtcAdmit(d) : null),
  bound: { label: 'VTC', theorem: 'VTC service bound', shape: 'vtc' },
});
