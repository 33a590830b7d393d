/**
 * Step-time model, composed per kernel as Vidur composes a step: a fixed overhead, plus the larger of
 * the linear layers' compute (matrix FLOPs of every token, and prefill attention's FLOPs per
 * (token, context token) pair, at the GPU's calibrated MFU, prefill and decode separately) and
 * streaming the weights, plus decode attention (reading every decoding sequence's KV cache, so it
 * grows with batch × context), plus the KV-cache write kernel of the prefill tokens.
 */
import { ATTN_BW_EFFICIENCY, type GpuProfile, KV_WRITE_BW_EFFICIENCY, KV_WRITE_FREE_TOKENS } from './gpus';
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
  /** Decode attention: reading the decoding sequences' KV cache. */
  attentionS: number;
  /** The KV-cache write kernel of the prefill tokens. */
  kvWriteS: number;
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
  if (tokens <= 0)
    return { computeS: 0, memoryS: 0, attentionS: 0, kvWriteS: 0, overheadS: 0, totalS: 0, bound: 'idle' };
  const linear = 2 * linearParams(model);
  const attn = attnFlopsPerPair(model);
  const prefillFlops = linear * shape.prefillTokens + attn * shape.prefillAttnTokens2;
  const decodeFlops = (linear + 2 * headParams(model)) * shape.decodeSeqs;
  const peak = gpu.peakTflops * 1e12;
  const bw = gpu.memBwTBs * 1e12;
  const computeS = prefillFlops / (peak * gpu.mfuPrefill) + decodeFlops / (peak * gpu.mfuDecode);
  const memoryS = weightBytesReadPerStep(model) / (bw * gpu.memBwEff);
  const kvb = kvBytesPerToken(model);
  const attentionS = (kvb * shape.decodeContextTokens) / (bw * ATTN_BW_EFFICIENCY);
  const kvWriteS =
    (kvb * Math.max(0, shape.prefillTokens - KV_WRITE_FREE_TOKENS)) / (bw * KV_WRITE_BW_EFFICIENCY);
  const overheadS = gpu.overheadMs / 1000;
  return {
    computeS,
    memoryS,
    attentionS,
    kvWriteS,
    overheadS,
    totalS: overheadS + Math.max(computeS, memoryS) + attentionS + kvWriteS,
    bound: computeS >= memoryS ? 'compute' : 'memory',
  };
}

/** Wall time of one batch step on one replica, seconds (0 for an empty batch). */
/**
 * `stepTimeS` for one (GPU, model) pair with everything that depends only on the pair computed once:
 * the simulator evaluates it for every batch step (millions per run). The same operations on the same
 * values in the same order as `stepBreakdown`, so the result is the same number, bit for bit (a unit
 * test compares them over random shapes for every GPU and model).
 */
export class StepCost {
  private readonly linear: number;
  private readonly attn: number;
  private readonly decodePerSeq: number;
  private readonly prefillRate: number;
  private readonly decodeRate: number;
  private readonly memoryS: number;
  private readonly kvb: number;
  private readonly attnBw: number;
  private readonly kvWriteBw: number;
  private readonly overheadS: number;

  constructor(gpu: GpuProfile, model: ModelProfile) {
    this.linear = 2 * linearParams(model);
    this.attn = attnFlopsPerPair(model);
    this.decodePerSeq = this.linear + 2 * headParams(model);
    const peak = gpu.peakTflops * 1e12;
    const bw = gpu.memBwTBs * 1e12;
    this.prefillRate = peak * gpu.mfuPrefill;
    this.decodeRate = peak * gpu.mfuDecode;
    this.memoryS = weightBytesReadPerStep(model) / (bw * gpu.memBwEff);
    this.kvb = kvBytesPerToken(model);
    this.attnBw = bw * ATTN_BW_EFFICIENCY;
    this.kvWriteBw = bw * KV_WRITE_BW_EFFICIENCY;
    this.overheadS = gpu.overheadMs / 1000;
  }

  /** Seconds of a step of this shape (0 for an empty one). */
  timeS(shape: StepShape): number {
    if (shape.prefillTokens + shape.decodeSeqs <= 0) return 0;
    const prefillFlops = this.linear * shape.prefillTokens + this.attn * shape.prefillAttnTokens2;
    const decodeFlops = this.decodePerSeq * shape.decodeSeqs;
    const computeS = prefillFlops / this.prefillRate + decodeFlops / this.decodeRate;
    const attentionS = (this.kvb * shape.decodeContextTokens) / this.attnBw;
    const kvWriteS = (this.kvb * Math.max(0, shape.prefillTokens - KV_WRITE_FREE_TOKENS)) / this.kvWriteBw;
    return this.overheadS + Math.max(computeS, this.memoryS) + attentionS + kvWriteS;
  }
}

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
