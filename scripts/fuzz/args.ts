/**
 * The command line of `npm run fuzz`: --help prints the usage instead of starting a run, and an
 * unknown option or a value that is not a number is refused (before, `--help` and typos such as
 * `--budget 5` were ignored and a 60 s run started; `--seed x` ran with a NaN seed).
 */

export interface FuzzArgs {
  seed: number;
  budgetS: number;
  only: string | undefined;
}

export type ParsedFuzzArgs =
  | { kind: 'run'; args: FuzzArgs }
  | { kind: 'help'; text: string }
  | { kind: 'error'; text: string };

export function fuzzUsage(targetNames: readonly string[]): string {
  return [
    'usage: npm run fuzz [-- --seed N] [--budget-s S] [--only TARGET]',
    '',
    'Mutates every format, share links and arbitration scripts for S seconds and prints the counts by',
    'outcome (valid, refused, crash, slow, bad-message); exits 1 if any input crashed, was too slow or',
    'got a bad message. The same seed gives the same inputs.',
    '',
    '  --seed N        seed of the random inputs (default: the clock, printed in the report)',
    '  --budget-s S    seconds to run, at least one input per target (default 60)',
    `  --only TARGET   only the targets whose name contains TARGET: ${targetNames.join(', ')}`,
    '  --help, -h      print this and exit',
  ].join('\n');
}

const VALUED = ['--seed', '--budget-s', '--only'] as const;

/** `argv` without node and the script; `now` is the clock (ms) for the default seed. */
export function parseFuzzArgs(
  argv: readonly string[],
  targetNames: readonly string[],
  now: number,
): ParsedFuzzArgs {
  const usage = fuzzUsage(targetNames);
  const given = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') return { kind: 'help', text: usage };
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (!(VALUED as readonly string[]).includes(name))
      return { kind: 'error', text: `fuzz: unknown option '${a.slice(0, 80)}'\n${usage}` };
    const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined) return { kind: 'error', text: `fuzz: ${name} needs a value\n${usage}` };
    given.set(name, value);
  }
  const num = (name: string, fallback: number, ok: (n: number) => boolean): number | string => {
    const v = given.get(name);
    if (v === undefined) return fallback;
    const n = Number(v);
    return v.trim() !== '' && ok(n)
      ? n
      : `fuzz: ${name} must be ${name === '--seed' ? 'a whole number ≥ 0' : 'a number of seconds > 0'}, got '${v.slice(0, 40)}'`;
  };
  const seed = num('--seed', now % 1_000_000, (n) => Number.isSafeInteger(n) && n >= 0);
  const budgetS = num('--budget-s', 60, (n) => Number.isFinite(n) && n > 0);
  if (typeof seed === 'string') return { kind: 'error', text: seed };
  if (typeof budgetS === 'string') return { kind: 'error', text: budgetS };
  const only = given.get('--only');
  if (only !== undefined && !targetNames.some((t) => t.includes(only)))
    return {
      kind: 'error',
      text: `fuzz: --only '${only.slice(0, 40)}' matches no target; targets: ${targetNames.join(', ')}`,
    };
  return { kind: 'run', args: { seed, budgetS, only } };
}
