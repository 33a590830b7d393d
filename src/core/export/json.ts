/**
 * The current run as one JSON document: the result (the CLI's `--json` object) and the snapshot
 * the playground shows, plus anything the caller adds (scenario text, request records, series).
 * Typed arrays become plain arrays; NaN and infinities become null, as JSON requires.
 */

export const RUN_EXPORT_FORMAT = 'fairground-run';
export const RUN_EXPORT_VERSION = 1;

function plain(_key: string, value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView))
    return Array.from(value as unknown as ArrayLike<number>);
  if (typeof value === 'bigint') return Number(value);
  return value;
}

export function runToJson(
  result: unknown,
  snapshot: unknown,
  extra: Readonly<Record<string, unknown>> = {},
): string {
  const doc = { format: RUN_EXPORT_FORMAT, version: RUN_EXPORT_VERSION, result, snapshot, ...extra };
  return `${JSON.stringify(doc, plain, 2)}\n`;
}
