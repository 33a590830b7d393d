/**
 * Streaming trace parser: feed the file's text in chunks of any size (`push`), then `end()`. Lines
 * are parsed one at a time into a columnar TraceTable (src/core/trace), so a 100 MB file is never held
 * as one string. Formats:
 *
 * - `mooncake`: JSON lines `{"timestamp": ms, "input_length", "output_length", "hash_ids": [...]}`;
 * - `azure`: CSV `TIMESTAMP,ContextTokens,GeneratedTokens` (Azure LLM inference traces; date-times);
 * - `burstgpt`: CSV `Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type` (seconds;
 *   `Model` becomes the request's model);
 * - `csv`: any CSV with a header, read through a column mapping (timestamp, input, output and the
 *   optional client, model, class columns) and a time unit.
 *
 * `auto` picks Mooncake when the first non-blank line starts with '{', else by the CSV header.
 * A malformed line becomes a problem `{line, col, message}` (the caller prints
 * `file:line:col: message`, the column of the value that is wrong, or 1 for the whole line);
 * parsing goes on so that every bad line is reported (the first 50 in full, the rest counted).
 */
import { MAX_TRACE_CLIENTS, TraceBuilder, type TraceFormat, type TraceTable } from '../../core/trace';
import { csvFieldColumns, parseDateTime, splitCsvLine } from './csv-line';

export type TraceFormatChoice = TraceFormat | 'auto';
export type TimeUnit = 's' | 'ms' | 'us' | 'datetime';

export interface TraceColumns {
  timestamp?: string;
  input?: string;
  output?: string;
  client?: string;
  model?: string;
  class?: string;
}

export interface TraceReadOptions {
  format?: TraceFormatChoice;
  /** CSV column names (overrides the layout's; required for `csv`). */
  columns?: TraceColumns;
  /** How the timestamp column reads (default: ms for Mooncake, datetime for Azure, s otherwise). */
  timeUnit?: TimeUnit;
  /** Tokens per prefix block (Mooncake: 512). */
  blockTokens?: number;
  /** Longest prompt or output accepted, tokens. */
  maxTokens?: number;
  /** Most rows read (a guard for the browser; default 5,000,000). */
  maxRows?: number;
}

export interface TraceProblem {
  /** 1-based line of the file; 0: the file as a whole (it could not be read). */
  line: number;
  /** 1-based column in that line of what is wrong (1: the line as a whole); absent means 1. */
  col?: number;
  message: string;
  /**
   * The reading option at fault, when it is the reader's `columns[role]` naming a column the header
   * does not have: the mistake is in the scenario's `columns`, not in the file.
   */
  column?: keyof TraceColumns;
}

export type TraceReadResult =
  | { ok: true; value: TraceTable }
  | {
      ok: false;
      problems: TraceProblem[];
      /** Problems past the MAX_REPORTED listed, not kept. */
      more: number;
      /** Where the first of those is. */
      moreFrom?: TraceProblem;
      /**
       * A CSV whose header is no known layout and names no column for a role: its header's fields,
       * so the page can ask which column is which (the command line says to give trace.columns).
       */
      csvHeader?: string[];
      /** With `csvHeader`: how many fields the header has (it lists at most the first 200). */
      csvColumns?: number;
    };

/**
 * Whether a table read with `had` (its detected format `format`) is what reading with `want` gives:
 * the same columns, time unit, block size and token cap, and the same format (`auto` matches a table
 * read with `auto`, or one whose detected format `want` names). A dropped file is read once; a
 * scenario that reads it otherwise (a `time_unit`, `columns`) must not replay the other reading.
 */
export function sameReading(had: TraceReadOptions, format: string, want: TraceReadOptions): boolean {
  if (readingKey({ ...had, format: 'auto' }) !== readingKey({ ...want, format: 'auto' })) return false;
  const a = had.format ?? 'auto';
  const b = want.format ?? 'auto';
  return a === b || b === format;
}

/** Reading options as one comparable string: equal strings read a file the same way. */
export function readingKey(o: TraceReadOptions): string {
  const cols = Object.entries(o.columns ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, String(v).trim().toLowerCase()])
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([
    o.format ?? 'auto',
    cols,
    o.timeUnit ?? null,
    o.blockTokens ?? DEFAULT_BLOCK_TOKENS,
    o.maxTokens ?? DEFAULT_MAX_TOKENS,
  ]);
}

/**
 * Where a problem is, as `:line:col` after the file's name (`:1:1` for the file as a whole), the
 * command line's `file:line:col: message` shape.
 */
export function traceProblemSpot(p: TraceProblem): string {
  return p.line > 0 ? `:${p.line}:${Math.max(1, p.col ?? 1)}` : ':1:1';
}

/**
 * The line that counts the problems left out of a list: at the first of them, so that it too reads
 * `file:line:col: message` (the CLI tryout found it unlocated).
 */
export function moreProblemsLine(file: string, more: number, from: TraceProblem): string {
  return `${file}${traceProblemSpot(from)}: ${moreProblemsMessage(more)}`;
}

/** What that line says. */
export function moreProblemsMessage(more: number): string {
  return `… and ${more} more problem${more === 1 ? '' : 's'} from here on (the first ${MAX_REPORTED} are listed)`;
}

/** `file:line:col: message` lines, with a last line counting what was left out. */
export function formatTraceProblems(
  file: string,
  problems: readonly TraceProblem[],
  more = 0,
  moreFrom: TraceProblem = { line: 0, message: '' },
): string {
  // (line 0: the file as a whole, `:1:1`)
  const lines = problems.map((p) => `${file}${traceProblemSpot(p)}: ${p.message}`);
  if (more > 0) lines.push(moreProblemsLine(file, more, moreFrom));
  return lines.join('\n');
}

const MAX_REPORTED = 50;
/** Header fields offered when the page asks which column is which. */
const MAX_HEADER_FIELDS = 200;
/** Longest column name `columns` may give (the scenario format's `trace.columns` cap). */
export const MAX_COLUMN_NAME_CHARS = 200;

/**
 * Longest line read, in characters (a Mooncake line for a 128k-token prompt is about 2 KB). Past it
 * the file is not a trace (a binary file, a file of NULs): reading stops with a message, instead of
 * gathering the whole file as one line (#15.2).
 */
export const MAX_TRACE_LINE_CHARS = 1_000_000;
/** Tokens per prefix block when the options give none (Mooncake's). */
const DEFAULT_BLOCK_TOKENS = 512;
/** Longest prompt or output accepted when the options give no cap, tokens. */
const DEFAULT_MAX_TOKENS = 1_000_000;

/**
 * Largest trace file read, in bytes, by the command line and by the page alike, checked before a byte
 * is read (#15.2). A dropped 1 GB Mooncake file of long prompts left a ~0.56 GB table in the page's
 * worker, and the page keeps the last 8 dropped tables: six such drops took the tab to 3.7 GB.
 */
export const MAX_TRACE_FILE_BYTES = 256_000_000;

/** Longest client, model or class name in a trace (the scenario format's key cap). */
export const MAX_TRACE_NAME_CHARS = 256;

/** File time units per second. */
function divisor(unit: TimeUnit): number {
  return unit === 'ms' ? 1000 : unit === 'us' ? 1e6 : 1;
}

interface CsvLayout {
  timestamp: number;
  input: number;
  output: number;
  client: number;
  model: number;
  cls: number;
  unit: TimeUnit;
}

const AZURE = { timestamp: 'timestamp', input: 'contexttokens', output: 'generatedtokens' };
const BURST = { timestamp: 'timestamp', input: 'request tokens', output: 'response tokens', model: 'model' };

function lowerHeader(fields: string[]): string[] {
  return fields.map((f) => f.trim().toLowerCase());
}

function looksLike(header: string[], cols: Record<string, string>): boolean {
  return Object.values(cols).every((c) => header.includes(c));
}

function shorten(s: string, n = 60): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

export class TraceReader {
  private tail = '';
  private lineNo = 0;
  private format: TraceFormat | null;
  private builder: TraceBuilder | null = null;
  private layout: CsvLayout | null = null;
  private readonly problems: TraceProblem[] = [];
  private more = 0;
  private csvHeader: string[] | null = null;
  private csvColumns = 0;
  private moreFrom: TraceProblem = { line: 0, message: '' };
  private fatal = false;
  private rows = 0;
  private sawContent = false;
  bytesSeen = 0;

  constructor(
    private readonly source: string,
    private readonly opts: TraceReadOptions = {},
  ) {
    const f = opts.format ?? 'auto';
    this.format = f === 'auto' ? null : f;
  }

  /** Note a problem of a line (at column `col`); returns false (the line is not a request). */
  private problem(line: number, message: string, col = 1, column?: keyof TraceColumns): false {
    if (this.problems.length < MAX_REPORTED)
      this.problems.push(column === undefined ? { line, col, message } : { line, col, message, column });
    else if (this.more++ === 0) this.moreFrom = { line, col, message };
    return false;
  }

  /** True once the rest of the file cannot change the outcome (the caller may stop reading). */
  get stopped(): boolean {
    return this.fatal;
  }

  /** Feed the next piece of the file's text. */
  push(chunk: string): void {
    this.bytesSeen += chunk.length;
    if (this.fatal) return;
    const nl = chunk.indexOf('\n');
    if (this.tail.length + (nl < 0 ? chunk.length : nl) > MAX_TRACE_LINE_CHARS) {
      this.lineTooLong();
      return;
    }
    let text = this.tail.length > 0 ? this.tail + chunk : chunk;
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      this.line(text, start, nl);
      start = nl + 1;
    }
    this.tail = start === 0 ? text : text.slice(start);
    text = '';
    if (this.tail.length > MAX_TRACE_LINE_CHARS) this.lineTooLong();
  }

  /** The line being gathered is too long for a trace: say so and stop. */
  private lineTooLong(): void {
    this.problem(
      this.lineNo + 1,
      `a line longer than ${MAX_TRACE_LINE_CHARS.toLocaleString('en')} characters: is this a trace (Mooncake JSONL, Azure or BurstGPT CSV)?`,
    );
    this.fatal = true;
    this.tail = '';
  }

  /** The file ended: parse the last line and return the table or every problem. */
  end(): TraceReadResult {
    if (this.tail.length > 0) {
      const t = this.tail;
      this.tail = '';
      this.line(t, 0, t.length);
    }
    if (!this.sawContent || this.builder === null) {
      if (this.problems.length === 0)
        this.problem(Math.max(1, this.lineNo), 'the trace is empty (no requests)');
    } else if (this.builder.count === 0 && this.problems.length === 0)
      this.problem(this.lineNo, 'the trace has a header but no requests');
    if (this.problems.length > 0)
      return {
        ok: false,
        problems: this.problems,
        more: this.more,
        moreFrom: this.moreFrom,
        ...(this.csvHeader !== null ? { csvHeader: this.csvHeader, csvColumns: this.csvColumns } : {}),
      };
    return { ok: true, value: (this.builder as TraceBuilder).finish() };
  }

  private line(text: string, from: number, to: number): void {
    this.lineNo++;
    if (this.fatal) return;
    let end = to;
    if (end > from && text.charCodeAt(end - 1) === 13) end--;
    // skip blank lines without copying them
    let s = from;
    while (s < end && (text.charCodeAt(s) === 32 || text.charCodeAt(s) === 9)) s++;
    if (s === end) return;
    const line = text.slice(from, end);
    if (!this.sawContent) {
      this.sawContent = true;
      this.first(this.lineNo === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
      return;
    }
    this.row(line);
  }

  private first(line: string): void {
    if (this.format === null) this.format = line.trimStart().startsWith('{') ? 'mooncake' : 'csv';
    this.builder = new TraceBuilder(this.source, this.format, this.opts.blockTokens ?? DEFAULT_BLOCK_TOKENS);
    if (this.format === 'mooncake') {
      this.builder.timeDivisor = divisor(this.opts.timeUnit ?? 'ms');
      this.row(line);
      return;
    }
    // a CSV: this line is the header
    const fields = splitCsvLine(line);
    if (typeof fields === 'string') {
      this.problem(this.lineNo, `header: ${fields}`);
      this.fatal = true;
      return;
    }
    const header = lowerHeader(fields);
    if ((this.opts.format ?? 'auto') === 'auto' && !this.opts.columns) {
      if (looksLike(header, AZURE)) this.format = 'azure';
      else if (looksLike(header, BURST)) this.format = 'burstgpt';
    }
    this.builder = new TraceBuilder(this.source, this.format, this.opts.blockTokens ?? DEFAULT_BLOCK_TOKENS);
    const base: Record<string, string | undefined> =
      this.format === 'azure' ? { ...AZURE } : this.format === 'burstgpt' ? { ...BURST } : {};
    const cols = this.opts.columns ?? {};
    const want = {
      timestamp: cols.timestamp ?? base.timestamp,
      input: cols.input ?? base.input,
      output: cols.output ?? base.output,
      client: cols.client ?? base.client,
      model: cols.model ?? base.model,
      class: cols.class ?? base.class,
    };
    const find = (role: keyof typeof want, required: boolean): number => {
      const name = want[role];
      if (name === undefined) {
        if (required) {
          this.problem(
            this.lineNo,
            `which column holds the ${role}? The header (${shorten(fields.join(','))}) is not an Azure or BurstGPT layout: give trace.columns.${role}`,
          );
          this.fatal = true;
          // a name is kept to one character past what `columns` may give: enough for the page to
          // tell it cannot be chosen (cut to the cap, it named a column the header does not have)
          this.csvHeader = fields
            .slice(0, MAX_HEADER_FIELDS)
            .map((f) => f.trim().slice(0, MAX_COLUMN_NAME_CHARS + 1));
          // (the page says how many it does not offer)
          this.csvColumns = fields.length;
        }
        return -1;
      }
      const at = header.indexOf(name.trim().toLowerCase());
      if (at < 0) {
        this.problem(
          this.lineNo,
          `no column '${shorten(name)}' (for the ${role}) in the header: ${shorten(fields.join(','))}`,
          1,
          cols[role] !== undefined ? role : undefined,
        );
        this.fatal = true;
      }
      return at;
    };
    const layout: CsvLayout = {
      timestamp: find('timestamp', true),
      input: find('input', true),
      output: find('output', true),
      client: find('client', false),
      model: find('model', false),
      cls: find('class', false),
      unit: this.opts.timeUnit ?? (this.format === 'azure' ? 'datetime' : 's'),
    };
    this.layout = layout;
    this.builder.timeDivisor = divisor(layout.unit);
  }

  private add(
    t: number,
    input: number,
    output: number,
    blocks: ArrayLike<number> | null,
    client: string | null,
    model: string | null,
    cls: string | null,
  ): void {
    // names become the run's client, model and class names: as long as a scenario's keys at most
    for (const [what, name] of [
      ['client', client],
      ['model', model],
      ['class', cls],
    ] as const)
      if (name !== null && name.length > MAX_TRACE_NAME_CHARS)
        return void this.problem(
          this.lineNo,
          `the ${what} name '${shorten(name)}' is ${name.length.toLocaleString('en')} characters; the limit is ${MAX_TRACE_NAME_CHARS}`,
        );
    const max = this.opts.maxRows ?? 5_000_000;
    if (this.rows >= max) {
      this.problem(
        this.lineNo,
        `more than ${max.toLocaleString('en')} requests; cut the trace (trace.stop_s) or split the file`,
      );
      this.fatal = true;
      return;
    }
    const err = (this.builder as TraceBuilder).add({
      t,
      input,
      output,
      line: this.lineNo,
      blocks,
      client,
      model,
      policyClass: cls,
    });
    if (err !== null) {
      this.problem(this.lineNo, err);
      if (err.startsWith(`more than ${MAX_TRACE_CLIENTS}`)) this.fatal = true;
      return;
    }
    this.rows++;
  }

  private tokens(v: unknown, what: string, min: number): number | string {
    const max = this.opts.maxTokens ?? DEFAULT_MAX_TOKENS;
    if (typeof v !== 'number' || !Number.isInteger(v))
      return `${what} must be a whole number, got ${shorten(JSON.stringify(v) ?? String(v))}`;
    if (v < min) return `${what} must be ≥ ${min}, got ${v}`;
    if (v > max) return `${what} must be ≤ ${max.toLocaleString('en')}, got ${v}`;
    return v;
  }

  private row(line: string): void {
    if (this.format === 'mooncake') this.mooncake(line);
    else this.csv(line);
  }

  private mooncake(line: string): boolean {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      // the engine's "… in JSON at position 80 (line 1 column 81)" or "… after JSON at position 4"
      // counts within this one line: it becomes the problem's column, so the message cannot
      // contradict the file's line number before it
      let col = 1;
      const why = (e instanceof Error ? e.message : String(e)).replace(
        / (?:in|after) JSON at position (\d+)(?: \(line \d+ column \d+\))?/,
        (m, at: string) => {
          col = Number(at) + 1;
          return m.startsWith(' after') ? ' after the JSON value' : '';
        },
      );
      return this.problem(this.lineNo, `not a JSON object: ${shorten(why, 80)}`, col);
    }
    const first = line.length - line.trimStart().length + 1;
    if (v === null || typeof v !== 'object' || Array.isArray(v))
      return this.problem(
        this.lineNo,
        'expected a JSON object {"timestamp", "input_length", "output_length", "hash_ids"}',
        first,
      );
    const o = v as {
      timestamp?: unknown;
      input_length?: unknown;
      output_length?: unknown;
      hash_ids?: unknown;
    };
    // the column of a key's value in the line (of the object's start when the key is missing)
    const at = (key: string): number => {
      const m = new RegExp(`"${key}"\\s*:\\s*`).exec(line);
      return m === null ? first : m.index + m[0].length + 1;
    };
    const ts = o.timestamp;
    if (typeof ts !== 'number' || !Number.isFinite(ts) || ts < 0)
      return this.problem(
        this.lineNo,
        ts === undefined
          ? 'missing "timestamp" (milliseconds)'
          : `"timestamp" must be a number of milliseconds ≥ 0, got ${shorten(JSON.stringify(ts))}`,
        at('timestamp'),
      );
    if (o.input_length === undefined) return this.problem(this.lineNo, 'missing "input_length"', first);
    if (o.output_length === undefined) return this.problem(this.lineNo, 'missing "output_length"', first);
    const input = this.tokens(o.input_length, '"input_length"', 1);
    if (typeof input === 'string') return this.problem(this.lineNo, input, at('input_length'));
    const output = this.tokens(o.output_length, '"output_length"', 0);
    if (typeof output === 'string') return this.problem(this.lineNo, output, at('output_length'));
    let blocks: number[] | null = null;
    if (o.hash_ids !== undefined) {
      if (!Array.isArray(o.hash_ids))
        return this.problem(this.lineNo, '"hash_ids" must be a list of block ids', at('hash_ids'));
      for (let j = 0; j < o.hash_ids.length; j++) {
        const h = o.hash_ids[j];
        if (typeof h !== 'number' || !Number.isInteger(h) || h < 0 || h > 2147483647)
          return this.problem(
            this.lineNo,
            `"hash_ids"[${j}] must be a whole number from 0 to 2147483647, got ${shorten(JSON.stringify(h))}`,
            at('hash_ids'),
          );
      }
      blocks = o.hash_ids as number[];
    }
    this.add(ts, input, output, blocks, null, null, null);
    return true;
  }

  private csv(line: string): boolean {
    const l = this.layout;
    if (l === null) return false;
    const fields = splitCsvLine(line);
    if (typeof fields === 'string') {
      // at the column the message names, else at the field that breaks (an unclosed quote's opener)
      const at = /at column (\d+)/.exec(fields);
      return this.problem(
        this.lineNo,
        fields,
        at === null ? (csvFieldColumns(line).at(-1) ?? 1) : Number(at[1]),
      );
    }
    const cols = csvFieldColumns(line);
    const colOf = (i: number) => cols[i] ?? line.length + 1;
    const cell = (i: number) => (i >= 0 && i < fields.length ? fields[i].trim() : undefined);
    const need = Math.max(l.timestamp, l.input, l.output);
    if (fields.length <= need)
      return this.problem(
        this.lineNo,
        `expected at least ${need + 1} fields, got ${fields.length}`,
        line.length + 1,
      );
    const tsText = cell(l.timestamp) as string;
    let t: number | null;
    if (l.unit === 'datetime') {
      t = parseDateTime(tsText);
      if (t === null)
        return this.problem(
          this.lineNo,
          `timestamp '${shorten(tsText)}' is not a date-time like 2023-11-16 18:15:46.68`,
          colOf(l.timestamp),
        );
    } else {
      const x = tsText === '' ? Number.NaN : Number(tsText);
      if (!Number.isFinite(x) || x < 0)
        return this.problem(
          this.lineNo,
          `timestamp '${shorten(tsText)}' is not a number ≥ 0`,
          colOf(l.timestamp),
        );
      t = x;
    }
    const num = (i: number, what: string, min: number): number | string => {
      const s = cell(i) as string;
      const x = s === '' ? Number.NaN : Number(s);
      return Number.isFinite(x) ? this.tokens(x, what, min) : `${what} '${shorten(s)}' is not a number`;
    };
    const input = num(l.input, 'input tokens', 1);
    if (typeof input === 'string') return this.problem(this.lineNo, input, colOf(l.input));
    const output = num(l.output, 'output tokens', 0);
    if (typeof output === 'string') return this.problem(this.lineNo, output, colOf(l.output));
    const opt = (i: number): string | null => {
      const s = cell(i);
      return s === undefined || s === '' ? null : s;
    };
    this.add(t, input, output, null, opt(l.client), opt(l.model), opt(l.cls));
    return true;
  }
}

/** Parse a whole trace held in memory (tests, small files). */
export function readTraceText(source: string, text: string, opts: TraceReadOptions = {}): TraceReadResult {
  const r = new TraceReader(source, opts);
  r.push(text);
  return r.end();
}
