/**
 * The same scenario gives the same result in Node (the command line) and in the browser, bit for
 * bit (#15.6): every shipped cluster scenario is run to a bounded simulated time by the CLI's bundle
 * and by the page (a fresh simulation worker), and the two JSON results are compared field by field
 * with Object.is (so -0, NaN and the last bit of a float count). Only wall_time_s (this machine's
 * clock) is left out. Arbitration scripts are integer DRR arithmetic, checked against golden vectors
 * in the unit tests. A scenario that replays a trace reads it from disk in Node and from the bundled copy in the page.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { openPlain } from './helpers';

const UNTIL_S = 4;
const CLI = 'dist-cli/fairground.mjs';

/**
 * The override that bounds a scenario's run: none for one whose scripted requests come later than
 * UNTIL_S (cluster-periodic-update's, at 60 s: short, run whole), which the bound would refuse.
 */
function boundFor(text: string): string[] {
  const doc = parse(text) as { requests?: { t?: number }[] } | null;
  const late = (doc?.requests ?? []).some((r) => (r.t ?? 0) > UNTIL_S);
  return late ? [] : [`duration_s=${UNTIL_S}`];
}

const files = readdirSync('scenarios')
  .filter((f) => f.endsWith('.yaml'))
  .filter((f) => {
    const text = readFileSync(`scenarios/${f}`, 'utf8');
    return /^cluster:/m.test(text) && !/^ops:/m.test(text);
  })
  .sort();

/** Paths where two JSON values differ (numbers by Object.is), at most `limit` of them. */
function differences(a: unknown, b: unknown, path = '', out: string[] = [], limit = 20): string[] {
  if (out.length >= limit) return out;
  if (typeof a === 'number' && typeof b === 'number') {
    if (!Object.is(a, b)) out.push(`${path}: node ${a} vs browser ${b}`);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: length ${a.length} vs ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++)
      differences(a[i], b[i], `${path}[${i}]`, out, limit);
    return out;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.join() !== kb.join()) out.push(`${path}: keys ${ka.join()} vs ${kb.join()}`);
    for (const k of ka)
      if (k in b)
        differences(
          (a as Record<string, unknown>)[k],
          (b as Record<string, unknown>)[k],
          `${path}.${k}`,
          out,
          limit,
        );
    return out;
  }
  if (a !== b) out.push(`${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  return out;
}

test.describe.configure({ timeout: 240_000 });

test('the comparison covers every shipped cluster scenario', () => {
  expect(files.length).toBeGreaterThan(20);
});

// two halves, so that both test workers share the work
const HALF = Math.ceil(files.length / 2);
for (const [part, chunk] of [files.slice(0, HALF), files.slice(HALF)].entries())
  test(`shipped cluster scenarios, part ${part + 1} of 2 (${chunk[0]} to ${chunk.at(-1)}): the browser run equals the command line run bit for bit`, async ({
    page,
  }) => {
    test.skip(!existsSync(CLI), `the CLI bundle (${CLI}) is built by npm install`);
    await openPlain(page);
    const report: string[] = [];
    const setsOf = (f: string) => boundFor(readFileSync(`scenarios/${f}`, 'utf8'));
    // the command line runs the next file in its own process while the page runs this one
    const cli = (f: string) =>
      promisify(execFile)(
        'node',
        [CLI, 'run', `scenarios/${f}`, '--json', ...setsOf(f).flatMap((s) => ['--set', s])],
        { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
      );
    let next = cli(chunk[0]);
    for (const [i, f] of chunk.entries()) {
      const node = JSON.parse((await next).stdout) as Record<string, unknown>;
      if (i + 1 < chunk.length) next = cli(chunk[i + 1]);
      const text = readFileSync(`scenarios/${f}`, 'utf8');
      const sets = setsOf(f);
      const outcome = await page.evaluate(([t, s]) => window.fairground.runResult(t, s), [
        text,
        sets,
      ] as const);
      expect(outcome.ok, `${f}: ${outcome.ok ? '' : outcome.message}`).toBe(true);
      if (!outcome.ok) continue;
      const browser = { ...outcome.result } as Record<string, unknown>;
      delete node.wall_time_s;
      delete browser.wall_time_s;
      // the command line's account of how it read a trace (file, time scale): its input, not the run's result
      delete node.trace_replay;
      for (const d of differences(node, browser)) report.push(`${f} ${d}`);
    }
    expect(report).toEqual([]);
  });
