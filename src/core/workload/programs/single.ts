/** `single`: one independent request per arrival, optionally behind the client's system prompt. */
import type { ProgramSpec } from '../../input';
import { sampleTokens } from '../lengths';
import { buildTokens } from '../tokens';
import type { RequestSpec } from '../types';
import {
  type ClientContext,
  makeRequest,
  type ProgramRunner,
  RunnerBase,
  programId,
  sharedPiece,
  drawOutput,
} from './context';

type Spec = Extract<ProgramSpec, { type: 'single' }>;

/**
 * Prompt = system prompt (shared_prefix_tokens, identical for every request) + own tokens, so that
 * its total length is prompt_tokens; at least one own token when the system prompt is as long.
 */
class SingleRunner extends RunnerBase<Spec> {
  start(instance: number): RequestSpec[] {
    const { ctx, spec } = this;
    const program = programId(ctx, instance);
    const rng = ctx.rng.fork(`#${instance}`);
    const id = `${program}.0`;
    const prompt = sampleTokens(rng, spec.prompt_tokens);
    const own = Math.max(1, prompt - spec.shared_prefix_tokens);
    const tokens = buildTokens([
      ...sharedPiece(ctx, 'system', spec.shared_prefix_tokens),
      { label: `${id}/new`, count: own },
    ]);
    return [
      makeRequest(ctx, {
        id,
        tokens,
        ...drawOutput(ctx, rng, spec.output_tokens),
        program,
        node: 'request',
      }),
    ];
  }
}

export function singleRunner(ctx: ClientContext, spec: Spec): ProgramRunner {
  return new SingleRunner(ctx, spec);
}
