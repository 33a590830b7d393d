/**
 * A100-80GB step times from Vidur's public profile of Llama-3-8B (TP 1), composed the way Vidur
 * composes a step (layers × per-layer operations, including the KV-cache write kernel; decode
 * attention × 1.1 when batch > 1), as the project's reference notes tabulate them, and the model's
 * prediction for each, so tests and the README show the fit.
 */
import { GPUS } from './gpus';
import { MODELS } from './models';
import { decodeShape, type StepShape, stepTimeS } from './roofline';

export interface CalibrationRow {
  label: string;
  shape: StepShape;
  measuredMs: number;
}

function prefill(tokens: number): StepShape {
  return {
    prefillTokens: tokens,
    prefillAttnTokens2: (tokens * tokens) / 2,
    decodeSeqs: 0,
    decodeContextTokens: 0,
  };
}

/** Context length assumed for the measured decode rows. */
export const CALIBRATION_DECODE_CONTEXT = 1024;

export const A100_MEASURED: readonly CalibrationRow[] = [
  { label: 'prefill 256', shape: prefill(256), measuredMs: 22.5 },
  { label: 'prefill 512', shape: prefill(512), measuredMs: 41.0 },
  { label: 'prefill 1024', shape: prefill(1024), measuredMs: 95.6 },
  { label: 'prefill 2048', shape: prefill(2048), measuredMs: 188.8 },
  { label: 'prefill 4096', shape: prefill(4096), measuredMs: 377.5 },
  { label: 'prefill 8192', shape: prefill(8192), measuredMs: 800.6 },
  { label: 'decode, batch 1, context 1024', shape: decodeShape(1, 1024), measuredMs: 10.8 },
  { label: 'decode, batch 8, context 1024', shape: decodeShape(8, 1024), measuredMs: 11.4 },
  { label: 'decode, batch 16, context 1024', shape: decodeShape(16, 1024), measuredMs: 12.5 },
  { label: 'decode, batch 32, context 1024', shape: decodeShape(32, 1024), measuredMs: 14.5 },
  { label: 'decode, batch 64, context 1024', shape: decodeShape(64, 1024), measuredMs: 17.7 },
  { label: 'decode, batch 128, context 1024', shape: decodeShape(128, 1024), measuredMs: 25.4 },
  { label: 'decode, batch 256, context 1024', shape: decodeShape(256, 1024), measuredMs: 42.0 },
  { label: 'decode, batch 1, context 2048', shape: decodeShape(1, 2048), measuredMs: 10.8 },
  { label: 'decode, batch 8, context 2048', shape: decodeShape(8, 2048), measuredMs: 12.1 },
  { label: 'decode, batch 16, context 2048', shape: decodeShape(16, 2048), measuredMs: 14.1 },
  { label: 'decode, batch 32, context 2048', shape: decodeShape(32, 2048), measuredMs: 17.2 },
  { label: 'decode, batch 64, context 2048', shape: decodeShape(64, 2048), measuredMs: 23.3 },
  { label: 'decode, batch 128, context 2048', shape: decodeShape(128, 2048), measuredMs: 36.8 },
  { label: 'decode, batch 256, context 2048', shape: decodeShape(256, 2048), measuredMs: 63.0 },
  { label: 'decode, batch 1, context 4096', shape: decodeShape(1, 4096), measuredMs: 10.9 },
  { label: 'decode, batch 8, context 4096', shape: decodeShape(8, 4096), measuredMs: 13.5 },
  { label: 'decode, batch 16, context 4096', shape: decodeShape(16, 4096), measuredMs: 17.5 },
  { label: 'decode, batch 32, context 4096', shape: decodeShape(32, 4096), measuredMs: 22.9 },
  { label: 'decode, batch 64, context 4096', shape: decodeShape(64, 4096), measuredMs: 35.4 },
  { label: 'decode, batch 128, context 4096', shape: decodeShape(128, 4096), measuredMs: 59.5 },
];

export interface CalibrationResult extends CalibrationRow {
  modelMs: number;
  /** (model − measured) / measured. */
  relError: number;
}

/** The model's A100 + Llama-3.1-8B prediction for every measured row. */
export function calibrationResults(): CalibrationResult[] {
  const gpu = GPUS['a100-80gb'];
  const model = MODELS['llama-3.1-8b'];
  return A100_MEASURED.map((row) => {
    const modelMs = stepTimeS(gpu, model, row.shape) * 1000;
    return { ...row, modelMs, relError: (modelMs - row.measuredMs) / row.measuredMs };
  });
}
