/** VTC, the Virtual Token Counter (Sheng et al., OSDI'24): the client with the least service first. */
import { defineScheduler } from '../descriptor';
import { explainVtcAdmit } from './explain';
import { VtcPolicy } from './policy';

export type { VtcAdmitDetail } from './detail';

export const vtc = defineScheduler({
  name: 'vtc',
  summary: 'the waiting client with the smallest virtual token counter first, head-of-line (VTC)',
  params: {},
  create: (cfg) => new VtcPolicy(cfg),
  explain: (d) => (d.algo === 'vtc' ? explainVtcAdmit(d) : null),
  bound: { label: 'VTC', theorem: 'VTC service bound', shape: 'vtc' },
});
