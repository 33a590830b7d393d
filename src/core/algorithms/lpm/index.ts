/** LPM (SGLang): longest cached prefix first. */
import { defineScheduler } from '../descriptor';
import { fcfsFallbackShape, prefixOrderWalk } from '../shared/prefix-order';
import { createLpm } from './policy';

export type { LpmDetail } from './policy';

export const lpm = defineScheduler({
  name: 'lpm',
  summary: 'longest cached prefix first; stops at the first request that does not fit (SGLang)',
  params: fcfsFallbackShape,
  walkedPerStep: prefixOrderWalk,
  create: (cfg) => createLpm(cfg.params.lpm_fcfs_fallback),
});
