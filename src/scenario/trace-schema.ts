/** `trace:` — replay a request trace file as (part of) the workload. */
import { z } from 'zod';
import { TRACE_FORMATS } from '../core/trace/types';
import { MAX_COLUMN_NAME_CHARS } from '../format/trace';
import { SLO_CLASSES, type SloClass } from '../core/workload/types';
import { int, label, name, num } from './fields';
import { SCENARIO_LIMITS } from './limits';

/** A `columns` entry: its messages name the key (`columns.input`), its hover text the role. */
const column = (key: string, role: string) =>
  z
    .string({ error: `columns.${key} must be a column name` })
    .min(1, { error: `columns.${key} must not be empty` })
    .max(MAX_COLUMN_NAME_CHARS, {
      error: `columns.${key} must be at most ${MAX_COLUMN_NAME_CHARS} characters`,
    })
    .optional()
    .meta({ description: `Header name of the ${role} column.` });

/** The keys of a trace section that say how to read the file and which rows to replay. */
const readingKeys = {
  file: z
    .string({ error: 'file must be a path' })
    .min(1, { error: 'file must not be empty' })
    .max(4096)
    .optional()
    .meta({
      description:
        'Trace file, relative to this scenario (CLI; `run --replay <file>` gives or replaces it). In the playground: the file you drop on the page or pick in Import.',
    }),
  format: z
    .enum(['auto', ...TRACE_FORMATS] as const, {
      error: `format must be one of 'auto', ${TRACE_FORMATS.map((f) => `'${f}'`).join(', ')}`,
    })
    .default('auto')
    .meta({
      description:
        "mooncake (JSON lines: timestamp ms, input_length, output_length, hash_ids) | azure (CSV TIMESTAMP, ContextTokens, GeneratedTokens) | burstgpt (CSV Timestamp, Model, Request tokens, Response tokens) | csv (any header, with columns) | auto (default: by the first line's shape and the header's names).",
    }),
  columns: z
    .strictObject({
      timestamp: column('timestamp', 'timestamp'),
      input: column('input', 'input (prompt) tokens'),
      output: column('output', 'output tokens'),
      client: column('client', 'client'),
      model: column('model', 'model'),
      class: column('class', 'policy class'),
    })
    .optional()
    .meta({
      description:
        'CSV column names (header names, case-insensitive): timestamp, input, output, and optionally client, model, class. Required for format csv; overrides the layout’s for azure/burstgpt.',
    }),
  time_unit: z
    .enum(['s', 'ms', 'us', 'datetime'] as const, {
      error: "time_unit must be 's', 'ms', 'us' or 'datetime'",
    })
    .optional()
    .meta({
      description:
        'How timestamps read: s, ms, us, or datetime (2023-11-16 18:15:46.68, UTC). Default: ms for mooncake, datetime for azure, s otherwise.',
    }),
  time_scale: num('time_scale', 0, 1000, true).default(1).meta({
    description: 'Simulated seconds per trace second: 0.5 replays twice as fast, 2 half as fast (default 1).',
  }),
  start_s: num('start_s', 0, 1e9)
    .default(0)
    .meta({ description: 'Window start, seconds of trace time after its first arrival (default 0).' }),
  stop_s: num('stop_s', 0, 1e9)
    .optional()
    .meta({ description: 'Window end, seconds of trace time after its first arrival (default: the end).' }),
  max_requests: int('max_requests', 1, 10_000_000)
    .optional()
    .meta({ description: 'Replay at most this many requests of the window (default: all).' }),
  block_tokens: int('block_tokens', 1, 1_000_000)
    .default(512)
    .meta({ description: 'Tokens per prefix block of hash_ids (Mooncake: 512; default 512).' }),
};

export const traceSchema = z
  .strictObject({
    ...readingKeys,
    client: name('client')
      .default('trace')
      .meta({ description: "Client of rows without a client column value (default 'trace')." }),
    slo_class: z
      .enum(SLO_CLASSES as [SloClass, ...SloClass[]], {
        error: 'slo_class must be one of critical, standard, batch, sheddable, background',
      })
      .default('standard')
      .meta({ description: 'SLO class of every trace request (default standard).' }),
    policy_class: label('policy_class').optional().meta({
      description: 'Class (or family) trace requests ask for at the router, unless the class column says.',
    }),
    model: label('model')
      .optional()
      .meta({ description: 'Model name for the router’s policy profile, unless the model column says.' }),
  })
  .meta({
    description: `Replay a request trace: each row is one request at its (scaled) arrival time; rows at or after duration_s (≤ ${SCENARIO_LIMITS.maxDurationS} s) are not replayed. Mooncake hash_ids give real shared prefixes.`,
  });

export type TraceSpec = z.output<typeof traceSchema>;

/** Keys of the top-level `trace:` that a client's trace takes from its client entry instead. */
export const CLIENTS_OWN_KEYS = ['client', 'slo_class', 'policy_class', 'model'] as const;

/** A key of the top-level `trace:` that a client's trace takes from its client entry instead. */
function clientsOwn(key: string, why: string) {
  return z
    .custom<never>(() => false, { error: `${key} does not belong in a client's trace: ${why}` })
    .optional()
    .meta({ description: `Not here: ${why}.` });
}

/**
 * `clients[].trace`: the client's requests are the rows of a request trace. The same keys as the
 * top-level `trace:` say how to read the file and which rows to replay; `file` is required (the page
 * matches a dropped file by this name). Every replayed row is a request of this client, with the
 * client's own slo_class, policy_class, model, priority, strict_priority, worker and due_in_s (the
 * trace's class and model columns still override policy_class and model per row).
 */
export const clientTraceSchema = z
  .strictObject({
    ...readingKeys,
    file: z
      .string({ error: "file must be a path (a client's trace needs its file)" })
      .min(1, { error: "file must not be empty (a client's trace needs its file)" })
      .max(4096)
      .meta({
        description:
          'Trace file, relative to this scenario (required). In the playground: a trace bundled with the shipped scenarios, or a file you drop on the page (or pick in Import) with this name.',
      }),
    select_client: name('select_client').optional().meta({
      description:
        "Replay only the rows whose client column (columns.client) holds this name, to split a trace of several clients among the scenario's clients; the window still counts trace time from the file's first arrival, so clients of one file stay aligned.",
    }),
    client: clientsOwn(
      'client',
      "every row of a client's trace is a request of this client (its name); to replay one client of a file, use select_client",
    ),
    slo_class: clientsOwn('slo_class', 'give slo_class on the client, one level up'),
    policy_class: clientsOwn(
      'policy_class',
      "give policy_class on the client, one level up (the trace's class column still overrides it per row)",
    ),
    model: clientsOwn(
      'model',
      "give model on the client, one level up (the trace's model column still overrides it per row)",
    ),
  })
  .meta({
    description:
      "Replay a request trace as this client's requests (instead of arrival and program): the same keys as the top-level trace: for reading the file and choosing its rows; file is required; every replayed row is this client's, with the client's slo_class, policy_class, model, priority, strict_priority, worker and due_in_s.",
  });

/** `clients[].trace` with defaults applied (the misplaced keys are always absent). */
export type ClientTraceSpec = Omit<
  z.output<typeof clientTraceSchema>,
  'client' | 'slo_class' | 'policy_class' | 'model'
>;

/** Just the reading keys of a trace section (other keys pass through unchecked). */
export const TraceReadingSchema = z.looseObject(readingKeys);
