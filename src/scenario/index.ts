/** The scenario file format: schema, parsing with positions, overrides, JSON Schema, detection. */
export {
  ScenarioSchema,
  ScenarioInputSchema,
  ROUTINGS,
  SCHEDULER_POLICIES,
  type Scenario,
  type ScenarioInput,
  type ClientSpec,
  type ScriptedRequest,
  type ClusterSpec,
  type RouterSpec,
  type SchedulerSpec,
  type ProgramSpec,
  type ProgramType,
  type ArrivalSpec,
  type Distribution,
  type Length,
  type LengthInput,
  type Routing,
  type SchedulerPolicy,
  switchRouting,
  switchScheduler,
} from './schema';
export {
  parseScenarioText,
  traceReadingsOf,
  parseScenarioValue,
  validateScenario,
  type ParseScenarioOptions,
} from './parse';
export {
  applyOverrides,
  applyOverridesToValue,
  formatProblem,
  type Override,
  overrideOf,
  overrideTarget,
  parseKeyPath,
} from './overrides';
export { isScenarioDoc } from './detect';
export { outlineOf, type DocumentOutline } from './outline';
export { scenarioJsonSchema } from './json-schema';
export { SCENARIO_LIMITS } from './limits';
export {
  budgetProblem,
  CLI_BUDGET,
  estimateRun,
  policyClassCount,
  queuedBytesPerToken,
  PAGE_BUDGET,
  type RunBudget,
  type RunEstimate,
} from './estimate';
export { meanOf, maxOf } from '../core/workload/lengths';
