/**
 * Builds a TraceTable one row at a time, in growable typed arrays (doubling), so a parser that reads
 * a file line by line never holds more than the columns themselves.
 */
import { markImmutable } from '../clone';
import type { TraceFormat, TraceTable } from './types';

/** Most distinct client names a trace may carry (the scenario's client limit). */
export const MAX_TRACE_CLIENTS = 64;

function grow<A extends Float64Array | Int32Array>(a: A, need: number, make: (n: number) => A): A {
  if (need <= a.length) return a;
  let n = Math.max(16, a.length);
  while (n < need) n *= 2;
  const b = make(n);
  b.set(a);
  return b;
}

export interface TraceRow {
  /** Arrival in the file's unit (see `timeDivisor`; absolute or relative: the table starts at 0). */
  t: number;
  input: number;
  output: number;
  line: number;
  blocks?: ArrayLike<number> | null;
  client?: string | null;
  model?: string | null;
  policyClass?: string | null;
}

export class TraceBuilder {
  private n = 0;
  private t = new Float64Array(1024);
  private input = new Int32Array(1024);
  private output = new Int32Array(1024);
  private line = new Int32Array(1024);
  private blockStart: Int32Array | null = null;
  private blocks: Int32Array | null = null;
  private nBlocks = 0;
  private client: Int32Array | null = null;
  private model: Int32Array | null = null;
  private cls: Int32Array | null = null;
  private readonly names: string[] = [];
  private readonly nameIndex = new Map<string, number>();
  private readonly clientNames = new Set<string>();
  /** File time units per second (1000 for milliseconds); times are shifted before dividing, exactly. */
  timeDivisor = 1;

  constructor(
    private readonly source: string,
    private readonly format: TraceFormat,
    private readonly blockTokens = 512,
  ) {}

  get count(): number {
    return this.n;
  }

  private intern(s: string): number {
    let i = this.nameIndex.get(s);
    if (i === undefined) {
      i = this.names.length;
      this.names.push(s);
      this.nameIndex.set(s, i);
    }
    return i;
  }

  private column(col: Int32Array | null, value: string | null | undefined): Int32Array | null {
    if ((value === null || value === undefined) && col === null) return null;
    let c = col;
    if (c === null) {
      c = new Int32Array(this.t.length).fill(-1);
    } else c = grow(c, this.t.length, (k) => new Int32Array(k).fill(-1));
    c[this.n] = value === null || value === undefined ? -1 : this.intern(value);
    return c;
  }

  /**
   * Add a row; returns an error message instead when the row would exceed a limit (the parser turns
   * it into `file:line:col: message`).
   */
  add(row: TraceRow): string | null {
    if (row.client !== null && row.client !== undefined && !this.clientNames.has(row.client)) {
      if (this.clientNames.size >= MAX_TRACE_CLIENTS)
        return `more than ${MAX_TRACE_CLIENTS} distinct clients ('${row.client}' is the ${MAX_TRACE_CLIENTS + 1}th); a scenario holds at most ${MAX_TRACE_CLIENTS}`;
      this.clientNames.add(row.client);
    }
    const need = this.n + 1;
    this.t = grow(this.t, need, (k) => new Float64Array(k));
    this.input = grow(this.input, need, (k) => new Int32Array(k));
    this.output = grow(this.output, need, (k) => new Int32Array(k));
    this.line = grow(this.line, need, (k) => new Int32Array(k));
    const i = this.n;
    this.t[i] = row.t;
    this.input[i] = Math.max(1, row.input);
    this.output[i] = Math.max(1, row.output);
    this.line[i] = row.line;
    if (row.blocks) {
      if (this.blockStart === null) {
        // rows before the first with blocks have none
        this.blockStart = new Int32Array(this.t.length + 1);
        this.blocks = new Int32Array(4096);
      }
      this.blockStart = grow(this.blockStart, need + 1, (k) => new Int32Array(k));
      const m = row.blocks.length;
      this.blocks = grow(this.blocks as Int32Array, this.nBlocks + m, (k) => new Int32Array(k));
      for (let j = 0; j < m; j++) this.blocks[this.nBlocks + j] = row.blocks[j];
      this.nBlocks += m;
      this.blockStart[i + 1] = this.nBlocks;
    } else if (this.blockStart !== null) {
      this.blockStart = grow(this.blockStart, need + 1, (k) => new Int32Array(k));
      this.blockStart[i + 1] = this.nBlocks;
    }
    // a column exists once any row gives it; earlier rows read -1
    this.client = this.column(this.client, row.client);
    this.model = this.column(this.model, row.model);
    this.cls = this.column(this.cls, row.policyClass);
    this.n = need;
    return null;
  }

  /** The table, shifted so that the earliest arrival is at 0. */
  finish(): TraceTable {
    const n = this.n;
    let t0 = Number.POSITIVE_INFINITY;
    for (let i = 0; i < n; i++) if (this.t[i] < t0) t0 = this.t[i];
    const arrivalS = this.t.slice(0, n);
    const d = this.timeDivisor;
    if (n > 0) for (let i = 0; i < n; i++) arrivalS[i] = d === 1 ? arrivalS[i] - t0 : (arrivalS[i] - t0) / d;
    const cut = (a: Int32Array | null, len: number) => (a === null ? null : markImmutable(a.slice(0, len)));
    return {
      source: this.source,
      format: this.format,
      count: n,
      arrivalS: markImmutable(arrivalS),
      input: markImmutable(this.input.slice(0, n)),
      output: markImmutable(this.output.slice(0, n)),
      line: markImmutable(this.line.slice(0, n)),
      blockStart: cut(this.blockStart, n + 1),
      blocks: cut(this.blocks, this.nBlocks),
      blockTokens: this.blockTokens,
      client: cut(this.client, n),
      model: cut(this.model, n),
      policyClass: cut(this.cls, n),
      names: [...this.names],
    };
  }
}
