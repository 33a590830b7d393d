/** Public surface of the workload generator (clients, arrival processes, programs, token stand-ins). */
export * from './types';
export { createWorkload, createRunner, prefixNamespace, ScenarioWorkload } from './workload';
export { createArrivalProcess, expectedArrivals, gapSampler, type ArrivalProcess } from './arrival-process';
export { sampleTokens, sampleSeconds } from './lengths';
export {
  outputTokenIds,
  fullContext,
  buildTokens,
  streamKey,
  tokenAt,
  writeStream,
  outputLabel,
  type Piece,
  type StreamKey,
} from './tokens';
export { scriptedEvents, scriptedRequest, scriptedId } from './scripted';
export { treeSize } from './programs/tree-of-thought';
export { programRequests, expectedRequests } from './size';
