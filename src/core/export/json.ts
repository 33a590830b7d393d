/**
 * The current run as one JSON document: the result (the CLI's `--json` object) and the snapshot
 * the playground shows (with the version 1 field names, see snapshot-v1.ts), plus anything the
 * caller adds (scenario text, request records, series). Typed arrays become plain arrays; NaN and
 * infinities become null, as JSON requires.
 */
import { type ExportedRunSnapshot, snapshotV1 } from './snapshot-v1';

export const RUN_EXPORT_FORMAT = 'fairground-run';
export const RUN_EXPORT_VERSION = 1;

/** Typed arrays of numbers (every kind but the bigint ones). */
const NUMBER_ARRAYS = [
  Float64Array,
  Float32Array,
  Int32Array,
  Uint32Array,
  Int16Array,
  Uint16Array,
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
] as const;

type NumberArray = InstanceType<(typeof NUMBER_ARRAYS)[number]>;

function isNumberArray(value: unknown): value is NumberArray {
  return NUMBER_ARRAYS.some((kind) => value instanceof kind);
}

function plain(_key: string, value: unknown): unknown {
  if (isNumberArray(value)) return Array.from(value);
  if (value instanceof BigInt64Array || value instanceof BigUint64Array) return Array.from(value, Number);
  if (typeof value === 'bigint') return Number(value);
  return value;
}

export function runToJson(
  result: unknown,
  run: ExportedRunSnapshot | null,
  extra: Readonly<Record<string, unknown>> = {},
): string {
  const snapshot = run === null ? null : snapshotV1(run);
  const doc = { format: RUN_EXPORT_FORMAT, version: RUN_EXPORT_VERSION, result, snapshot, ...extra };
  return `${JSON.stringify(doc, plain, 2)}\n`;
}
