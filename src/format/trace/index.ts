/** Request-trace files (Mooncake JSONL, Azure / BurstGPT / mapped CSV) → a core TraceTable. */
export {
  TraceReader,
  readTraceText,
  formatTraceProblems,
  type TraceColumns,
  type TraceFormatChoice,
  type TraceProblem,
  type TraceReadOptions,
  type TraceReadResult,
  type TimeUnit,
} from './reader';
export { splitCsvLine, parseDateTime } from './csv-line';
