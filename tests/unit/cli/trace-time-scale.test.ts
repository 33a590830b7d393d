import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';
import { formatTraceReplay } from '../../../src/cli/run-summary';

const root = join(import.meta.dirname, '../../..');
const chat = join(root, 'scenarios/trace-synthetic-chat.yaml'); // trace.time_scale: 0.5
const trace = join(root, 'scenarios/traces/synthetic-chat.jsonl');

async function run(...args: string[]): Promise<string> {
  const io = memoryIO();
  expect(await runCommand(args, io)).toBe(0);
  expect(io.stderr).toEqual([]);
  return io.stdout.join('\n');
}

describe('run says the time scale a trace replay applied (tryout)', () => {
  it('--replay under a scenario with trace.time_scale 0.5: JSON trace_replay and a summary line', async () => {
    const json = JSON.parse(await run(chat, '--replay', trace, '--json'));
    expect(json.trace_replay).toEqual({
      file: trace,
      time_scale: 0.5,
      start_s: 0,
      stop_s: null,
      max_requests: null,
    });
    expect(json.scenario).toBeTypeOf('string'); // the contract's keys are untouched
    const table = await run(chat, '--replay', trace);
    expect(table.split('\n')[1]).toBe(
      `trace     ${trace} at time_scale 0.5 (0.5 simulated s per trace s: 2× as fast as recorded)`,
    );
  });

  it("the scenario's own trace says it too; a run without a trace has no trace_replay", async () => {
    const json = JSON.parse(await run(chat, '--json'));
    expect(json.trace_replay.time_scale).toBe(0.5);
    expect(json.trace_replay.file).toBe('traces/synthetic-chat.jsonl');
    const plain = JSON.parse(
      await run(join(root, 'scenarios/default.yaml'), '--json', '--set', 'duration_s=5'),
    );
    expect('trace_replay' in plain).toBe(false);
  });

  it('words slower replays, windows and caps', () => {
    expect(
      formatTraceReplay({ file: 't.csv', time_scale: 2, start_s: 60, stop_s: null, max_requests: 500 }),
    ).toBe(
      'trace     t.csv at time_scale 2 (2 simulated s per trace s: 2× as slow as recorded), trace window 60 – end s, at most 500 requests',
    );
    expect(
      formatTraceReplay({ file: 't.csv', time_scale: 1, start_s: 0, stop_s: 30, max_requests: null }),
    ).toBe('trace     t.csv at time_scale 1 (1 simulated s per trace s: as recorded), trace window 0 – 30 s');
  });
});
