/**
 * `multi-turn`: a conversation. Turn 1 = system prompt + new user tokens; turn k+1 = turn k's full
 * context (its prompt and its reply) + new user tokens, submitted think_time_s after turn k's reply
 * completes. Only the in-flight turn is remembered.
 */
import type { ProgramSpec } from '../../input';
import type { Rng } from '../../prng';
import { sampleSeconds, sampleTokens } from '../lengths';
import { buildTokens, fullContext } from '../tokens';
import type { RequestSpec, WorkloadEvent } from '../types';
import {
  type ClientContext,
  makeRequest,
  type ProgramRunner,
  FollowUpRunner,
  programId,
  sharedPiece,
  drawOutput,
} from './context';

type Spec = Extract<ProgramSpec, { type: 'multi-turn' }>;

interface Conversation {
  program: string;
  rng: Rng;
  turns: number;
  /** The in-flight turn (1-based) and its request. */
  turn: number;
  request: RequestSpec;
}

class MultiTurnRunner extends FollowUpRunner<Spec, Conversation> {
  /** Turn `turn` of the conversation `conv` (only its program id and random stream are read). */
  private turnRequest(
    conv: Pick<Conversation, 'program' | 'rng'>,
    turn: number,
    before: Int32Array | null,
  ): RequestSpec {
    const { ctx, spec } = this;
    const rng = conv.rng.fork(`turn ${turn}`);
    const id = `${conv.program}.${turn - 1}`;
    const fresh = { label: `${id}/new`, count: sampleTokens(rng, spec.prompt_tokens) };
    const tokens =
      before === null
        ? buildTokens([...sharedPiece(ctx, 'system', spec.shared_prefix_tokens), fresh])
        : buildTokens([{ ids: before }, fresh]);
    return makeRequest(ctx, {
      id,
      tokens,
      ...drawOutput(this.ctx, rng, spec.output_tokens),
      program: conv.program,
      node: `turn ${turn}`,
    });
  }

  start(instance: number): RequestSpec[] {
    const program = programId(this.ctx, instance);
    const rng = this.ctx.rng.fork(`#${instance}`);
    const request = this.turnRequest({ program, rng }, 1, null);
    const conv: Conversation = { program, rng, turns: this.spec.turns, turn: 1, request };
    if (conv.turns > 1) this.live.set(conv.request.id, conv);
    return [conv.request];
  }

  override complete(requestId: string, t: number): WorkloadEvent[] {
    const conv = this.take(requestId);
    if (!conv) return [];
    const think = sampleSeconds(conv.rng.fork(`think ${conv.turn}`), this.spec.think_time_s);
    const next = this.turnRequest(conv, conv.turn + 1, fullContext(conv.request));
    conv.turn += 1;
    conv.request = next;
    if (conv.turn < conv.turns) this.live.set(next.id, conv);
    return [{ t: t + think, kind: 'submit', request: next }];
  }
}

export function multiTurnRunner(ctx: ClientContext, spec: Spec): ProgramRunner {
  return new MultiTurnRunner(ctx, spec);
}
