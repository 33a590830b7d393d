/** `clients[].arrival`: when a client starts a program instance. */
import { z } from 'zod';
import { num } from './fields';
import { SCENARIO_LIMITS } from './limits';

const rate = () =>
  num('rate', 0, SCENARIO_LIMITS.maxRate, true).meta({
    description: `Arrivals (program instances) per second, > 0 and ≤ ${SCENARIO_LIMITS.maxRate}.`,
  });
const window = {
  start_s: num('start_s', 0, SCENARIO_LIMITS.maxDurationS)
    .default(0)
    .meta({ description: 'The client starts arriving at this time, seconds (default 0).' }),
  stop_s: num('stop_s', 0, SCENARIO_LIMITS.maxDurationS)
    .optional()
    .meta({ description: 'The client stops arriving at this time, seconds (default: duration_s).' }),
};
const cv = () =>
  num('cv', 0.05, 10).meta({
    description:
      'Coefficient of variation of the gaps between arrivals (std / mean), 0.05–10. 1 = Poisson; > 1 burstier.',
  });

const poisson = z
  .strictObject({
    process: z
      .literal('poisson')
      .meta({ description: 'Poisson process: exponential gaps with mean 1 / rate.' }),
    rate: rate(),
    ...window,
  })
  .meta({ description: 'Poisson arrivals.' });

const gamma = z
  .strictObject({
    process: z
      .literal('gamma')
      .meta({ description: 'Gamma renewal process (the DLPM paper’s traces): gamma-distributed gaps.' }),
    rate: rate(),
    cv: cv().default(1),
    ...window,
  })
  .meta({ description: 'Gamma arrivals with mean rate `rate` and gap variability `cv` (default 1).' });

const constant = z
  .strictObject({
    process: z
      .literal('constant')
      .meta({ description: 'Evenly spaced arrivals every 1 / rate seconds, the first at start_s.' }),
    rate: rate(),
    ...window,
  })
  .meta({ description: 'Constant-rate arrivals.' });

const onOff = z
  .strictObject({
    process: z.literal('on-off').meta({
      description:
        'Alternating on and off phases; arrivals only while on (each period starts on, at start_s).',
    }),
    rate: rate().meta({ description: 'Arrivals per second while on (the average is rate × duty).' }),
    period_s: num('period_s', 0, SCENARIO_LIMITS.maxDurationS, true).meta({
      description: 'Length of one on + off cycle, seconds.',
    }),
    duty: num('duty', 0, 1, true)
      .default(0.5)
      .meta({ description: 'Fraction of each period that is on, in (0, 1] (default 0.5).' }),
    cv: cv().default(1).meta({ description: 'Gap variability while on (1 = Poisson, default).' }),
    ...window,
  })
  .meta({ description: 'On-off arrivals (e.g. a client silent every other minute).' });

const trace = z
  .strictObject({
    process: z.literal('trace').meta({ description: 'Explicit arrival times.' }),
    times: z
      .array(num('time', 0, SCENARIO_LIMITS.maxDurationS), { error: 'times must be a list of seconds' })
      .max(SCENARIO_LIMITS.maxTraceTimes, { error: `at most ${SCENARIO_LIMITS.maxTraceTimes} times` })
      .meta({ description: 'Arrival times in seconds (any order; times ≥ duration_s are ignored).' }),
  })
  .meta({ description: 'Trace-driven arrivals.' });

export const arrivalSchema = z
  .discriminatedUnion('process', [poisson, gamma, constant, onOff, trace], {
    error: "process must be one of 'poisson', 'gamma', 'constant', 'on-off', 'trace'",
  })
  .meta({
    description:
      'Arrival process: poisson | gamma (cv) | constant | on-off (period_s, duty) | trace (times). Each arrival starts one program.',
  });

export type ArrivalSpec = z.output<typeof arrivalSchema>;
