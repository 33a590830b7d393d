import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

// A new user's tryout: `run scenarios/default.yaml --help` said "run: unknown option '--help'".
it('--help after a command prints the help (exit 0), as `help` does', () => {
  for (const args of [
    ['run', 'scenarios/default.yaml', '--help'],
    ['validate', '-h'],
  ]) {
    const r = spawnSync('node', ['node_modules/.bin/tsx', 'src/cli/main.ts', ...args], { encoding: 'utf8' });
    expect(r.status, args.join(' ')).toBe(0);
    expect(r.stdout).toMatch(/^Fairground — .*\n\nUsage:/);
    expect(r.stderr).toBe('');
  }
});
