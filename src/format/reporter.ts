/**
 * Collects positioned problems while cross-field rules walk a parsed document: each problem is placed
 * at the node (or, with `key: true`, the key) that `path` names. Shared by every format's rules.
 */
import { fromFile, type ParsedYaml, type Path, type Problem, problem } from './yaml';

export class Reporter {
  readonly problems: Problem[] = [];
  constructor(private readonly parsed: ParsedYaml) {}

  /** Record `message` at the node at `path` (its key with `key: true`). */
  at(path: Path, message: string, opts: { key?: boolean } = {}): void {
    const p = this.parsed.locate(path, opts);
    this.problems.push(problem(p.line, p.col, message, path));
  }

  /** Record the problems of a `policy_file` the node at `path` names, each at its place in that file. */
  from(problems: Problem[], file: string, path: Path): void {
    this.problems.push(...fromFile(problems, file, 'policy_file', this.parsed.locate(path), path));
  }

  /** 1-based line of the node at `path`, for messages that point at another place ("first at line 4"). */
  lineOf(path: Path): number {
    return this.parsed.locate(path).line;
  }
}
