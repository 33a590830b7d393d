/** What a DLPM admission records (the explainer in ./explain.ts reads it). */

/** One waiting request as DLPM's scan met it, in scan (prefix-match) order. */
export interface DlpmOrderEntry {
  request: string;
  client: string;
  /** Prompt tokens already in this worker's radix cache. */
  prefix_match: number;
  /** The client's deficit q_i when the scan reached this request. */
  deficit: number;
  /**
   * What happened to it: admitted; skipped because its client's deficit was ≤ 0; no room left in
   * this step (token budget, running limit or KV memory); or the scan stopped before it. Absent:
   * admitted earlier in this step (listed for the order only).
   */
  outcome?: 'admitted' | 'no-deficit' | 'no-room' | 'not-reached';
  /** Deficit charged at admission (w_e · uncached tokens), when admitted. */
  charge?: number;
}

/** DLPM (seed 002, Algorithm 1) admitting one waiting request on one worker. */
export interface DlpmAdmitDetail {
  algo: 'dlpm';
  worker?: number;
  /** Q^u, the per-client quantum. */
  quantum?: number;
  /** The waiting queue in prefix-match order, longest match first (ties keep queue order). */
  order: DlpmOrderEntry[];
  /** Clients the scan passed over because their deficit was ≤ 0 (deficit at that moment). */
  skipped: { client: string; deficit: number }[];
  /** CHECKREFILL fired: no backlogged client had a positive deficit, so these clients got `quantum`. */
  refill?: { quantum: number; clients: string[] };
  /** Every refill since the previous admission record, when there was more than one. */
  refills?: { quantum: number; clients: string[] }[];
  /** Request ids admitted, in admission order. */
  admitted: string[];
  /** Position of the admitted request in the scan order. */
  scan_position?: number;
  /** Which pass over the queue in this step (0 = first). */
  pass?: number;
  /** Requests waiting when the step's scan began. */
  waiting?: number;
  /** The queue was longer than lpm_fcfs_fallback: scan order = queue order. */
  fcfs_fallback?: boolean;
}
