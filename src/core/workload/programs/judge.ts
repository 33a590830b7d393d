/**
 * `judge` (LLM-as-a-judge, branch-solve-merge): for one article, `dimensions` branch requests, each
 * prompt = extra prefix (the client's constant S2 padding) + article + the dimension's instruction.
 * When every branch has completed, one merge request is submitted whose prompt = extra prefix +
 * article + every branch's output (in dimension order) + a merge instruction. Token ids are
 * regenerated from their streams, so an instance only remembers lengths while branches run.
 */
import type { ProgramSpec } from '../../input';
import { type Segment, StreamPrompt } from '../prompt';
import { outputLabel } from '../tokens';
import type { RequestSpec, WorkloadEvent } from '../types';
import {
  type ClientContext,
  documentPiece,
  makeRequest,
  type ProgramRunner,
  FollowUpRunner,
  programId,
  sharedPiece,
  drawOutput,
} from './context';

type Spec = Extract<ProgramSpec, { type: 'judge' }>;

interface Evaluation {
  program: string;
  /** Extra prefix + article: context of every branch and of the merge. */
  base: StreamPrompt;
  /** Output length of each branch, by dimension. */
  outputs: number[];
  remaining: number;
  /** The merge request's output and its cap. */
  merge: { outputTokens: number; maxNewTokens: number };
  abandoned: boolean;
}

class JudgeRunner extends FollowUpRunner<Spec, Evaluation> {
  start(instance: number): RequestSpec[] {
    const { ctx, spec } = this;
    const program = programId(ctx, instance);
    const rng = ctx.rng.fork(`#${instance}`);
    const article = documentPiece(ctx, rng, program, spec.documents, spec.article_tokens);
    // a library's article is shared by the instances that draw it; a fresh one is this instance's
    const extra = sharedPiece(ctx, 'extra', spec.extra_prefix_tokens);
    const base =
      spec.documents > 0
        ? this.sharedPrompt([...extra, article])
        : StreamPrompt.build(this.sharedPrefix(extra), [article], true);
    const ev: Evaluation = {
      program,
      base,
      outputs: [],
      remaining: spec.dimensions,
      merge: drawOutput(ctx, rng.fork('merge'), spec.merge_output_tokens),
      abandoned: false,
    };
    const out: RequestSpec[] = [];
    for (let i = 0; i < spec.dimensions; i++) {
      const id = `${program}.${i}`;
      const { outputTokens, maxNewTokens } = drawOutput(ctx, rng.fork(`dimension ${i}`), spec.output_tokens);
      ev.outputs.push(outputTokens);
      const prompt = StreamPrompt.build(
        base,
        sharedPiece(ctx, `dimension/${i}`, spec.instruction_tokens),
        false,
      );
      out.push(makeRequest(ctx, { id, prompt, outputTokens, maxNewTokens, program, node: `dimension ${i}` }));
      this.live.set(id, ev);
    }
    return out;
  }

  override complete(requestId: string, t: number): WorkloadEvent[] {
    const ev = this.take(requestId);
    if (!ev) return [];
    ev.remaining -= 1;
    if (ev.abandoned || ev.remaining > 0) return [];
    const pieces: Segment[] = [];
    ev.outputs.forEach((count, i) => {
      pieces.push({ label: outputLabel(`${ev.program}.${i}`), count });
    });
    pieces.push(...sharedPiece(this.ctx, 'merge', this.spec.instruction_tokens));
    const request = makeRequest(this.ctx, {
      id: `${ev.program}.merge`,
      prompt: StreamPrompt.build(ev.base, pieces, false),
      ...ev.merge,
      program: ev.program,
      node: 'merge',
    });
    return [{ t, kind: 'submit', request }];
  }

  override reject(requestId: string): void {
    const ev = this.live.get(requestId);
    if (!ev) return;
    ev.abandoned = true;
    for (let i = 0; i < ev.outputs.length; i++) this.live.delete(`${ev.program}.${i}`);
  }
}

export function judgeRunner(ctx: ClientContext, spec: Spec): ProgramRunner {
  return new JudgeRunner(ctx, spec);
}
