/**
 * A scenario as far as its schema accepts it, for the cross-field rules (checks.ts) to run in the
 * same round as the schema's own problems (#15): every value a rule reads is checked on its own
 * schema, and one the schema refuses is BROKEN, so a rule that reads it is skipped rather than run
 * on a guess. For a scenario the schema accepts as a whole, every value is the one it parses to.
 */
import type { z } from 'zod';
import { vtcClientWeights } from '../core/algorithms/vtc/index';
import { GPUS, kvCapacityTokens, MODELS } from '../core/cost/index';
import type { arrivalSchema } from './arrival-schema';
import type { programSchema } from './program-schema';
import {
  chunkingSchema,
  clientObject,
  clusterInput,
  requestSchema,
  routerCommon,
  ScenarioInputSchema,
} from './schema';
import { type clientTraceSchema, traceSchema } from './trace-schema';

/** A value its schema refuses: a rule that reads it says nothing. */
export const BROKEN: unique symbol = Symbol('broken');
export type Broken = typeof BROKEN;
/** A value as its own schema reads it (defaults applied), or BROKEN. */
export type Read<T> = T | Broken;

type Mapping = { readonly [k: string]: unknown };

function isMapping(v: unknown): v is Mapping {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `value` read by `schema`, or BROKEN. */
/** The keys of a client_weights mapping that read as names (undefined: none given). */
function weightedClients(value: unknown): Read<string[]> {
  if (value === undefined) return [];
  if (!isMapping(value)) return BROKEN;
  const keySchema = vtcClientWeights.unwrap().keyType;
  return Object.keys(value).filter((k) => keySchema.safeParse(k).success);
}

function read<S extends z.ZodType>(schema: S, value: unknown): Read<z.output<S>> {
  const res = schema.safeParse(value);
  return res.success ? res.data : BROKEN;
}

export function known<T>(v: Read<T>): v is T {
  return v !== BROKEN;
}

export interface ClusterView {
  workers: Read<number>;
  gpu: Read<z.output<typeof clusterInput.shape.gpu>>;
  model: Read<z.output<typeof clusterInput.shape.model>>;
  /** kv_cache_tokens with 'auto' resolved from the GPU and model (BROKEN when either is). */
  kvTokens: Read<number>;
  /** kv_cache_tokens was 'auto'. */
  kvAuto: Read<boolean>;
  block_size: Read<number>;
  max_batch_tokens: Read<number>;
  /** chunking.chunk_tokens, max_batch_tokens when not given. */
  chunk_tokens: Read<number>;
}

type ClientTrace = z.output<typeof clientTraceSchema>;

export interface ClientView {
  name: Read<string>;
  worker: Read<number | undefined>;
  /** The client replays a trace (it writes `trace:`); else it runs a program. */
  isTrace: boolean;
  trace: Read<ClientTrace | undefined>;
  arrival: Read<z.output<typeof arrivalSchema> | undefined>;
  program: Read<z.output<typeof programSchema> | undefined>;
  /** due_in_s is written (whatever its value). */
  due: boolean;
}

export interface RequestView {
  t: Read<number>;
  client: Read<string>;
  id: Read<string | undefined>;
  prompt_tokens: Read<number>;
  output_tokens: Read<number>;
  shared_prefix: Read<string | undefined>;
  shared_prefix_tokens: Read<number>;
  worker: Read<number | undefined>;
  due: boolean;
}

export interface ScenarioView {
  duration_s: Read<number>;
  cluster: ClusterView;
  /** Which of router.policy / router.policy_file are written. */
  router: { policy: boolean; policy_file: boolean; dynamo_release: Read<string | undefined> };
  /** BROKEN: `clients` is not a list; an entry is BROKEN when it is not a mapping. */
  clients: Read<Read<ClientView>[]>;
  requests: Read<Read<RequestView>[]>;
  /** undefined: no `trace:`; BROKEN: one the schema refuses. */
  trace: Read<z.output<typeof traceSchema> | undefined>;
  /**
   * The client names `scheduler.client_weights` gives weights to under the vtc scheduler ([] under
   * another or when absent), whatever the weights (a bad weight is the schema's problem; the names
   * are checked in the same round).
   */
  vtcWeightedClients: Read<string[]>;
}

const top = ScenarioInputSchema.shape;

function clusterView(raw: Mapping): ClusterView {
  const f = clusterInput.shape;
  const gpu = read(f.gpu, raw.gpu);
  const model = read(f.model, raw.model);
  const kv = read(f.kv_cache_tokens, raw.kv_cache_tokens);
  const maxBatch = read(f.max_batch_tokens, raw.max_batch_tokens);
  const chunking = read(chunkingSchema.optional(), raw.chunking);
  let kvTokens: Read<number> = BROKEN;
  if (kv === 'auto') {
    if (known(gpu) && known(model)) kvTokens = kvCapacityTokens(GPUS[gpu], MODELS[model]);
  } else if (known(kv)) kvTokens = kv;
  return {
    workers: read(f.workers, raw.workers),
    gpu,
    model,
    kvTokens,
    kvAuto: known(kv) ? kv === 'auto' : BROKEN,
    block_size: read(f.block_size, raw.block_size),
    max_batch_tokens: maxBatch,
    chunk_tokens: !known(chunking) ? BROKEN : (chunking?.chunk_tokens ?? maxBatch),
  };
}

function clientView(raw: unknown): Read<ClientView> {
  if (!isMapping(raw)) return BROKEN;
  const f = clientObject.shape;
  return {
    name: read(f.name, raw.name),
    worker: read(f.worker, raw.worker),
    isTrace: raw.trace !== undefined,
    trace: read(f.trace, raw.trace),
    arrival: read(f.arrival, raw.arrival),
    program: read(f.program, raw.program),
    due: raw.due_in_s !== undefined,
  };
}

function requestView(raw: unknown): Read<RequestView> {
  if (!isMapping(raw)) return BROKEN;
  const f = requestSchema.shape;
  return {
    t: read(f.t, raw.t),
    client: read(f.client, raw.client),
    id: read(f.id, raw.id),
    prompt_tokens: read(f.prompt_tokens, raw.prompt_tokens),
    output_tokens: read(f.output_tokens, raw.output_tokens),
    shared_prefix: read(f.shared_prefix, raw.shared_prefix),
    shared_prefix_tokens: read(f.shared_prefix_tokens, raw.shared_prefix_tokens),
    worker: read(f.worker, raw.worker),
    due: raw.due_in_s !== undefined,
  };
}

/** A list's entries, [] when absent, BROKEN when it is not a list. */
function list<T>(raw: unknown, entry: (v: unknown) => Read<T>): Read<Read<T>[]> {
  if (raw === undefined) return [];
  return Array.isArray(raw) ? raw.map(entry) : BROKEN;
}

/** The scenario document `input` (a mapping) as far as its schema accepts each value. */
export function scenarioView(input: Mapping): ScenarioView {
  const router = isMapping(input.router) ? input.router : {};
  return {
    duration_s: read(top.duration_s, input.duration_s),
    // a cluster that is not a mapping: every value of it BROKEN (the schema says why)
    cluster: isMapping(input.cluster)
      ? clusterView(input.cluster)
      : input.cluster === undefined
        ? clusterView({})
        : {
            workers: BROKEN,
            gpu: BROKEN,
            model: BROKEN,
            kvTokens: BROKEN,
            kvAuto: BROKEN,
            block_size: BROKEN,
            max_batch_tokens: BROKEN,
            chunk_tokens: BROKEN,
          },
    router: {
      policy: router.policy !== undefined,
      policy_file: router.policy_file !== undefined,
      dynamo_release:
        input.router === undefined || isMapping(input.router)
          ? read(routerCommon.dynamo_release, router.dynamo_release)
          : BROKEN,
    },
    clients: list(input.clients, clientView),
    requests: list(input.requests, requestView),
    trace: read(traceSchema.optional(), input.trace),
    vtcWeightedClients:
      isMapping(input.scheduler) && input.scheduler.policy === 'vtc'
        ? weightedClients(input.scheduler.client_weights)
        : [],
  };
}
