/**
 * Lengths in scenario files: a constant or a distribution. Token lengths are rounded to whole tokens
 * and clipped to ≥ 1 when sampled; durations (think times) are seconds ≥ 0 and not rounded.
 */
import { z } from 'zod';
import { num } from './fields';
import { SCENARIO_LIMITS } from './limits';

const MAX = SCENARIO_LIMITS.maxTokens;

export type { Distribution, Length } from '../core/input';

/** A length as a file may write it (optional bounds left out): what generators of scenario files produce. */
export type LengthInput =
  | number
  | { dist: 'uniform'; min: number; max: number }
  | { dist: 'normal'; mean: number; std: number; min?: number; max?: number }
  | { dist: 'exponential'; mean: number; max?: number }
  | { dist: 'lognormal'; mean: number; std: number; max?: number };

function distributionSchema(unit: string, floor: number, ceiling: number) {
  const v = (what: string) => num(what, floor, ceiling);
  const uniform = z
    .strictObject({
      dist: z.literal('uniform').meta({ description: 'Uniform between min and max (inclusive).' }),
      min: v('min').meta({ description: `Smallest value, ${unit}.` }),
      max: v('max').meta({ description: `Largest value, ${unit}.` }),
    })
    // only when both bounds are readable: a bound out of range is one message, not two
    .refine((d) => d.min <= d.max, {
      error: 'min must be ≤ max',
      path: ['max'],
      when: (p) => p.issues.length === 0,
    });
  const normal = z
    .strictObject({
      dist: z.literal('normal').meta({ description: 'Normal (Gaussian), clipped to [min, max].' }),
      mean: v('mean').meta({ description: `Mean, ${unit}.` }),
      std: num('std', 0, ceiling).meta({ description: `Standard deviation, ${unit}.` }),
      min: v('min')
        .optional()
        .meta({ description: `Lower clip, ${unit} (default ${floor}).` }),
      max: v('max')
        .optional()
        .meta({ description: `Upper clip, ${unit} (default mean + 4·std).` }),
    })
    .transform((d) => ({
      dist: d.dist,
      mean: d.mean,
      std: d.std,
      min: d.min ?? floor,
      max: d.max ?? Math.min(ceiling, d.mean + 4 * d.std),
    }))
    .refine((d) => d.min <= d.max, { error: 'min must be ≤ max', path: ['max'] });
  const exponential = z
    .strictObject({
      dist: z
        .literal('exponential')
        .meta({ description: 'Exponential with the given mean, clipped at max.' }),
      mean: num('mean', 0, ceiling, true).meta({ description: `Mean, ${unit}.` }),
      max: v('max')
        .optional()
        .meta({ description: `Upper clip, ${unit} (default 10 × mean).` }),
    })
    .transform((d) => ({ dist: d.dist, mean: d.mean, max: d.max ?? Math.min(ceiling, 10 * d.mean) }));
  const lognormal = z
    .strictObject({
      dist: z.literal('lognormal').meta({
        description:
          'Lognormal with the given mean and standard deviation (of the value itself), clipped at max.',
      }),
      mean: num('mean', 0, ceiling, true).meta({ description: `Mean, ${unit}.` }),
      std: num('std', 0, ceiling).meta({ description: `Standard deviation, ${unit}.` }),
      max: v('max')
        .optional()
        .meta({ description: `Upper clip, ${unit} (default 10 × mean).` }),
    })
    .transform((d) => ({
      dist: d.dist,
      mean: d.mean,
      std: d.std,
      max: d.max ?? Math.min(ceiling, 10 * d.mean),
    }));
  return z.discriminatedUnion('dist', [uniform, normal, exponential, lognormal], {
    error: "dist must be one of 'uniform', 'normal', 'exponential', 'lognormal'",
  });
}

/** Token length: a number (≥ 1) or a distribution; sampled values are whole tokens ≥ 1. */
export function tokenLength(description: string) {
  return z.union([num('length', 1, MAX), distributionSchema('tokens', 1, MAX)]).meta({
    description: `${description} A number of tokens or {dist: uniform|normal|exponential|lognormal, ...}.`,
  });
}

/** Duration in seconds: a number (≥ 0) or a distribution. */
export function seconds(description: string) {
  return z
    .union([
      num('seconds', 0, SCENARIO_LIMITS.maxDurationS),
      distributionSchema('seconds', 0, SCENARIO_LIMITS.maxDurationS),
    ])
    .meta({ description: `${description} Seconds, or {dist: uniform|normal|exponential|lognormal, ...}.` });
}
