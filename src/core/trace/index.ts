/** Request traces: the columnar table parsers fill, and its replay as a workload. */
export * from './types';
export { TraceBuilder, MAX_TRACE_CLIENTS, type TraceRow } from './builder';
export { TracePrompt, TraceRequestSpec, traceTokens } from './prompt';
export {
  TraceWorkload,
  clientTraceSource,
  replayOptionsOf,
  type TraceSource,
  type BlockSpace,
  selectRows,
  traceSpanS,
  traceClientNames,
  selectClientProblem,
  isTraceRequestId,
} from './workload';
