/** `npm run -s sim -- <command>`: the headless twin of the playground (contract: shared spec/cli.md). */
import { HELP } from './help';
import { type Command, EXIT, processIO, terminalSafe } from './io';

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
  // own keys only: `constructor` or `toString` is not a command
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  // `run x.yaml --help` asks for help too, not for an option named --help
  if (load !== undefined && (rest.includes('--help') || rest.includes('-h'))) {
    io.out(HELP);
    return EXIT.ok;
  }
  if (load === undefined) {
    io.err(
      `unknown command '${name.length > 80 ? `${name.slice(0, 60)}… (${name.length} characters)` : name}'. Commands: run, arbitrate, validate, help.`,
    );
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
    process.stderr.write(`internal error: ${terminalSafe(String(err))}\n`);
    process.exitCode = EXIT.internal;
  },
);
