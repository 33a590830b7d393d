/** `npm run -s sim -- <command>`: the headless twin of the playground (contract: shared spec/cli.md). */
import { type Command, EXIT, processIO } from './io';

const HELP = `Fairground — fair, locality-aware LLM request scheduling, headless.

Usage:
  npm run -s sim -- run <scenario.yaml> [--seed N] [--json] [--trace <out.jsonl>] [--policy <policy.yaml>] [--replay <trace file>] [--set key.path=value ...]
  npm run -s sim -- arbitrate <script.yaml>
  npm run -s sim -- validate <file.yaml>...
  npm run -s sim -- help

Commands:
  run        simulate a scenario on the GPU-cluster model; a summary table, or JSON with --json
  arbitrate  drive the router's policy-class DRR queue with an arbitration script; one JSON line per op
  validate   check policy, scenario and arbitration-script files; prints "ok: <file>" per valid file

Options of run:
  --seed N           seed override (0 .. 4294967295)
  --json             one JSON object on stdout instead of the summary table
  --trace <file>     write one JSON line per scheduling decision (the decision trace)
  --policy <file>    a Dynamo router policy file that replaces the scenario's router.policy
  --replay <file>    replay a request trace as the whole workload: Mooncake JSONL (timestamp ms,
                     input_length, output_length, hash_ids), Azure LLM inference or BurstGPT CSV, or
                     a CSV mapped by the scenario's trace.columns; replaces the scenario's clients and
                     scripted requests and runs until the trace's last arrival (the scenario's trace:
                     section, if any, gives format, time_scale, window and defaults)
  --set k.p=v        override a scenario key (repeatable)
  A scenario can also replay a trace by itself: trace: {file: <path relative to it>, ...}.

Exit codes: 0 success, 1 invalid input (file:line:col: message on stderr), 2 internal error.
`;

const commands: Record<string, () => Promise<Command>> = {
  run: async () => (await import('./run')).runCommand,
  arbitrate: async () => (await import('./arbitrate')).arbitrateCommand,
  validate: async () => (await import('./validate')).validateCommand,
};

export async function main(argv: string[]): Promise<number> {
  const io = processIO();
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.out(HELP);
    return name ? EXIT.ok : EXIT.invalid;
  }
  const load = commands[name];
  if (!load) {
    io.err(`unknown command '${name}'. Commands: run, arbitrate, validate, help.`);
    return EXIT.invalid;
  }
  try {
    const cmd = await load();
    return await cmd(rest, io);
  } catch (err) {
    io.err(`internal error: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT.internal;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`internal error: ${String(err)}\n`);
    process.exitCode = EXIT.internal;
  },
);
