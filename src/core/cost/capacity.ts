/** KV-cache size per token and the number of tokens a replica can hold. */
import type { GpuProfile } from './gpus';
import { headDim, type ModelProfile, weightBytes } from './models';

/** Fraction of GPU memory the serving engine may use (the rest: activations, CUDA context, fragmentation). */
export const GPU_MEMORY_UTILISATION = 0.9;

/** Bytes of K and V for one token, all layers, BF16: 2 · layers · kv_heads · head_dim · 2. */
export function kvBytesPerToken(model: ModelProfile): number {
  return 2 * model.layers * model.kvHeads * headDim(model) * 2;
}

/** Tokens of KV cache on one replica: (memory · 0.9 − weights) / KV bytes per token; 0 if the model does not fit. */
export function kvCapacityTokens(gpu: GpuProfile, model: ModelProfile): number {
  const free = gpu.memoryGiB * 2 ** 30 * GPU_MEMORY_UTILISATION - weightBytes(model);
  return Math.max(0, Math.floor(free / kvBytesPerToken(model)));
}
