/** Export of a run: CSV of per-request records and time series, and the whole run as JSON. Pure text builders. */
export { toCsv, csvField, columnsOf, type CsvValue } from './csv';
export {
  requestsCsv,
  requestRecord,
  REQUEST_COLUMNS,
  type RequestRecord,
  type SimRequestLike,
} from './requests';
export { seriesCsv, type SeriesTable } from './series';
export { runToJson, RUN_EXPORT_FORMAT, RUN_EXPORT_VERSION } from './json';
export { snapshotV1, type ExportedRunSnapshot } from './snapshot-v1';
export { traceRecordV1 } from './trace-v1';
export { clientTraceInfo, type TraceReplayInfo, traceInfoKeys, traceReplayInfo } from './trace-info';
