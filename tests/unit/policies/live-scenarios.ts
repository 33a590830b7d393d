/**
 * The byte-for-byte comparison the live-order scenario tests share (LPM, DLPM, DFS-weight): a scenario
 * run once with the live order and once with its reference must give the same run JSON, the same
 * `--trace` lines (the record and the queue state, as the CLI writes them), the same snapshots
 * (mid-run and final), and a copy forked mid-run must finish the same.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { dlpmImplementation } from '../../../src/core/algorithms/dlpm/policy';
import { lpmImplementation } from '../../../src/core/algorithms/lpm/policy';
import { livePrefixFaults } from '../../../src/core/algorithms/shared/live-prefix-order';
import { traceRecordV1 } from '../../../src/core/export';
import { Simulation } from '../../../src/core/sim';
import { parseScenarioText } from '../../../src/scenario';
import { SCENARIO_DIR } from '../shipped-scenarios';

export interface RunBytes {
  json: string;
  trace: string[];
  snapshot: string;
  forked: string;
}

/** Run a scenario text to its end, forking a copy half way. */
export function runBytes(text: string): RunBytes {
  const parsed = parseScenarioText(text, {
    file: 'x.yaml',
    readFile: (p) => readFileSync(join(SCENARIO_DIR, p), 'utf8'),
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const sim = new Simulation(parsed.value, { record: true });
  const trace: string[] = [];
  sim.onDecision = (d) => {
    const state = {
      router_queued: sim.router.queuedCount,
      waiting: sim.workers.map((w) => w.waitingCount),
      running: sim.workers.map((w) => w.runningCount),
      kv_used_blocks: sim.workers.map((w) => w.kv.allocatedBlocks),
    };
    trace.push(JSON.stringify({ ...traceRecordV1(d), state }));
  };
  sim.runUntil(parsed.value.duration_s / 2);
  const mid = JSON.stringify(sim.snapshot());
  const copy = sim.fork().sim;
  sim.runToEnd();
  copy.runToEnd();
  return {
    json: JSON.stringify(sim.result()),
    trace,
    snapshot: mid + JSON.stringify(sim.snapshot()),
    forked: JSON.stringify(copy.result()),
  };
}

/**
 * Expect the live and the reference run of `text` to be byte-identical; `setReference` switches the
 * implementation; the reference run is returned for further checks.
 */
export function expectSameRuns(text: string, setReference: (on: boolean) => void): RunBytes {
  setReference(false);
  const live = runBytes(text);
  setReference(true);
  const ref = runBytes(text);
  expect(live.trace.length).toBe(ref.trace.length);
  for (let i = 0; i < ref.trace.length; i++)
    if (live.trace[i] !== ref.trace[i]) expect(live.trace[i]).toBe(ref.trace[i]);
  expect(live.json).toBe(ref.json);
  expect(live.snapshot).toBe(ref.snapshot);
  expect(live.forked).toBe(live.json);
  return ref;
}

/** The live and the reference run of `text` (LPM's and DLPM's switched together) are byte-identical. */
export function samePrefixOrderRuns(text: string): void {
  expectSameRuns(text, (on) => {
    lpmImplementation.reference = on;
    dlpmImplementation.reference = on;
  });
}

/** After each test of the LPM/DLPM scenario files: the live orders, without faults. */
export function resetPrefixOrders(): void {
  lpmImplementation.reference = false;
  dlpmImplementation.reference = false;
  livePrefixFaults.ignoreEvict = false;
  livePrefixFaults.ignoreSplit = false;
}
