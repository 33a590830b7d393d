import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELP } from '../../../src/cli/help';
import { type CliIO, EXIT, memoryIO } from '../../../src/cli/io';
import { runCommand, USAGE } from '../../../src/cli/run';
import { CLI_BUDGET } from '../../../src/scenario';

const root = join(import.meta.dirname, '../../..');
const scenario = join(root, 'scenarios/default.yaml');

/** A memory IO whose Ctrl-C arrives as soon as the run listens for it. */
function interruptedIO(): ReturnType<typeof memoryIO> & Required<Pick<CliIO, 'onInterrupt'>> {
  return {
    ...memoryIO(),
    onInterrupt: (handler) => {
      handler();
      return () => {};
    },
  };
}

describe('Ctrl-C and the exit codes (tryout)', () => {
  it('help lists every exit code, 130 (interrupted) included', () => {
    for (const code of Object.values(EXIT)) expect(HELP).toMatch(new RegExp(`\\b${code} [a-z]`));
    expect(HELP).toMatch(/130 interrupted/);
  });

  it("help names every option run's usage line accepts, and the budgets' defaults", () => {
    const options = USAGE.match(/--[a-z-]+/g) ?? [];
    expect(options.length).toBeGreaterThan(6);
    for (const o of options) expect(HELP, o).toContain(`  ${o} `);
    expect(HELP).toContain(`default ${CLI_BUDGET.memoryMb})`);
    expect(HELP).toContain(`default ${CLI_BUDGET.events.toLocaleString('en-US')})`);
  });

  it('with --json, stderr says the partial result is the JSON on stdout (not "below")', async () => {
    const io = interruptedIO();
    expect(await runCommand([scenario, '--json'], io)).toBe(130);
    const err = io.stderr.join('\n');
    expect(err).toMatch(
      /interrupted at simulated t=.*; the partial result is the JSON object on stdout \("interrupted": true\)$/,
    );
    expect(err).not.toMatch(/below/);
    expect(JSON.parse(io.stdout.join('\n')).interrupted).toBe(true);
  });

  it('without --json, stderr points to the partial summary on stdout', async () => {
    const io = interruptedIO();
    expect(await runCommand([scenario], io)).toBe(130);
    expect(io.stderr.join('\n')).toMatch(/; the partial summary is on stdout$/);
    expect(io.stdout.join('\n')).toMatch(/^\(partial: interrupted at t=/);
  });

  it("the README's command-line heading counts the lines that follow it", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const m = /^## The command line in (\w+) lines\n\n```sh\n([\s\S]*?)\n```/m.exec(readme);
    expect(m).not.toBeNull();
    const words = ['one', 'two', 'three', 'four', 'five', 'six'];
    expect(words.indexOf(m?.[1] ?? '') + 1).toBe(m?.[2].split('\n').length);
  });
});
