/**
 * `validate <file.yaml>...`: checks policy, scenario and arbitration-script files, telling the kind
 * from the keys. Prints `ok: <file>` per valid file; every problem of every file goes to stderr as
 * `file:line:col: message`.
 */
import { dirname, resolve } from 'node:path';
import { formatProblems, parseYaml, type Problem, problem } from '../format/yaml';
import { isArbitrationScript, isPolicyDoc, validatePolicyText, validateScriptText } from '../policy/index';
import { CLI_BUDGET, isScenarioDoc, parseScenarioText } from '../scenario/index';
import { type CliIO, EXIT } from './io';
import { readFailure } from './read-limited';
import { streamTraceFile } from './trace-file';

export type FileKind = 'policy' | 'scenario' | 'script';

export function detectKind(value: unknown): FileKind | null {
  if (isArbitrationScript(value)) return 'script';
  if (isScenarioDoc(value)) return 'scenario';
  if (isPolicyDoc(value)) return 'policy';
  return null;
}

/**
 * When a file given to one command is of another kind (a script given to `run`, a scenario to
 * `arbitrate`, …), the one-line problem that says so and names the command to use; null when the
 * file is of the expected kind, of no known kind or not YAML (the command's own checks report those).
 */
export function wrongKindProblem(text: string, file: string, expected: FileKind): Problem | null {
  const parsed = parseYaml(text);
  if (!parsed.ok) return null;
  const kind = detectKind(parsed.value.value);
  if (kind === null || kind === expected) return null;
  const what =
    kind === 'script'
      ? `this is an arbitration script (it has \`ops\`), not ${KIND_NAME[expected]}; run it with \`fairground arbitrate ${file}\``
      : kind === 'scenario'
        ? `this is a scenario, not ${KIND_NAME[expected]}; simulate it with \`fairground run ${file}\``
        : `this is a router policy file, not ${KIND_NAME[expected]}; give it to a scenario's run with \`fairground run <scenario.yaml> --policy ${file}\`, or name it in a script's \`policy_file\``;
  return problem(1, 1, `${what} (from the repository: \`npm run -s sim -- …\`)`);
}

const KIND_NAME: Record<FileKind, string> = {
  policy: 'a policy file',
  scenario: 'a scenario',
  script: 'an arbitration script',
};

/** Problems of one file's text (empty when valid), and the kind it was read as. */
export function checkText(
  text: string,
  file: string,
  io: CliIO,
): { kind: FileKind | null; problems: Problem[] } {
  const parsed = parseYaml(text);
  if (!parsed.ok) return { kind: null, problems: parsed.problems };
  const kind = detectKind(parsed.value.value);
  if (!kind) {
    return {
      kind,
      problems: [
        problem(
          1,
          1,
          'cannot tell what kind of file this is: a scenario has `version`, `cluster` and `clients`; an arbitration script has `ops`; a policy has `policy_classes` or `models`',
        ),
      ],
    };
  }
  const base = dirname(resolve(file));
  const readFile = (rel: string) => io.readFile(resolve(base, rel));
  const res =
    kind === 'policy'
      ? validatePolicyText(text)
      : kind === 'script'
        ? validateScriptText(text, { readFile })
        : parseScenarioText(text, {
            file,
            budget: CLI_BUDGET,
            readFile,
            // traces are read as `run` reads them: streamed, with the trace cap, not the YAML cap
            readTrace: (rel, opts) => streamTraceFile(resolve(base, rel), rel, opts),
          });
  return { kind, problems: res.ok ? [] : res.problems };
}

export async function validateCommand(args: string[], io: CliIO): Promise<number> {
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length === 0) {
    io.err('validate: name at least one file, e.g. `npm run -s sim -- validate scenarios/*.yaml`');
    return EXIT.invalid;
  }
  let bad = false;
  for (const file of files) {
    let text: string;
    try {
      text = io.readFile(file);
    } catch (err) {
      io.err(`${file}:1:1: cannot read the file: ${readFailure(err)}`);
      bad = true;
      continue;
    }
    const { problems } = checkText(text, file, io);
    if (problems.length === 0) io.out(`ok: ${file}`);
    else {
      bad = true;
      io.err(formatProblems(problems, file));
    }
  }
  return bad ? EXIT.invalid : EXIT.ok;
}
