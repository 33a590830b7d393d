/**
 * Size estimates of a workload from its parameters (means of the length distributions): requests
 * per program instance, expected requests in a run, and the longest context one request reaches.
 * The scenario validator uses them for its limits.
 */
import { meanOf } from './lengths';
import { type ClientSpec, isTraceClient, type ProgramSpec } from '../input';
import { expectedArrivals } from './arrival-process';
import { treeSize } from './programs/tree-of-thought';

/** Requests one program instance submits. */
export function programRequests(spec: ProgramSpec): number {
  switch (spec.type) {
    case 'single':
      return 1;
    case 'multi-turn':
      return spec.turns;
    case 'tree-of-thought':
      return treeSize(spec.depth, spec.branching);
    case 'judge':
      return spec.dimensions + 1;
    case 'long-qa':
      return spec.questions;
  }
}

/**
 * Expected requests the program clients inject in [0, durationS) (scripted requests and trace
 * clients not included: a trace's rows are counted once its file is read).
 */
export function expectedRequests(clients: readonly ClientSpec[], durationS: number): number {
  let n = 0;
  for (const c of clients)
    if (!isTraceClient(c)) n += expectedArrivals(c.arrival, durationS) * programRequests(c.program);
  return n;
}

/** Typical longest context (prompt + output) of one request of the program, from the length means. */
export function peakContextTokens(spec: ProgramSpec): number {
  switch (spec.type) {
    case 'single':
      return Math.max(meanOf(spec.prompt_tokens), spec.shared_prefix_tokens + 1) + meanOf(spec.output_tokens);
    case 'multi-turn':
      return (
        spec.shared_prefix_tokens + spec.turns * (meanOf(spec.prompt_tokens) + meanOf(spec.output_tokens))
      );
    case 'tree-of-thought':
      return (
        spec.shared_prefix_tokens +
        meanOf(spec.question_tokens) +
        spec.depth * spec.step_tokens +
        (spec.depth - 1) * meanOf(spec.thought_tokens) +
        meanOf(spec.answer_tokens)
      );
    case 'judge':
      return (
        spec.extra_prefix_tokens +
        meanOf(spec.article_tokens) +
        Math.max(
          spec.instruction_tokens + meanOf(spec.output_tokens),
          spec.dimensions * meanOf(spec.output_tokens) +
            spec.instruction_tokens +
            meanOf(spec.merge_output_tokens),
        )
      );
    case 'long-qa':
      return meanOf(spec.document_tokens) + meanOf(spec.question_tokens) + meanOf(spec.output_tokens);
  }
}
