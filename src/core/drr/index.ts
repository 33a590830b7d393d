/**
 * Public API of the router's policy-class queues (Dynamo's DRR arbitration). Pure TypeScript: runs in
 * Node, in a Web Worker and in tests.
 *
 * - `PolicyQueue<T>`: classify (`resolve`), admit with queue limits (`enqueue`), arbitrate (`pop`
 *   with a DrrPopRecord, or the allocation-free `popRequest`), inspect (`snapshot`, `classQueue`,
 *   `hasBacklog`, `queueingEnabled`, `size`). One DRR ring per profile: index 0 is the root profile
 *   (or the synthetic `default` class), then the model profiles in declaration order.
 * - `poolBusy` / `workerBusy`: the dispatchability test a router passes to `pop`.
 * - `ArbitrationSession` / `runScript` / `outputLineJson`: the DRR sandbox behind `arbitrate` and the
 *   playground's step-by-step view.
 * - Types of the policy file as written (`PolicyFile`) and compiled (`CompiledPolicy`); the YAML
 *   parser that produces them lives in src/policy.
 */
export type * from './types';
export { PolicyQueue, type PolicyQueueOptions } from './policy-queue';
export { poolBusy, workerBusy, hasBusyThreshold, type WorkerLoad } from './busy';
export { requestCost } from './cost';
export {
  DYNAMO_RELEASE_ORDER,
  releaseAtLeast,
  sweepsDueTimes,
  hasLanes,
  storesEveryArrival,
  neverQueues,
  recheckIntervalS,
  nextRecheckTick,
  recheckFaults,
  ROUTER_QUEUE_RECHECK_S,
  BOOKING_EXPIRY_S,
  BOOKING_CHECK_GATE_S,
  BOOKING_SWEEP_S,
  expiresBookingsByAge,
  bookingExpiryFaults,
  dueSweepFaults,
} from './release';
export {
  profileList,
  indexProfile,
  profileIndexFor,
  resolveClassIndex,
  bucketIndexFor,
  explainResolution,
  type ClassResolution,
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
  playgroundSession,
  scriptProfileIndex,
  totalSteps,
  type StepResult,
  type ArbitrationSnapshot,
} from './script-runner';
export {
  type QueuedRequestView,
  type DrrStateSnapshot,
  type LastPop,
  queuedRequestView,
} from './queued-view';
export { UINT_MAX, satAdd, satSub, satMul, ceilDiv } from './saturating';
