/**
 * One CSV record (RFC 4180 quoting: "a ""quoted"", field"), split into fields. Records spanning
 * lines are not supported (trace files have none); an unterminated quote is an error.
 */
export function splitCsvLine(line: string): string[] | string {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  for (;;) {
    if (line.charCodeAt(i) === 34) {
      let field = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return 'unterminated quoted field';
        field += line.slice(i, q);
        if (line.charCodeAt(q + 1) === 34) {
          field += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      out.push(field);
      if (i >= n) return out;
      if (line.charCodeAt(i) !== 44) return `expected ',' after a quoted field at column ${i + 1}`;
      i++;
    } else {
      const c = line.indexOf(',', i);
      if (c < 0) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, c));
      i = c + 1;
    }
    if (i === n) {
      out.push('');
      return out;
    }
  }
}

/**
 * The 1-based column where each field of a CSV record starts (after its leading blanks), for
 * messages that point at a field; read as `splitCsvLine` reads the record (a quoted field's column
 * is its opening quote's).
 */
export function csvFieldColumns(line: string): number[] {
  const cols: number[] = [];
  let i = 0;
  for (;;) {
    let s = i;
    while (line.charCodeAt(s) === 32 || line.charCodeAt(s) === 9) s++;
    cols.push(s + 1);
    if (line.charCodeAt(s) === 34) {
      // a quoted field: skip to its closing quote ("" is a quote inside it)
      let q = s + 1;
      for (;;) {
        q = line.indexOf('"', q);
        if (q < 0) return cols;
        if (line.charCodeAt(q + 1) === 34) q += 2;
        else break;
      }
      i = q + 1;
    }
    const c = line.indexOf(',', i);
    if (c < 0) return cols;
    i = c + 1;
  }
}

/** "2023-11-16 18:15:46.6805900" (or with 'T', optional 'Z' / ±hh:mm) → seconds since 1970 (UTC). */
export function parseDateTime(s: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
    s.trim(),
  );
  if (m === null) return null;
  const [, y, mo, d, h, mi, sec, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(sec) > 60)
    return null;
  let t = Date.UTC(Number(y), month - 1, day, Number(h), Number(mi), Number(sec)) / 1000;
  if (frac) t += Number(`0${frac}`);
  if (zone && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    t -= sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2)) * 60);
  }
  return t;
}
