/**
 * Transformer shapes of the models the seeds use. Parameter counts are derived from the shape, so
 * the FLOP and byte counts of the step-time model follow from the same numbers the KV size does.
 */

export interface ModelProfile {
  /** Profile id used in scenario files, e.g. "llama-3.1-8b". */
  id: string;
  label: string;
  layers: number;
  hidden: number;
  /** Attention (query) heads. */
  heads: number;
  /** Key/value heads (grouped-query attention). */
  kvHeads: number;
  /** MLP intermediate size (gated MLP: three matrices). */
  ffn: number;
  /** Total parameters, billions (including embeddings). */
  paramsB: number;
  /** Vocabulary size (embedding and output-head rows). */
  vocab?: number;
  /** Whether the output head shares the embedding matrix. */
  tiedEmbeddings?: boolean;
}

/** The model profiles a scenario's `cluster.model` may name. */
export const MODELS: Record<string, ModelProfile> = {
  'llama-3.1-8b': {
    id: 'llama-3.1-8b',
    label: 'Llama-3.1-8B',
    layers: 32,
    hidden: 4096,
    heads: 32,
    kvHeads: 8,
    ffn: 14336,
    paramsB: 8.03,
    vocab: 128256,
  },
  'llama-3.2-3b': {
    id: 'llama-3.2-3b',
    label: 'Llama-3.2-3B',
    layers: 28,
    hidden: 3072,
    heads: 24,
    kvHeads: 8,
    ffn: 8192,
    paramsB: 3.21,
    vocab: 128256,
    tiedEmbeddings: true,
  },
  'qwen3-14b': {
    id: 'qwen3-14b',
    label: 'Qwen3-14B',
    layers: 40,
    hidden: 5120,
    heads: 40,
    kvHeads: 8,
    ffn: 17408,
    paramsB: 14.77,
    vocab: 151936,
  },
};

export const MODEL_IDS: readonly string[] = Object.keys(MODELS);

/** Size of one attention head. */
export function headDim(model: ModelProfile): number {
  return model.hidden / model.heads;
}

/** Parameters of the matrices every token passes through (attention projections and MLP, all layers). */
export function linearParams(model: ModelProfile): number {
  const d = headDim(model);
  const q = model.hidden * model.heads * d;
  const kv = 2 * model.hidden * model.kvHeads * d;
  const o = model.heads * d * model.hidden;
  const mlp = 3 * model.hidden * model.ffn;
  return model.layers * (q + kv + o + mlp);
}

/** Parameters of the output head (vocab × hidden), 0 when the vocabulary is unknown. */
export function headParams(model: ModelProfile): number {
  return (model.vocab ?? 0) * model.hidden;
}

/** Bytes of all weights in BF16. */
export function weightBytes(model: ModelProfile): number {
  return model.paramsB * 1e9 * 2;
}

/** Bytes of weights a step streams from memory: every matrix once, but not the embedding table (only looked up). */
export function weightBytesReadPerStep(model: ModelProfile): number {
  return (linearParams(model) + headParams(model)) * 2;
}
