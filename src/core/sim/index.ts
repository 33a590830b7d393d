/**
 * Public API of the simulation engine. The UI's Web Worker and the CLI construct a `Simulation` from
 * a validated Scenario; algorithms plug in through the LocalPolicy and RouterPolicy registries.
 */
export { Simulation, SimConfigError, configProblem, type SimOptions, type RunOptions } from './simulation';
export type { DecisionRecord, DecisionKind, DecisionDetail } from './decision';
export type { SimSnapshot, ClientSnapshot, WorkerSnapshot } from './snapshot';
export type { DrrStateSnapshot, QueuedRequestView, LastPop } from '../drr/queued-view';
export type { GuaranteeSnapshot, GuaranteePair, GuaranteeViolationView } from '../metrics/guarantee';
export type { RunResult } from './result';
export type { SimScenario } from '../input';
export { SimRequest, ReqState } from './request';
export { EventQueue } from './event-queue';
export type {
  LocalPolicy,
  LocalPolicyConfig,
  AdmissionContext,
  AdmitOutcome,
  WorkerView,
} from '../replica/local-policy';
export type {
  RouterPolicy,
  RouterPolicyConfig,
  RouteChoice,
  ClusterView,
  RouterWorkerView,
} from '../router/router-policy';
export {
  SCHEDULER_ALGORITHMS,
  ROUTING_ALGORITHMS,
  SCHEDULER_NAMES,
  ROUTING_NAMES,
  createLocalPolicy,
  createRouterPolicy,
  localPolicyProblem,
  routerPolicyProblem,
} from '../algorithms/index';
