/**
 * `arbitrate <script.yaml>`: run an arbitration script (spec/scenario.md §3) on the policy-class
 * queue and print one JSON line per enqueue and per arbitration (spec/cli.md). A `policy_file` is
 * read relative to the script. Invalid input: every problem as `file:line:col: message`, exit 1.
 */
import { dirname, resolve } from 'node:path';
import { ArbitrationSession, outputLineJson } from '../core/drr/script-runner';
import { formatProblems } from '../format/yaml';
import { validateScriptText } from '../policy/script';
import { type CliIO, EXIT } from './io';
import { readFailure } from './read-limited';
import { wrongKindProblem } from './validate';

export async function arbitrateCommand(args: string[], io: CliIO): Promise<number> {
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length !== 1) {
    io.err('arbitrate: give exactly one script, e.g. `npm run -s sim -- arbitrate scenarios/drr-burst.yaml`');
    return EXIT.invalid;
  }
  const file = files[0];
  let text: string;
  try {
    text = io.readFile(file);
  } catch (err) {
    io.err(`${file}:1:1: cannot read the file: ${readFailure(err)}`);
    return EXIT.invalid;
  }
  const wrongKind = wrongKindProblem(text, file, 'script');
  if (wrongKind !== null) {
    io.err(formatProblems([wrongKind], file));
    return EXIT.invalid;
  }
  const base = dirname(resolve(file));
  const res = validateScriptText(text, { readFile: (rel) => io.readFile(resolve(base, rel)) });
  if (!res.ok) {
    io.err(formatProblems(res.problems, file));
    return EXIT.invalid;
  }
  // Written in chunks: a `pop: {count: 1000000}` must not build one giant string.
  const session = new ArbitrationSession(res.value, { record: false });
  let chunk: string[] = [];
  for (let step = session.step(); step; step = session.step()) {
    chunk.push(outputLineJson(step.line));
    if (chunk.length === 1000) {
      io.out(chunk.join('\n'));
      chunk = [];
    }
  }
  if (chunk.length > 0) io.out(chunk.join('\n'));
  return EXIT.ok;
}
