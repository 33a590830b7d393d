/** What a Preble placement records (the explainer in ./explain.ts reads it). */

/** Preble (E2) placing one request. */
export interface PreblePlacementDetail {
  algo: 'preble';
  request?: string;
  /** exploit: more than half of the prompt matched, so only workers holding the prefix compete. */
  mode: 'exploit' | 'explore';
  /** Matched prefix / prompt length, in [0, 1]. */
  matched_fraction: number;
  matched_tokens?: number;
  /** The prompt's length in tokens (what `matched_fraction` divides by). */
  prompt_len?: number;
  /** Workers holding the matched prefix (the exploit candidates). */
  holders?: number[];
  /** Load of every worker (index = worker) as Preble estimates it. */
  loads: number[];
  chosen: number;
  /** The choice moved work off the heaviest worker (load imbalance rebalancing). */
  rebalanced?: boolean;
  /** What `loads` measure: predicted GPU seconds ('time', Preble's) or prefill tokens ('tokens'). */
  load_kind?: 'time' | 'tokens';
  /** The windowed prefill part of each worker's load. */
  prefill_loads?: number[];
  /** The decode part of each worker's load. */
  decode_loads?: number[];
  /** The prefill window, seconds. */
  window_s?: number;
  /** Each worker's TPOT estimate, seconds ('time' load). */
  tpots?: number[];
}
