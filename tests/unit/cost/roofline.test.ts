import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  costModelTable,
  decodeShape,
  GPUS,
  kvBytesPerToken,
  kvCapacityTokens,
  linearParams,
  MODELS,
  prefillTimeS,
  stepBreakdown,
  stepTimeS,
} from '../../../src/core/cost/index';

const A100 = GPUS['a100-80gb'];
const H100 = GPUS['h100-80gb'];
const A10G = GPUS['a10g-24gb'];
const L40S = GPUS['l40s-48gb'];
const L8B = MODELS['llama-3.1-8b'];
const L3B = MODELS['llama-3.2-3b'];
const Q14B = MODELS['qwen3-14b'];

describe('model shapes', () => {
  it('counts Llama-3.1-8B matrix parameters from its shape', () => {
    // 32 · (2·4096² + 2·4096·1024 + 3·4096·14336)
    expect(linearParams(L8B)).toBe(6_979_321_856);
  });
  it('KV bytes per token = 2 · layers · kv_heads · head_dim · 2', () => {
    expect(kvBytesPerToken(L8B)).toBe(2 * 32 * 8 * 128 * 2);
    expect(kvBytesPerToken(L3B)).toBe(2 * 28 * 8 * 128 * 2);
    expect(kvBytesPerToken(Q14B)).toBe(2 * 40 * 8 * 128 * 2);
  });
  it('KV capacity = (memory · 0.9 − weights) / KV bytes per token', () => {
    // (80 · 2^30 · 0.9 − 8.03e9 · 2) / 131072 = 467295.4
    expect(kvCapacityTokens(A100, L8B)).toBe(467_295);
    expect(kvCapacityTokens(A10G, L8B)).toBe(Math.floor((24 * 2 ** 30 * 0.9 - 16.06e9) / 131072));
  });
  it('reports 0 when the model does not fit', () => {
    expect(kvCapacityTokens(A10G, Q14B)).toBe(0);
  });
});

describe('step time', () => {
  it('is 0 for an empty batch', () => {
    expect(
      stepTimeS(A100, L8B, {
        prefillTokens: 0,
        prefillAttnTokens2: 0,
        decodeSeqs: 0,
        decodeContextTokens: 0,
      }),
    ).toBe(0);
  });
  it('decode of a small batch is memory-bound, a long prefill compute-bound', () => {
    expect(stepBreakdown(A100, L8B, decodeShape(8, 1024)).bound).toBe('memory');
    expect(
      stepBreakdown(A100, L8B, {
        prefillTokens: 4096,
        prefillAttnTokens2: 4096 * 2048,
        decodeSeqs: 0,
        decodeContextTokens: 0,
      }).bound,
    ).toBe('compute');
  });
  it('H100 is faster than A100, A10G slower, for prefill and decode', () => {
    for (const shape of [decodeShape(1, 1024), decodeShape(64, 2048)]) {
      expect(stepTimeS(H100, L8B, shape)).toBeLessThan(stepTimeS(A100, L8B, shape));
      expect(stepTimeS(A10G, L8B, shape)).toBeGreaterThan(stepTimeS(A100, L8B, shape));
      expect(stepTimeS(L40S, L8B, shape)).toBeGreaterThan(stepTimeS(A100, L8B, shape));
    }
    for (const n of [256, 2048, 8192]) {
      expect(prefillTimeS(H100, L8B, n)).toBeLessThan(prefillTimeS(A100, L8B, n));
      expect(prefillTimeS(A10G, L8B, n)).toBeGreaterThan(prefillTimeS(A100, L8B, n));
    }
  });
  it('a bigger model is slower on the same GPU', () => {
    expect(prefillTimeS(A100, L3B, 2048)).toBeLessThan(prefillTimeS(A100, L8B, 2048));
    expect(prefillTimeS(A100, Q14B, 2048)).toBeGreaterThan(prefillTimeS(A100, L8B, 2048));
  });
  it('prefill after a cached context costs more attention than a fresh prefill', () => {
    expect(prefillTimeS(A100, L8B, 1024, 16_000)).toBeGreaterThan(prefillTimeS(A100, L8B, 1024, 0));
  });
  it('never decreases when any part of the batch grows (property)', () => {
    const part = fc.integer({ min: 0, max: 20_000 });
    fc.assert(
      fc.property(
        part,
        part,
        part,
        part,
        fc.integer({ min: 1, max: 5000 }),
        fc.nat(3),
        (p, a, d, c, extra, which) => {
          const shape = { prefillTokens: p, prefillAttnTokens2: a, decodeSeqs: d, decodeContextTokens: c };
          const grown = { ...shape };
          const key = (['prefillTokens', 'prefillAttnTokens2', 'decodeSeqs', 'decodeContextTokens'] as const)[
            which
          ];
          grown[key] += extra;
          for (const gpu of Object.values(GPUS)) {
            expect(stepTimeS(gpu, L8B, grown)).toBeGreaterThanOrEqual(stepTimeS(gpu, L8B, shape));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('costModelTable', () => {
  const table = costModelTable();
  it('documents every GPU and model profile and the calibration rows', () => {
    for (const id of Object.keys(GPUS)) expect(table).toContain(`| ${id}`);
    for (const id of Object.keys(MODELS)) expect(table).toContain(id);
    expect(table).toContain('| prefill 4096 | 377.5 |');
    expect(table).toContain('does not fit');
  });
  it('is deterministic', () => {
    expect(costModelTable()).toBe(table);
  });
});
