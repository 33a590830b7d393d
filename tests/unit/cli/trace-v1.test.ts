/**
 * The CLI's `--trace` lines keep their spelling although the engine's decision records are snake_case
 * now (#12). trace-v1-keys.json holds, per kind of record and algorithm, the keys of every object the
 * lines wrote before the rename, in their written order (taken from these runs on the commit before
 * it; the lines were also compared byte for byte then). Here every pinned key must still be written,
 * in the pinned order; keys may be added, none may disappear or change its spelling. And the records
 * the playground gets (a snapshot's `recent`) are snake_case at every level.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { memoryIO } from '../../../src/cli/io';
import { runCommand } from '../../../src/cli/run';
import { traceRecordV1 } from '../../../src/core/export';
import type { LocalDecisionDetail, RouteDecisionDetail } from '../../../src/core/algorithms/details';
import { type DecisionRecord, Simulation } from '../../../src/core/sim';
import type { AdmitFacts, DispatchFacts } from '../../../src/core/sim/decision';
import { applyOverrides, parseScenarioText } from '../../../src/scenario';
import { SCENARIO_DIR } from '../shipped-scenarios';
import { type KeyOrder, keyOrderJson, mergeKeyOrder, objects, TRACE_CASES } from './trace-keys';

const pinned: KeyOrder = JSON.parse(readFileSync(join(__dirname, 'trace-v1-keys.json'), 'utf8'));

async function traceLines(file: string, sets: readonly string[]): Promise<string[]> {
  const files: Record<string, string> = { 's.yaml': readFileSync(join(SCENARIO_DIR, file), 'utf8') };
  const io = memoryIO(files);
  expect(await runCommand(['s.yaml', '--trace', 't.jsonl', '--set', ...sets], io)).toBe(0);
  return files['t.jsonl'].trim().split('\n');
}

/** Pinned keys missing from `seen` or written out of the pinned order, as `group path: problem`. */
function departures(seen: KeyOrder): string[] {
  const out: string[] = [];
  for (const [group, paths] of Object.entries(pinned))
    for (const [path, keys] of Object.entries(paths)) {
      const written = seen[group]?.[path] ?? [];
      const missing = keys.filter((k) => !written.includes(k));
      if (missing.length > 0) out.push(`${group} ${path}: missing ${missing.join(', ')}`);
      const order = written.filter((k) => keys.includes(k));
      const expected = keys.filter((k) => written.includes(k));
      if (order.join() !== expected.join()) out.push(`${group} ${path}: order ${order.join(', ')}`);
    }
  return out;
}

describe('--trace lines, version 1', () => {
  it('write every key they wrote before the snake_case rename, in the same order', async () => {
    const seen: KeyOrder = {};
    for (const [, file, sets] of TRACE_CASES)
      mergeKeyOrder(
        (await traceLines(file, sets)).map((l) => JSON.parse(l)),
        seen,
      );
    expect(departures(seen)).toEqual([]);
  }, 60_000);

  it('the pin is laid out as scripts/trace-v1-keys.ts writes it (so a regenerated pin diffs only in keys)', () => {
    const text = readFileSync(join(__dirname, 'trace-v1-keys.json'), 'utf8');
    expect(keyOrderJson(pinned, join(__dirname, '../../..'))).toBe(text);
    // groups in name order: a regenerated file keeps them where they are
    expect(Object.keys(pinned)).toEqual(Object.keys(pinned).sort());
  });

  it('the pin fails when a field is written under its new name or moved', () => {
    const seen: KeyOrder = JSON.parse(JSON.stringify(pinned));
    const visit = seen['drr-pop']['detail.visits[]'];
    visit[visit.indexOf('headCost')] = 'head_cost';
    const vtc = seen['admit/vtc'].detail;
    vtc.push(...vtc.splice(vtc.indexOf('chosenClient'), 1));
    expect(departures(seen).map((d) => d.split(':')[0])).toEqual([
      'admit/vtc detail',
      'drr-pop detail.visits[]',
    ]);
    expect(departures(seen)[1]).toBe('drr-pop detail.visits[]: missing headCost');
  });
});

describe('decision records in snapshots', () => {
  it('are snake_case at every level, and the trace mapper is what renames them', () => {
    const bad = new Set<string>();
    let renamed = 0;
    for (const [, file, sets] of TRACE_CASES) {
      const text = applyOverrides(readFileSync(join(SCENARIO_DIR, file), 'utf8'), [...sets]);
      if (!text.ok) throw new Error(JSON.stringify(text.problems));
      const parsed = parseScenarioText(text.value, { file });
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
      const sim = new Simulation(parsed.value, { record: true });
      const records: DecisionRecord[] = [];
      sim.onDecision = (d) => records.push(d);
      sim.runToEnd();
      records.push(...sim.snapshot().recent);
      for (const d of records) {
        const found: [string, object][] = [];
        objects(d, '', found);
        for (const [path, o] of found)
          for (const k of Object.keys(o)) if (!/^[a-z][a-z0-9_]*$/.test(k)) bad.add(`${d.kind} ${path}.${k}`);
        if (JSON.stringify(traceRecordV1(d)) !== JSON.stringify(d)) renamed++;
      }
    }
    expect([...bad]).toEqual([]);
    expect(renamed).toBeGreaterThan(100);
  }, 60_000);
});

/** Keys an algorithm's detail shares with the facts it is spread over (one key in the record, the detail's value). */
type SharedKeys<F, D> = D extends unknown ? Extract<keyof D, keyof F> : never;

describe('algorithm details spread over the facts of their record', () => {
  it("share no key but DLPM's `waiting` (a shared key collapses into one and moves in the --trace line)", () => {
    // Preble's prompt length is `prompt_len` for this reason; DLPM's `waiting` (the queue when its scan
    // began) has always replaced the replica's count in the record, and the trace keeps it so
    expectTypeOf<SharedKeys<AdmitFacts, LocalDecisionDetail>>().toEqualTypeOf<'waiting'>();
    expectTypeOf<SharedKeys<DispatchFacts, RouteDecisionDetail>>().toEqualTypeOf<never>();
  });
});
