/**
 * GPU profiles for the step-time model. Peak dense BF16 throughput, memory bandwidth and memory
 * size are public figures; the MFU (model FLOPs utilisation) figures start from BLIS's hardware
 * table and are multiplied by one calibration factor fitted to measured A100 step times (see
 * `MFU_CALIBRATION` and tests/unit/cost/calibration.test.ts).
 */

export interface GpuProfile {
  /** Profile id used in scenario files, e.g. "a100-80gb". */
  id: string;
  /** Human-readable name. */
  label: string;
  /** Peak dense BF16 tensor throughput, TFLOP/s. */
  peakTflops: number;
  /** Memory bandwidth, TB/s. */
  memBwTBs: number;
  /** Effective fraction of peak reached by prefill (compute-bound) work, after calibration. */
  mfuPrefill: number;
  /** Effective fraction of peak reached by decode work, after calibration. */
  mfuDecode: number;
  /** GPU memory, GiB. */
  memoryGiB: number;
  /** Fixed cost of every batch step (scheduling, kernel launches, sampling), ms. */
  overheadMs: number;
  /** Fraction of the memory bandwidth that weight and KV reads achieve. */
  memBwEff: number;
  /** The uncalibrated MFU figures the profile starts from (BLIS table, or our choice for A10G). */
  referenceMfu: { prefill: number; decode: number; source: string };
}

/**
 * BLIS's MFU figures under-predict the speed of the measured A100 steps (Vidur profile) by about
 * 1.7×: with them a 4096-token prefill would take ~500 ms against the ~304 ms measured. One shared
 * factor keeps the relative order of the GPUs as BLIS gives it while matching the measurements.
 */
export const MFU_CALIBRATION = 1.7;

/**
 * Decode's linear layers at small batches are bound by reading the weights, so their FLOP rate in
 * the profile is far above BLIS's decode MFU: the decode figure × this (at most MAX_MFU) fits Vidur's
 * large-batch decode steps.
 */
export const MFU_CALIBRATION_DECODE = 4;
export const MAX_MFU = 0.9;

/** Fraction of peak memory bandwidth reached by streaming the weights (fitted on A100 decode). */
export const MEM_BW_EFFICIENCY = 0.69;

/** Fraction of peak memory bandwidth decode attention reaches reading the KV cache (fitted). */
export const ATTN_BW_EFFICIENCY = 0.68;

/**
 * The KV-cache write kernel (Vidur's `attn_kv_cache_save`): KV bytes of prefill tokens at this
 * fraction of peak bandwidth (~18 µs per Llama-3-8B token on an A100, as Vidur's profile measures
 * it: 73 ms of a 4,096-token prefill), the first KV_WRITE_FREE_TOKENS of a step free (the profile's
 * kernel costs about half as much per token below ~1k tokens).
 */
export const KV_WRITE_BW_EFFICIENCY = 0.0035;
export const KV_WRITE_FREE_TOKENS = 100;

/** Per-step fixed overhead, ms (fitted). */
export const STEP_OVERHEAD_MS = 0.57;

function profile(
  id: string,
  label: string,
  peakTflops: number,
  memBwTBs: number,
  memoryGiB: number,
  refPrefill: number,
  refDecode: number,
  source: string,
): GpuProfile {
  return {
    id,
    label,
    peakTflops,
    memBwTBs,
    memoryGiB,
    mfuPrefill: round3(refPrefill * MFU_CALIBRATION),
    mfuDecode: round3(Math.min(MAX_MFU, refDecode * MFU_CALIBRATION_DECODE)),
    overheadMs: STEP_OVERHEAD_MS,
    memBwEff: MEM_BW_EFFICIENCY,
    referenceMfu: { prefill: refPrefill, decode: refDecode, source },
  };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The GPU profiles a scenario's `cluster.gpu` may name. */
export const GPUS: Record<string, GpuProfile> = {
  'h100-80gb': profile('h100-80gb', 'NVIDIA H100 SXM 80 GB', 989.5, 3.35, 80, 0.45, 0.3, 'BLIS'),
  'a100-80gb': profile('a100-80gb', 'NVIDIA A100 SXM 80 GB', 312, 2.039, 80, 0.38, 0.18, 'BLIS'),
  'l40s-48gb': profile('l40s-48gb', 'NVIDIA L40S 48 GB', 362, 0.864, 48, 0.32, 0.08, 'BLIS'),
  // A10G: no BLIS figure. Same class of card as the L40S (GDDR memory, inference part), so we take
  // 0.30 / 0.10: slightly below L40S for prefill, a little above it for decode because its
  // compute-to-bandwidth ratio is lower (125 TFLOP/s over 0.6 TB/s against 362 over 0.864).
  'a10g-24gb': profile('a10g-24gb', 'NVIDIA A10G 24 GB', 125, 0.6, 24, 0.3, 0.1, 'our choice'),
};

export const GPU_IDS: readonly string[] = Object.keys(GPUS);
