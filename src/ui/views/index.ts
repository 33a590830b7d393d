/**
 * The playground's views. Each takes the current snapshot (core/snapshot.ts: a cluster run's
 * SimSnapshot or the DRR sandbox's SandboxSnapshot, as the worker sent it) and an optional highlight
 * from the selected decision, and renders a labelled region named as in the UI contract.
 */
import './views.css';

export type { Highlight, ViewProps } from './types';
export {
  AlgorithmSteps,
  algorithmDetail,
  latestStepDecision,
  runListings,
  type StepDecision,
} from './AlgorithmSteps';
export { ClassQueues } from './ClassQueues';
export { ClassService } from './ClassService';
export { ClientService } from './ClientService';
export { DrrRing } from './DrrRing';
export { Figures } from './Figures';
export { Guarantees } from './Guarantees';
export { Workers } from './Workers';
export { colorFor, colorVarFor, PALETTE_SIZE } from './palette';
