/**
 * CSV text as RFC 4180 describes it: comma-separated fields, CRLF line ends, and a field quoted
 * (with inner quotes doubled) exactly when it holds a comma, a quote, CR or LF. Columns come in a
 * stable order: the given list, or every key in the order rows first mention it.
 */

export type CsvValue = string | number | boolean | null | undefined;

/** One field as text: empty for null/undefined/NaN, shortest round-trip form for numbers. */
export function csvField(v: CsvValue): string {
  if (v === null || v === undefined) return '';
  let s: string;
  if (typeof v === 'number') s = Number.isNaN(v) ? '' : Object.is(v, -0) ? '0' : String(v);
  else if (typeof v === 'boolean') s = v ? 'true' : 'false';
  else s = v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Every key of the rows, in the order the rows first mention them. */
export function columnsOf(rows: readonly Readonly<Record<string, CsvValue>>[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of rows)
    for (const k of Object.keys(r))
      if (!seen.has(k)) {
        seen.add(k);
        out.push(k);
      }
  return out;
}

/** A header line and one line per row; a missing key gives an empty field. */
export function toCsv(
  rows: readonly Readonly<Record<string, CsvValue>>[],
  columns?: readonly string[],
): string {
  const cols = columns ?? columnsOf(rows);
  const lines = [cols.map(csvField).join(',')];
  for (const r of rows) lines.push(cols.map((c) => csvField(r[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
