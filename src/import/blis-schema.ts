/**
 * The BLIS input formats the importer reads, as strict zod schemas (BLIS itself rejects unknown
 * keys): the workload spec (version 2; version 1 is read with its old SLO names) and the policy
 * bundle (`--policy-config`). Key names follow the BLIS documentation and sources; parts the
 * playground cannot model are still accepted here so that the importer can say what it left out.
 */
import { z } from 'zod';

const finite = (what: string) => z.number({ error: `${what} must be a number` }).finite();
const nonNegInt = (what: string) =>
  z
    .number({ error: `${what} must be a whole number` })
    .min(0, { error: `${what} must be ≥ 0`, abort: true })
    .int({ error: `${what} must be a whole number` });
const text = (what: string) => z.string({ error: `${what} must be a string` });

export const BLIS_ARRIVAL_PROCESSES = ['poisson', 'gamma', 'weibull', 'constant'] as const;
export const BLIS_DIST_TYPES = [
  'gaussian',
  'exponential',
  'pareto_lognormal',
  'constant',
  'empirical',
] as const;
export const BLIS_SLO_CLASSES = ['', 'critical', 'standard', 'sheddable', 'batch', 'background'] as const;
/** Version-1 names that BLIS upgrades automatically. */
export const BLIS_V1_SLO_CLASSES: Readonly<Record<string, string>> = {
  realtime: 'critical',
  interactive: 'standard',
};

export const distSchema = z.strictObject({
  type: z.enum(BLIS_DIST_TYPES, {
    error: `type must be one of ${BLIS_DIST_TYPES.map((t) => `'${t}'`).join(', ')}`,
  }),
  params: z.record(z.string(), finite('a distribution parameter')).optional(),
  file: text('file').optional(),
});
export type BlisDist = z.output<typeof distSchema>;

export const arrivalSchema = z.strictObject({
  process: z.enum(BLIS_ARRIVAL_PROCESSES, {
    error: `process must be one of ${BLIS_ARRIVAL_PROCESSES.map((t) => `'${t}'`).join(', ')}`,
  }),
  cv: finite('cv').positive({ error: 'cv must be > 0' }).optional(),
  shape: finite('shape').optional(),
  scale: finite('scale').optional(),
});
export type BlisArrival = z.output<typeof arrivalSchema>;

export const multiTurnSchema = z.strictObject({
  max_rounds: z
    .number({ error: 'max_rounds must be a whole number' })
    .int()
    .min(1, { error: 'max_rounds must be ≥ 1' }),
  think_time_us: nonNegInt('think_time_us').optional(),
  context_growth: text('context_growth').optional(),
  single_session: z.boolean().optional(),
});
export type BlisMultiTurn = z.output<typeof multiTurnSchema>;

const windowSchema = z.looseObject({
  start_us: nonNegInt('start_us'),
  end_us: nonNegInt('end_us'),
});

/** Client keys shared by clients and cohorts. */
const clientFields = {
  tenant_id: text('tenant_id').optional(),
  slo_class: text('slo_class').optional(),
  model: text('model').optional(),
  rate_fraction: finite('rate_fraction').min(0, { error: 'rate_fraction must be ≥ 0' }).optional(),
  arrival: arrivalSchema.optional(),
  input_distribution: distSchema.optional(),
  output_distribution: distSchema.optional(),
  prefix_group: text('prefix_group').optional(),
  prefix_length: nonNegInt('prefix_length').optional(),
  streaming: z.boolean().optional(),
  network: z.unknown().optional(),
  multimodal: z.unknown().optional(),
  reasoning: z
    .strictObject({
      reason_ratio_distribution: distSchema.optional(),
      multi_turn: multiTurnSchema.optional(),
    })
    .optional(),
  timeout: nonNegInt('timeout').optional(),
  closed_loop: z.boolean().optional(),
  slo_target_us: nonNegInt('slo_target_us').optional(),
};

export const clientSchema = z.strictObject({
  id: text('id').optional(),
  ...clientFields,
  concurrency: nonNegInt('concurrency').optional(),
  think_time_us: nonNegInt('think_time_us').optional(),
  lifecycle: z.strictObject({ windows: z.array(windowSchema) }).optional(),
  /** Not a BLIS key (BLIS nests it under `reasoning`); read the same way, with a note. */
  multi_turn: multiTurnSchema.optional(),
});
export type BlisClient = z.output<typeof clientSchema>;

export const workloadSchema = z.strictObject({
  version: z.union([text('version'), z.number()]).optional(),
  seed: z
    .number({ error: 'seed must be a whole number' })
    .int({ error: 'seed must be a whole number' })
    .optional(),
  category: text('category').optional(),
  aggregate_rate: finite('aggregate_rate').min(0, { error: 'aggregate_rate must be ≥ 0' }).optional(),
  num_requests: nonNegInt('num_requests').optional(),
  horizon: nonNegInt('horizon').optional(),
  clients: z.array(clientSchema, { error: 'clients must be a list' }).optional(),
  cohorts: z.array(z.unknown(), { error: 'cohorts must be a list' }).optional(),
  servegen_data: z.unknown().optional(),
  inference_perf: z.unknown().optional(),
});
export type BlisWorkload = z.output<typeof workloadSchema>;

export const BLIS_ROUTINGS = [
  '',
  'round-robin',
  'least-loaded',
  'weighted',
  'prefix-affinity',
  'always-busiest',
] as const;
export const BLIS_SCHEDULERS = ['', 'fcfs', 'priority-fcfs', 'sjf', 'reverse-priority'] as const;
export const BLIS_ADMISSIONS = ['', 'always-admit', 'token-bucket', 'reject-all'] as const;
export const BLIS_PRIORITIES = ['', 'constant', 'slo-based', 'inverted-slo'] as const;

const oneOf = <T extends string>(what: string, values: readonly T[]) =>
  z.enum(values as unknown as [T, ...T[]], {
    error: `${what} must be one of ${values
      .filter((v) => v !== '')
      .map((v) => `'${v}'`)
      .join(', ')}`,
  });

export const bundleSchema = z.strictObject({
  admission: z
    .strictObject({
      policy: oneOf('admission.policy', BLIS_ADMISSIONS).optional(),
      token_bucket_capacity: finite('token_bucket_capacity').min(0).optional(),
      token_bucket_refill_rate: finite('token_bucket_refill_rate').min(0).optional(),
      slo_priorities: z.record(z.string(), finite('an SLO priority')).optional(),
    })
    .optional(),
  routing: z
    .strictObject({
      policy: oneOf('routing.policy', BLIS_ROUTINGS).optional(),
      scorers: z
        .array(
          z.strictObject({
            name: text('name'),
            weight: finite('weight').positive({ error: 'weight must be > 0' }),
          }),
        )
        .optional(),
    })
    .optional(),
  priority: z.strictObject({ policy: oneOf('priority.policy', BLIS_PRIORITIES).optional() }).optional(),
  scheduler: oneOf('scheduler', BLIS_SCHEDULERS).optional(),
});
export type BlisBundle = z.output<typeof bundleSchema>;
