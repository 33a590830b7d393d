/** Request-trace files (Mooncake JSONL, Azure / BurstGPT / mapped CSV) → a core TraceTable. */
export {
  TraceReader,
  readTraceText,
  readingKey,
  sameReading,
  formatTraceProblems,
  moreProblemsMessage,
  traceProblemSpot,
  MAX_TRACE_FILE_BYTES,
  MAX_COLUMN_NAME_CHARS,
  type TraceColumns,
  type TraceFormatChoice,
  type TraceProblem,
  type TraceReadOptions,
  type TraceReadResult,
  type TimeUnit,
} from './reader';
export { splitCsvLine, csvFieldColumns, parseDateTime } from './csv-line';
