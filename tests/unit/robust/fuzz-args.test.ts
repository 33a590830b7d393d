/**
 * `npm run fuzz -- --help` prints the usage instead of starting a 60 s run, and a typo in an option
 * is refused rather than ignored (scripts/fuzz/args.ts). Pure parsing: no run is started here.
 */
import { describe, expect, it } from 'vitest';
import { fuzzUsage, parseFuzzArgs } from '../../../scripts/fuzz/args';

const NAMES = ['policy', 'scenario', 'script'];
const parse = (...argv: string[]) => parseFuzzArgs(argv, NAMES, 1_234_567_890);

describe('npm run fuzz: the command line', () => {
  it('--help and -h give the usage, naming every option and target', () => {
    for (const a of ['--help', '-h'])
      expect(parse('--seed', '3', a)).toEqual({ kind: 'help', text: fuzzUsage(NAMES) });
    const text = fuzzUsage(NAMES);
    expect(text.split('\n')[0]).toBe('usage: npm run fuzz [-- --seed N] [--budget-s S] [--only TARGET]');
    for (const w of ['--seed N', '--budget-s S', '--only TARGET', '--help, -h', 'policy, scenario, script'])
      expect(text).toContain(w);
  });

  it('defaults, both spellings of a value, and --only', () => {
    expect(parse()).toEqual({ kind: 'run', args: { seed: 567_890, budgetS: 60, only: undefined } });
    expect(parse('--seed', '7', '--budget-s=0.5', '--only=scen')).toEqual({
      kind: 'run',
      args: { seed: 7, budgetS: 0.5, only: 'scen' },
    });
  });

  it('refuses an unknown option, a missing or bad value, and a target that matches nothing', () => {
    const errors = [
      [['--budget', '5'], "fuzz: unknown option '--budget'"],
      [['5'], "fuzz: unknown option '5'"],
      [['--seed'], 'fuzz: --seed needs a value'],
      [['--seed', 'x'], "fuzz: --seed must be a whole number ≥ 0, got 'x'"],
      [['--seed=-1'], "fuzz: --seed must be a whole number ≥ 0, got '-1'"],
      [['--budget-s', '0'], "fuzz: --budget-s must be a number of seconds > 0, got '0'"],
      [['--budget-s='], "fuzz: --budget-s must be a number of seconds > 0, got ''"],
      [['--only', 'zzz'], "fuzz: --only 'zzz' matches no target; targets: policy, scenario, script"],
    ] as const;
    for (const [argv, first] of errors) {
      const r = parse(...argv);
      expect(r.kind, argv.join(' ')).toBe('error');
      if (r.kind === 'error') expect(r.text.split('\n')[0]).toBe(first);
    }
  });
});
