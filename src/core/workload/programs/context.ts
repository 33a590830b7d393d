/** What every program runner gets from its client, and the interface runners implement. */
import type { ProgramClientSpec } from '../../input';
import type { Rng } from '../../prng';
import { maxOf, sampleTokens } from '../lengths';
import type { Length } from '../../input';
import { type Segment, StreamPrompt, StreamRequestSpec } from '../prompt';
import type { RequestSpec, WorkloadEvent } from '../types';

export interface ClientContext {
  readonly client: ProgramClientSpec;
  /**
   * Namespace of the client's shared parts: `group:<prefix_group>` when it names one, else
   * `client:<name>`. Stream labels of system prompts, extra prefixes and library documents start with it.
   */
  readonly ns: string;
  /** The client's program stream; forked per instance, never drawn from directly. */
  readonly rng: Rng;
  /** The namespace's stream (shared by a prefix group): lengths of library documents. */
  readonly nsRng: Rng;
}

/** Runs one client's program type: starts instances and reacts to completions. */
export interface ProgramRunner {
  /** Start instance `instance` (0, 1, ...) at t: the requests submitted now. */
  start(instance: number, t: number): RequestSpec[];
  /** Request `requestId` completed at t: follow-up submissions. Unknown ids give []. */
  complete(requestId: string, t: number): WorkloadEvent[];
  /** Request `requestId` will never complete: forget what depends on it. */
  reject(requestId: string): void;
  /** Requests the runner still waits for (it keeps state only for these): bounded-memory checks. */
  waiting(): number;
}

/**
 * The shape every runner shares: its client's context and its program spec. Runners whose requests
 * have no follow-ups keep no state and use the defaults here; the others override them.
 */
export abstract class RunnerBase<S> implements ProgramRunner {
  /** Prompts shared by instances (a system prompt, a library document), by their pieces. */
  private readonly prefixes = new Map<string, StreamPrompt | null>();

  constructor(
    protected readonly ctx: ClientContext,
    protected readonly spec: S,
  ) {}

  /**
   * The prompt of `pieces` that every instance starting with them shares (null when empty): one chain
   * per run, so its page fingerprints are computed once, and a waiting request reaches through it
   * only the one page array it keeps. Only for pieces that are the same for many instances: the map
   * keeps every one for the run.
   */
  protected sharedPrefix(pieces: readonly Segment[]): StreamPrompt | null {
    const key = pieces.map((p) => `${p.label}\u0000${p.count}`).join('\u0001');
    let p = this.prefixes.get(key);
    if (p === undefined) {
      p = StreamPrompt.extend(null, pieces, true);
      this.prefixes.set(key, p);
    }
    return p;
  }

  /** `sharedPrefix` of pieces that are not empty (a document): throws when they are. */
  protected sharedPrompt(pieces: readonly Segment[]): StreamPrompt {
    return this.sharedPrefix(pieces) ?? StreamPrompt.build(null, pieces, true);
  }

  abstract start(instance: number, t: number): RequestSpec[];

  complete(_requestId: string, _t: number): WorkloadEvent[] {
    return [];
  }

  reject(_requestId: string): void {}

  waiting(): number {
    return 0;
  }
}

/**
 * A runner with follow-ups: it remembers one value per request whose completion it waits for (the
 * `live` map, and nothing else, so its memory is bounded by the requests in flight).
 */
export abstract class FollowUpRunner<S, V> extends RunnerBase<S> {
  protected readonly live = new Map<string, V>();

  /** What was remembered for `requestId`, forgotten now (undefined when nothing was). */
  protected take(requestId: string): V | undefined {
    const v = this.live.get(requestId);
    if (v !== undefined) this.live.delete(requestId);
    return v;
  }

  override reject(requestId: string): void {
    this.live.delete(requestId);
  }

  override waiting(): number {
    return this.live.size;
  }
}

/** Program instance id: "<client>#<n>". */
export function programId(ctx: ClientContext, instance: number): string {
  return `${ctx.client.name}#${instance}`;
}

/** The client-level fields every request carries; its prompt is described (`../prompt.ts`), never held as ids. */
export function makeRequest(
  ctx: ClientContext,
  fields: Pick<RequestSpec, 'id' | 'outputTokens' | 'program' | 'node'> & {
    prompt: StreamPrompt;
    maxNewTokens: number;
  },
): RequestSpec {
  const c = ctx.client;
  const spec = new StreamRequestSpec(
    fields.id,
    c.name,
    fields.prompt,
    fields.outputTokens,
    fields.maxNewTokens,
    c.slo_class,
    fields.program,
    fields.node,
  );
  if (c.policy_class !== undefined) spec.policyClass = c.policy_class;
  if (c.model !== undefined) spec.model = c.model;
  if (c.priority !== 0) spec.priority = c.priority;
  if (c.strict_priority !== 0) spec.strictPriority = c.strict_priority;
  if (c.worker !== undefined) spec.worker = c.worker;
  if (c.due_in_s !== undefined) spec.dueInS = c.due_in_s;
  return spec;
}

/** The client's shared prefix of the given kind (system prompt, extra prefix): empty when count is 0. */
export function sharedPiece(ctx: ClientContext, kind: string, count: number): Segment[] {
  return count > 0 ? [{ label: `${ctx.ns}/${kind}`, count }] : [];
}

/**
 * The document an instance works on: from the namespace's library of `library` documents (chosen
 * uniformly; length fixed per document) or, with library 0, a fresh one for this instance.
 */
export function documentPiece(
  ctx: ClientContext,
  instRng: Rng,
  program: string,
  library: number,
  length: Length,
): { label: string; count: number } {
  if (library > 0) {
    const k = instRng.int(library);
    return { label: `${ctx.ns}/doc/${k}`, count: sampleTokens(ctx.nsRng.fork(`doc ${k}`), length) };
  }
  return { label: `${program}/doc`, count: sampleTokens(instRng, length) };
}

/**
 * One request's output: its `max_new_tokens` (the program's `max_new_tokens`, else the largest value
 * `length` can take) and its true length, drawn from `length` and cut at that cap, as a server stops
 * generating at max_new_tokens.
 */
export function drawOutput(
  ctx: ClientContext,
  rng: Rng,
  length: Length,
): { outputTokens: number; maxNewTokens: number } {
  const maxNewTokens = ctx.client.program.max_new_tokens ?? Math.max(1, Math.round(maxOf(length)));
  return { outputTokens: Math.min(sampleTokens(rng, length), maxNewTokens), maxNewTokens };
}
