/**
 * The Sweep dialog's starting parameter changes the outcome. The default scenario's Q^u gave five
 * runs within 1 % of each other (only mallory asks for more than her share, so alice's and bob's
 * requests go first at every quantum): a sweep that showed nothing. Several workers start on the
 * worker count, one worker on the algorithm's knob.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';
import type { RunResult } from '../../../src/core/sim';
import { defaultParam, defaultRange, sweepParams } from '../../../src/ui/features/sweep-params';
import { sweepValues } from '../../../src/worker/sweep-runner';

const read = (id: string) => readFileSync(`scenarios/${id}.yaml`, 'utf8');

/** The values the dialog starts with, as it lists them ("4 points (1, 2, 3, 4)"). */
function start(text: string): { key: string; values: number[] } {
  const p = defaultParam(sweepParams(text));
  if (!p) throw new Error('nothing to sweep');
  const r = defaultRange(p);
  return { key: p.key, values: sweepValues({ ...r, integer: p.integer }) };
}

async function run(text: string, sets: string[]): Promise<RunResult> {
  const io = memoryIO({ 's.yaml': text });
  expect(await runCommand(['s.yaml', '--json', ...sets.flatMap((s) => ['--set', s])], io)).toBe(0);
  return JSON.parse(io.stdout.join(''));
}

describe("the Sweep dialog's starting parameter", () => {
  it('is the worker count on several workers, the algorithm knob on one', () => {
    expect(start(read('default'))).toEqual({ key: 'cluster.workers', values: [1, 2, 3, 4] });
    expect(start(read('paper-tot-s2-4w'))).toEqual({ key: 'cluster.workers', values: [1, 3, 5, 6, 8] });
    expect(start(read('fig1-kv-pressure'))).toEqual({
      key: 'scheduler.quantum',
      values: [625, 1250, 2500, 5000, 10000],
    });
    expect(start(read('guarantee-dlpm')).key).toBe('scheduler.quantum');
    // one worker, no knob (VTC): 1 … 4 workers rather than only 1 and 2
    expect(start(read('vtc-overload'))).toEqual({ key: 'cluster.workers', values: [1, 2, 3, 4] });
    // a scenario that leaves cluster.workers out runs the schema's 2
    const bare = read('default').replace(/^ {2}workers: 2\n/m, '');
    expect(bare).not.toMatch(/workers:/);
    expect(start(bare).key).toBe('cluster.workers');
  });

  it("changes the default scenario's outcome where Q^u did not (10 simulated seconds)", async () => {
    const text = read('default').replace(/^duration_s: .*$/m, 'duration_s: 10');
    const { key, values } = start(text);
    const tput = async (sets: string[]) => (await run(text, sets)).throughput.completed_tokens_per_s;
    const [lo, hi] = [values[0], values[values.length - 1]];
    const [a, b] = [await tput([`${key}=${lo}`]), await tput([`${key}=${hi}`])];
    expect(b / a).toBeGreaterThan(1.5);
    // the old start, Q^u 625 and 10000: the same throughput within 2 %
    const [q0, q1] = [await tput(['scheduler.quantum=625']), await tput(['scheduler.quantum=10000'])];
    expect(Math.abs(q1 / q0 - 1)).toBeLessThan(0.02);
  });
});
