/** Request traces: the columnar table parsers fill, and its replay as a workload. */
export * from './types';
export { TraceBuilder, MAX_TRACE_CLIENTS, type TraceRow } from './builder';
export {
  TraceWorkload,
  clientTraceSource,
  type TraceSource,
  type BlockSpace,
  traceTokens,
  selectRows,
  traceSpanS,
  isTraceRequestId,
} from './workload';
