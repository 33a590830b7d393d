/** Markdown tables that document the cost model (embedded in the README and the playground's help). */
import { calibrationResults } from './calibration';
import { kvBytesPerToken, kvCapacityTokens } from './capacity';
import {
  ATTN_BW_EFFICIENCY,
  GPUS,
  KV_WRITE_BW_EFFICIENCY,
  KV_WRITE_FREE_TOKENS,
  MEM_BW_EFFICIENCY,
  MFU_CALIBRATION,
  MFU_CALIBRATION_DECODE,
  STEP_OVERHEAD_MS,
} from './gpus';
import { MODELS } from './models';
import { decodeShape, prefillTimeS, stepTimeS } from './roofline';

function fmt(x: number, digits: number): string {
  return x.toFixed(digits);
}

function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Every GPU and model profile, KV capacities, a few predicted step times, and the calibration fit. */
export function costModelTable(): string {
  const lines: string[] = [];
  lines.push(
    `Step time = ${STEP_OVERHEAD_MS} ms + max(compute, weights) + decode attention + KV write, per kernel as Vidur composes a step. ` +
      `Compute = linear-layer and prefill-attention FLOPs / (peak · MFU), prefill MFU = reference × ${MFU_CALIBRATION}, decode MFU = reference × ${MFU_CALIBRATION_DECODE} (at most 0.9); ` +
      `weights = weight bytes / (bandwidth · ${MEM_BW_EFFICIENCY}); decode attention = KV bytes of every decoding sequence's context / (bandwidth · ${ATTN_BW_EFFICIENCY}); ` +
      `KV write = KV bytes of the step's prefill tokens beyond the first ${KV_WRITE_FREE_TOKENS} / (bandwidth · ${KV_WRITE_BW_EFFICIENCY}). All fitted to Vidur's A100 + Llama-3-8B profile.`,
  );
  lines.push('');
  lines.push(
    '| GPU | peak TFLOP/s | bandwidth TB/s | reference MFU prefill / decode | used MFU prefill / decode | memory GiB |',
  );
  lines.push('| --- | --- | --- | --- | --- | --- |');
  for (const g of Object.values(GPUS)) {
    lines.push(
      `| ${g.id} (${g.label}) | ${g.peakTflops} | ${g.memBwTBs} | ${g.referenceMfu.prefill} / ${g.referenceMfu.decode} (${g.referenceMfu.source}) | ${g.mfuPrefill} / ${g.mfuDecode} | ${g.memoryGiB} |`,
    );
  }
  lines.push('');
  lines.push('| model | layers | hidden | heads / KV heads | FFN | params (B) | KV bytes / token |');
  lines.push('| --- | --- | --- | --- | --- | --- | --- |');
  for (const m of Object.values(MODELS)) {
    lines.push(
      `| ${m.id} | ${m.layers} | ${m.hidden} | ${m.heads} / ${m.kvHeads} | ${m.ffn} | ${m.paramsB} | ${thousands(kvBytesPerToken(m))} |`,
    );
  }
  lines.push('');
  const models = Object.values(MODELS);
  lines.push(
    `| KV capacity (tokens per replica) / prefill 2048 ms / decode 64×1k ms | ${models.map((m) => m.id).join(' | ')} |`,
  );
  lines.push(`| --- | ${models.map(() => '---').join(' | ')} |`);
  for (const g of Object.values(GPUS)) {
    const cells = models.map((m) => {
      const cap = kvCapacityTokens(g, m);
      if (cap === 0) return 'does not fit';
      const p = prefillTimeS(g, m, 2048) * 1000;
      const d = stepTimeS(g, m, decodeShape(64, 1024)) * 1000;
      return `${thousands(cap)} / ${fmt(p, 1)} / ${fmt(d, 1)}`;
    });
    lines.push(`| ${g.id} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  lines.push(
    "Calibration: A100-80GB + Llama-3.1-8B against Vidur's public profile of Llama-3-8B on an A100 (TP 1), composed as Vidur composes a step (layers × per-layer operations, KV-cache write kernel included, decode attention × 1.1 when batch > 1; tabulated in the shared reference cost-model.md). A unit test holds every row within ±10 %.",
  );
  lines.push('');
  lines.push('| step | Vidur ms | model ms | error |');
  lines.push('| --- | --- | --- | --- |');
  for (const r of calibrationResults()) {
    const sign = r.relError >= 0 ? '+' : '';
    lines.push(
      `| ${r.label} | ${r.measuredMs} | ${fmt(r.modelMs, 1)} | ${sign}${fmt(r.relError * 100, 0)} % |`,
    );
  }
  return lines.join('\n');
}
