/** What a DoubleQ dispatch records (the explainer in ./explain.ts reads it). */

/** DoubleQ (seed 002, Algorithm 2) choosing a worker for one arriving request. */
export interface DoubleQDispatchDetail {
  algo: 'doubleq';
  request?: string;
  client?: string;
  /** Prompt tokens matched in the global radix tree (the longest match). */
  matched_tokens?: number;
  /** Workers holding the longest prefix match (the paper's G). */
  g: number[];
  /** Workers where the client's deficit q_{i,w} is positive, after any refills (the paper's G_avail). */
  g_avail: number[];
  /** How many times Q^w was added to all of the client's worker deficits because G_avail was empty. */
  refills: number;
  /** Q^w, the worker quantum. */
  worker_quantum?: number;
  /** The chosen worker. */
  chosen: number;
  /** What dispatch charges: every prompt token ('input', Algorithm 2) or those w does not hold ('extend'). */
  charge?: 'input' | 'extend';
  /** Tokens charged at dispatch (× w_e): the prompt, or its part the global tree lacks for the chosen worker. */
  charged_tokens?: number;
  /** Queue length of every worker (index = worker). */
  queue_lens: number[];
  /** The client's deficit per worker after refills, before this request is charged. */
  deficits: Record<number, number>;
}
