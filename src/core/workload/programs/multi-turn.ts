/**
 * `multi-turn`: a conversation. Turn 1 = system prompt + new user tokens; turn k+1 = turn k's full
 * context (its prompt and its reply) + new user tokens, submitted think_time_s after turn k's reply
 * completes. Only the in-flight turn is remembered.
 */
import type { ProgramSpec } from '../../input';
import type { Rng } from '../../prng';
import { sampleSeconds, sampleTokens } from '../lengths';
import { StreamPrompt, withReply } from '../prompt';
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
  /** The in-flight turn (1-based), its request and prompt. */
  turn: number;
  request: RequestSpec;
  prompt: StreamPrompt;
}

class MultiTurnRunner extends FollowUpRunner<Spec, Conversation> {
  /** Turn `turn` of the conversation `conv` (only its program id and random stream are read). */
  private turnRequest(
    conv: Pick<Conversation, 'program' | 'rng'>,
    turn: number,
    before: StreamPrompt | null,
  ): { request: RequestSpec; prompt: StreamPrompt } {
    const { ctx, spec } = this;
    const rng = conv.rng.fork(`turn ${turn}`);
    const id = `${conv.program}.${turn - 1}`;
    const fresh = { label: `${id}/new`, count: sampleTokens(rng, spec.prompt_tokens) };
    // turn 1: the shared system prompt (context of every conversation); then the turn's new tokens
    const base = before ?? this.sharedPrefix(sharedPiece(ctx, 'system', spec.shared_prefix_tokens));
    const prompt = StreamPrompt.build(base, [fresh], false);
    const request = makeRequest(ctx, {
      id,
      prompt,
      ...drawOutput(this.ctx, rng, spec.output_tokens),
      program: conv.program,
      node: `turn ${turn}`,
    });
    return { request, prompt };
  }

  start(instance: number): RequestSpec[] {
    const program = programId(this.ctx, instance);
    const rng = this.ctx.rng.fork(`#${instance}`);
    const { request, prompt } = this.turnRequest({ program, rng }, 1, null);
    const conv: Conversation = { program, rng, turns: this.spec.turns, turn: 1, request, prompt };
    if (conv.turns > 1) this.live.set(conv.request.id, conv);
    return [conv.request];
  }

  override complete(requestId: string, t: number): WorkloadEvent[] {
    const conv = this.take(requestId);
    if (!conv) return [];
    const think = sampleSeconds(conv.rng.fork(`think ${conv.turn}`), this.spec.think_time_s);
    // the previous turn's full context (its prompt and reply), then the new user tokens
    const context = withReply(conv.prompt, conv.request.id, conv.request.outputTokens);
    const next = this.turnRequest(conv, conv.turn + 1, context);
    conv.turn += 1;
    conv.request = next.request;
    conv.prompt = next.prompt;
    if (conv.turn < conv.turns) this.live.set(next.request.id, conv);
    return [{ t: t + think, kind: 'submit', request: next.request }];
  }
}

export function multiTurnRunner(ctx: ClientContext, spec: Spec): ProgramRunner {
  return new MultiTurnRunner(ctx, spec);
}
