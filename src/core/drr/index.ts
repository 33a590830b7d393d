/**
 * Public API of the router's policy-class queues (Dynamo's DRR arbitration). Pure TypeScript: runs in
 * Node, in a Web Worker and in tests.
 */
export type * from './types';
export { PolicyQueue, type PolicyQueueOptions } from './policy-queue';
export { poolBusy, workerBusy, hasBusyThreshold, type WorkerLoad } from './busy';
export { requestCost } from './cost';
export {
  profileList,
  indexProfile,
  profileIndexFor,
  resolveClassIndex,
  bucketIndexFor,
  type ProfileIndex,
} from './classify';
export { policyScore, goesFirst, type OrderKey } from './order';
export { ClassHeap } from './class-heap';
export { checkQueueLimits, type ClassLoad, type LimitVerdict } from './queue-limits';
export {
  syntheticDefaultProfile,
  DEFAULT_CLASS_NAME,
  DEFAULT_PROFILE_NAME,
  ROOT_PROFILE_NAME,
} from './default-policy';
export type { Dispatchable } from './pop-next';
export {
  ArbitrationSession,
  runScript,
  outputLineJson,
  scriptProfileIndex,
  totalSteps,
  type StepResult,
  type SessionSnapshot,
  type QueuedView,
} from './script-runner';
export { UINT_MAX, satAdd, satSub, satMul, ceilDiv } from './saturating';
