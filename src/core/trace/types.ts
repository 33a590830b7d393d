/**
 * A request trace held in columns: one row per request of a trace file (Mooncake JSONL, Azure LLM
 * inference or BurstGPT CSV, or a CSV with mapped columns). Parsers in `src/format/trace/` build it
 * line by line; the trace workload (./workload.ts) replays it. Columns are typed arrays so a trace of
 * a few hundred thousand requests costs a few megabytes, and engine copies (restore points) share it.
 */

/** The request rows of a trace. Row order is file order; replay sorts by arrival time (stable). */
export interface TraceTable {
  /** The file name, for messages and request ids. */
  readonly source: string;
  /** Which layout the rows were read as (`mooncake`, `azure`, `burstgpt`, `csv`). */
  readonly format: TraceFormat;
  readonly count: number;
  /** Arrival time of each row, seconds, relative to the earliest row (so the first arrival is 0). */
  readonly arrivalS: Float64Array;
  /** Prompt tokens (≥ 1). */
  readonly input: Int32Array;
  /** Output tokens (≥ 1). */
  readonly output: Int32Array;
  /** File line of each row (1-based), for messages and request ids. */
  readonly line: Int32Array;
  /**
   * Prefix blocks (Mooncake `hash_ids`): row i's blocks are `blocks[blockStart[i] .. blockStart[i+1])`;
   * null when the trace has none (its prompts share nothing).
   */
  readonly blockStart: Int32Array | null;
  readonly blocks: Int32Array | null;
  /** Tokens per prefix block (Mooncake: 512). */
  readonly blockTokens: number;
  /** Per row an index into `names` (-1: not given), or null when the trace has no such column. */
  readonly client: Int32Array | null;
  readonly model: Int32Array | null;
  readonly policyClass: Int32Array | null;
  /** Interned strings of the client, model and class columns. */
  readonly names: readonly string[];
}

export const TRACE_FORMATS = ['mooncake', 'azure', 'burstgpt', 'csv'] as const;
export type TraceFormat = (typeof TRACE_FORMATS)[number];

/** How a scenario replays a trace (the scenario's `trace:` section with defaults applied). */
export interface TraceReplayOptions {
  /** Simulated seconds per trace second (0.5 replays twice as fast). */
  timeScale: number;
  /** Window of trace time, seconds from the first arrival: rows in [startS, stopS) are replayed. */
  startS: number;
  stopS: number | null;
  /** Most rows replayed (after the window), or null. */
  maxRequests: number | null;
  /** Only rows whose client column holds this name (a client's `select_client`), or null for all. */
  selectClient: string | null;
  /** Client of rows without a client column value. */
  client: string;
  /** Defaults for every trace request (the class and model columns override theirs). */
  sloClass: 'critical' | 'standard' | 'batch' | 'sheddable' | 'background';
  policyClass: string | null;
  model: string | null;
}
