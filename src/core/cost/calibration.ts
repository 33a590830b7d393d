/**
 * Measured A100-80GB step times (Vidur's profile of Llama-3-8B, TP 1, as summarised in the project's
 * reference notes) and the model's prediction for each, so tests and the README show the fit.
 * Decode rows assume about 1,024 tokens of context per sequence (the profile's stated context for
 * batch 1, assumed for the other batch sizes too).
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
  { label: 'decode, batch 1', shape: decodeShape(1, CALIBRATION_DECODE_CONTEXT), measuredMs: 10.5 },
  { label: 'decode, batch 8', shape: decodeShape(8, CALIBRATION_DECODE_CONTEXT), measuredMs: 11.3 },
  { label: 'decode, batch 16', shape: decodeShape(16, CALIBRATION_DECODE_CONTEXT), measuredMs: 12.1 },
  { label: 'decode, batch 32', shape: decodeShape(32, CALIBRATION_DECODE_CONTEXT), measuredMs: 14.1 },
  { label: 'decode, batch 64', shape: decodeShape(64, CALIBRATION_DECODE_CONTEXT), measuredMs: 16.8 },
  { label: 'decode, batch 128', shape: decodeShape(128, CALIBRATION_DECODE_CONTEXT), measuredMs: 23.7 },
  { label: 'prefill 256', shape: prefill(256), measuredMs: 20 },
  { label: 'prefill 512', shape: prefill(512), measuredMs: 36 },
  { label: 'prefill 1024', shape: prefill(1024), measuredMs: 79 },
  { label: 'prefill 2048', shape: prefill(2048), measuredMs: 152 },
  { label: 'prefill 4096', shape: prefill(4096), measuredMs: 304 },
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
