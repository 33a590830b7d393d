/**
 * SGLang's scheduler constants, as its scheduler ships them (environment defaults of
 * `python/sglang/srt/environ.py`, used by `scheduler.py` and `schedule_policy.py`). The replica's
 * default admission ('sglang') follows them; see replica.ts for where each one acts.
 */

/** `SGLANG_INIT_NEW_TOKEN_RATIO` × `schedule_conservativeness` (1): the share of each running request's
 * remaining `max_new_tokens` that admission keeps free, at start and whenever the replica goes idle. */
export const INIT_NEW_TOKEN_RATIO = 0.7;
/** `SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR`: the ratio decays to INIT × this. */
export const MIN_NEW_TOKEN_RATIO = INIT_NEW_TOKEN_RATIO * 0.14;
/** `SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS`: decode steps from INIT to MIN (linear). */
export const NEW_TOKEN_RATIO_DECAY = (INIT_NEW_TOKEN_RATIO - MIN_NEW_TOKEN_RATIO) / 600;
/** `SGLANG_RETRACT_DECODE_STEPS`: decode steps of headroom a retraction frees for every request left. */
export const RETRACT_DECODE_STEPS = 20;
/** `SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION`: the reservation counts at most this many output tokens. */
export const CLIP_MAX_NEW_TOKENS = 4096;
/**
 * `IN_BATCH_PREFIX_CACHING_CHECK_THRESHOLD` and `..._DEPRIORITIZE_THRESHOLD`: a waiting request with at
 * most this many tokens cached that shares at least this many leading tokens with a request before it
 * in the waiting queue goes to the back of the longest-prefix order (its prefix will be cached once
 * the first one has prefilled it).
 */
export const IN_BATCH_PREFIX_TOKENS = 32;

/** Admission as SGLang does it (default), or the simulator's earlier optimistic admission. */
export type AdmissionMode = 'sglang' | 'optimistic';

/** Output tokens admission sets aside for a request that has generated `generated` of them. */
export function outputEstimate(maxNewTokens: number, generated: number): number {
  return Math.min(Math.max(0, maxNewTokens - generated), CLIP_MAX_NEW_TOKENS);
}

/**
 * The new-token ratio after a retraction: tokens the remaining decoding requests have generated plus
 * RETRACT_DECODE_STEPS each, over their summed max_new_tokens (+1), at most 1.
 */
export function ratioAfterRetract(generated: number, maxNewTokens: number, requests: number): number {
  return Math.min(1, (generated + RETRACT_DECODE_STEPS * requests) / (maxNewTokens + 1));
}

/** Hash of a prompt's first IN_BATCH_PREFIX_TOKENS tokens (FNV-1a, 30 bits); -1 when it is shorter. */
export function headKey(tokens: Int32Array): number {
  if (tokens.length < IN_BATCH_PREFIX_TOKENS) return -1;
  let h = 0x811c9dc5;
  for (let i = 0; i < IN_BATCH_PREFIX_TOKENS; i++) h = Math.imul(h ^ tokens[i], 0x01000193);
  return (h ^ (h >>> 30)) & 0x3fffffff;
}

/** Two prompts share their first IN_BATCH_PREFIX_TOKENS tokens. */
export function sameHead(a: Int32Array, b: Int32Array): boolean {
  if (a.length < IN_BATCH_PREFIX_TOKENS || b.length < IN_BATCH_PREFIX_TOKENS) return false;
  for (let i = 0; i < IN_BATCH_PREFIX_TOKENS; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What the scenario panel says under `worker.admission: optimistic`. */
export const OPTIMISTIC_ADMISSION_NOTE =
  "**Note: `worker.admission: optimistic`.** The replicas do not run SGLang's admission here: a request is admitted when its uncached prompt fits, with no KV room kept for its output, so memory is recovered by preempting running requests; a prompt enters the prefix cache only when its whole prefill ends, and requests sharing a new prefix are not held back. Remove the key for the SGLang-faithful default.";
