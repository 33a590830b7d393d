/**
 * `long-qa`: one long document per arrival (fresh, or drawn from a library of `documents` so that
 * documents are reused across arrivals and across a prefix group) and `questions` short questions
 * over it, all submitted at the arrival; each prompt = document + question. No dependencies.
 */
import type { ProgramSpec } from '../../input';
import { sampleTokens } from '../lengths';
import { StreamPrompt } from '../prompt';
import type { RequestSpec } from '../types';
import {
  type ClientContext,
  documentPiece,
  makeRequest,
  type ProgramRunner,
  RunnerBase,
  programId,
  drawOutput,
} from './context';

type Spec = Extract<ProgramSpec, { type: 'long-qa' }>;

class LongQaRunner extends RunnerBase<Spec> {
  start(instance: number): RequestSpec[] {
    const { ctx, spec } = this;
    const program = programId(ctx, instance);
    const rng = ctx.rng.fork(`#${instance}`);
    const doc = documentPiece(ctx, rng, program, spec.documents, spec.document_tokens);
    // the document: context of every question
    const docPrompt = spec.documents > 0 ? this.sharedPrompt([doc]) : StreamPrompt.build(null, [doc], true);
    const out: RequestSpec[] = [];
    for (let q = 0; q < spec.questions; q++) {
      const id = `${program}.${q}`;
      const qRng = rng.fork(`question ${q}`);
      const question = { label: `${id}/new`, count: sampleTokens(qRng, spec.question_tokens) };
      out.push(
        makeRequest(ctx, {
          id,
          prompt: StreamPrompt.build(docPrompt, [question], false),
          ...drawOutput(ctx, qRng, spec.output_tokens),
          program,
          node: `question ${q}`,
        }),
      );
    }
    return out;
  }
}

export function longQaRunner(ctx: ClientContext, spec: Spec): ProgramRunner {
  return new LongQaRunner(ctx, spec);
}
