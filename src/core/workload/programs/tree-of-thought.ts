/**
 * `tree-of-thought`: the question (after an optional shared preamble) is expanded into `branching`
 * first thoughts; every node at a level below `depth` produces a thought, and when it completes its
 * `branching` children are submitted, each prompt = the node's full context (prompt + thought) +
 * the child's own step instruction. Nodes on the last level produce answers and have no children.
 * Requests per tree: Σ_{d=1..depth} branching^d. Node ids follow the branch path ("bob#3.0.1"), so
 * they do not depend on the order in which siblings finish. Only nodes whose children are still to
 * come are remembered.
 */
import type { ProgramSpec } from '../../input';
import type { Rng } from '../../prng';
import { sampleTokens } from '../lengths';
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

type Spec = Extract<ProgramSpec, { type: 'tree-of-thought' }>;

interface Parent {
  program: string;
  rng: Rng;
  level: number;
  path: string;
  id: string;
  prompt: StreamPrompt;
  outputTokens: number;
}

/** Requests in one tree. */
export function treeSize(depth: number, branching: number): number {
  let total = 0;
  let level = 1;
  for (let d = 1; d <= depth; d++) {
    level *= branching;
    total += level;
  }
  return total;
}

class TreeOfThoughtRunner extends FollowUpRunner<Spec, Parent> {
  private node(program: string, rng: Rng, level: number, path: string, before: StreamPrompt): RequestSpec {
    const spec = this.spec;
    const nodeRng = rng.fork(path);
    const id = `${program}.${path}`;
    const leaf = level === spec.depth;
    // before + the node's own step instruction (step_tokens 0: the context itself, ≥ 1 token)
    const prompt = StreamPrompt.build(before, [{ label: `${id}/step`, count: spec.step_tokens }], false);
    const request = makeRequest(this.ctx, {
      id,
      prompt,
      ...drawOutput(this.ctx, nodeRng, leaf ? spec.answer_tokens : spec.thought_tokens),
      program,
      node: `depth ${level} branch ${path}`,
    });
    if (!leaf)
      this.live.set(id, { program, rng, level, path, id, prompt, outputTokens: request.outputTokens });
    return request;
  }

  start(instance: number): RequestSpec[] {
    const { ctx, spec } = this;
    const program = programId(ctx, instance);
    const rng = ctx.rng.fork(`#${instance}`);
    // the question (after the shared preamble): context every first thought extends
    const question = StreamPrompt.build(
      this.sharedPrefix(sharedPiece(ctx, 'system', spec.shared_prefix_tokens)),
      [{ label: `${program}/question`, count: sampleTokens(rng, spec.question_tokens) }],
      true,
    );
    const out: RequestSpec[] = [];
    for (let b = 0; b < spec.branching; b++) out.push(this.node(program, rng, 1, String(b), question));
    return out;
  }

  override complete(requestId: string, t: number): WorkloadEvent[] {
    const parent = this.take(requestId);
    if (!parent) return [];
    // the parent's full context (prompt + thought), shared by its children
    const context = withReply(parent.prompt, parent.id, parent.outputTokens);
    const events: WorkloadEvent[] = [];
    for (let b = 0; b < this.spec.branching; b++) {
      const request = this.node(parent.program, parent.rng, parent.level + 1, `${parent.path}.${b}`, context);
      events.push({ t, kind: 'submit', request });
    }
    return events;
  }
}

export function treeOfThoughtRunner(ctx: ClientContext, spec: Spec): ProgramRunner {
  return new TreeOfThoughtRunner(ctx, spec);
}
