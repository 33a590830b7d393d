/** FCFS: arrival order, head-of-line (vLLM's default). The scheduler a scenario gets by default. */
import { defineScheduler } from '../descriptor';
import { ArrivalPrioritizer } from '../shared/prioritizer';
import { FcfsPolicy } from './policy';

export const fcfs = defineScheduler({
  name: 'fcfs',
  summary: 'arrival order; stops at the first request that does not fit',
  params: {},
  create: () => new FcfsPolicy(),
  prioritizer: () => new ArrivalPrioritizer(),
});
