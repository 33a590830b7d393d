/** `single`: one independent request per arrival, optionally behind the client's system prompt. */
import type { ProgramSpec } from '../../input';
import { sampleTokens } from '../lengths';
import { StreamPrompt } from '../prompt';
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
    const length = sampleTokens(rng, spec.prompt_tokens);
    const own = Math.max(1, length - spec.shared_prefix_tokens);
    const system = this.sharedPrefix(sharedPiece(ctx, 'system', spec.shared_prefix_tokens));
    const prompt = StreamPrompt.build(system, [{ label: `${id}/new`, count: own }], false);
    return [
      makeRequest(ctx, {
        id,
        prompt,
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
