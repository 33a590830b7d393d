/**
 * Roofline step-time model: a batch step costs the larger of its compute time and its memory time,
 * plus a fixed overhead. Compute counts the matrix FLOPs of every token and the attention FLOPs of
 * every (token, context token) pair, at the GPU's calibrated MFU (prefill and decode separately);
 * memory counts the weights streamed once per step plus the KV cache read by decoding sequences and
 * the KV written for new tokens.
 */
import type { GpuProfile } from './gpus';
import { headDim, headParams, linearParams, type ModelProfile, weightBytesReadPerStep } from './models';
import { kvBytesPerToken } from './capacity';

/** Aggregated shape of one batch step (sums keep it O(1)). */
export interface StepShape {
  /** Σ prefill chunk tokens this step. */
  prefillTokens: number;
  /** Σ over chunks of chunk · (context_before + chunk/2): the attention work of prefill. */
  prefillAttnTokens2: number;
  /** Number of sequences decoding one token. */
  decodeSeqs: number;
  /** Σ context length of the decoding sequences. */
  decodeContextTokens: number;
}

/** The parts of a step's time, seconds (for explanations and tests). */
export interface StepBreakdown {
  computeS: number;
  memoryS: number;
  overheadS: number;
  totalS: number;
  bound: 'compute' | 'memory' | 'idle';
}

/** FLOPs of attention per (query token, context token) pair: QKᵀ and AV, all layers. */
function attnFlopsPerPair(model: ModelProfile): number {
  return 4 * model.layers * model.heads * headDim(model);
}

export function stepBreakdown(gpu: GpuProfile, model: ModelProfile, shape: StepShape): StepBreakdown {
  const tokens = shape.prefillTokens + shape.decodeSeqs;
  if (tokens <= 0) return { computeS: 0, memoryS: 0, overheadS: 0, totalS: 0, bound: 'idle' };
  const linear = 2 * linearParams(model);
  const attn = attnFlopsPerPair(model);
  const prefillFlops = linear * shape.prefillTokens + attn * shape.prefillAttnTokens2;
  const decodeFlops = (linear + 2 * headParams(model)) * shape.decodeSeqs + attn * shape.decodeContextTokens;
  const peak = gpu.peakTflops * 1e12;
  const computeS = prefillFlops / (peak * gpu.mfuPrefill) + decodeFlops / (peak * gpu.mfuDecode);
  const kvBytes = kvBytesPerToken(model) * (shape.decodeContextTokens + tokens);
  const memoryS = (weightBytesReadPerStep(model) + kvBytes) / (gpu.memBwTBs * 1e12 * gpu.memBwEff);
  const overheadS = gpu.overheadMs / 1000;
  return {
    computeS,
    memoryS,
    overheadS,
    totalS: overheadS + Math.max(computeS, memoryS),
    bound: computeS >= memoryS ? 'compute' : 'memory',
  };
}

/** Wall time of one batch step on one replica, seconds (0 for an empty batch). */
export function stepTimeS(gpu: GpuProfile, model: ModelProfile, shape: StepShape): number {
  return stepBreakdown(gpu, model, shape).totalS;
}

/** Predicted time of a step that prefills `tokens` uncached tokens alone, after `contextBefore` cached ones. */
export function prefillTimeS(
  gpu: GpuProfile,
  model: ModelProfile,
  tokens: number,
  contextBefore = 0,
): number {
  if (tokens <= 0) return 0;
  return stepTimeS(gpu, model, {
    prefillTokens: tokens,
    prefillAttnTokens2: tokens * (contextBefore + tokens / 2),
    decodeSeqs: 0,
    decodeContextTokens: 0,
  });
}

/** The StepShape of `decodeSeqs` sequences decoding with `contextEach` tokens of context each. */
export function decodeShape(decodeSeqs: number, contextEach: number): StepShape {
  return {
    prefillTokens: 0,
    prefillAttnTokens2: 0,
    decodeSeqs,
    decodeContextTokens: decodeSeqs * contextEach,
  };
}
