/** The step-time and memory model of one GPU replica (public surface of src/core/cost). */
export { type GpuProfile, GPUS, GPU_IDS, MFU_CALIBRATION, MEM_BW_EFFICIENCY, STEP_OVERHEAD_MS } from './gpus';
export {
  type ModelProfile,
  MODELS,
  MODEL_IDS,
  headDim,
  linearParams,
  headParams,
  weightBytes,
  weightBytesReadPerStep,
} from './models';
export {
  type StepShape,
  type StepBreakdown,
  stepTimeS,
  StepCost,
  stepBreakdown,
  prefillTimeS,
  decodeShape,
} from './roofline';
export { kvBytesPerToken, kvCapacityTokens, GPU_MEMORY_UTILISATION } from './capacity';
export {
  A100_MEASURED,
  CALIBRATION_DECODE_CONTEXT,
  calibrationResults,
  type CalibrationRow,
} from './calibration';
export { costModelTable } from './table';
