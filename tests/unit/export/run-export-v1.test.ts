/**
 * The run export (`fairground-run` version 1) keeps the snapshot field names its files were written
 * with, although the engine's snapshot fields are snake_case now (#12): every key path the export
 * wrote before the rename (run-export-v1-paths.txt, taken from exports of these runs before it) is
 * still written. Keys may be added; none may disappear or change its spelling.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runToJson } from '../../../src/core/export';
import { replayRun } from '../../../src/worker/sweep-runner';
import { SCENARIO_DIR } from '../shipped-scenarios';

/** Runs and the decision they are exported at: together they write every key of the version 1 export. */
const CASES: [string, number][] = [
  ['default.yaml', 3000],
  ['guarantee-dlpm.yaml', 4000],
  ['guarantee-broken-dlpm.yaml', 4000],
  ['cluster-dynamo-kv-aware.yaml', 3000],
  ['vtc-on-off.yaml', 2000],
  ['cluster-locality-vs-load.yaml', 2000],
  ['drr-lanes-deadlines.yaml', 30],
  ['drr-burst.yaml', 12],
  ['drr-blocked-class.yaml', 9],
  ['multi-turn-chat.yaml', 1500],
  ['vajra-lrs.yaml', 1500],
  ['judge-s2.yaml', 2500],
];

/** Objects keyed by client, class or series name: their keys are data, not field names. */
const MAPS = new Set(['clients', 'rows', 'deficits', 'counters', 'refills']);

function paths(v: unknown, path: string, out: Set<string>, parent: string): void {
  if (Array.isArray(v)) {
    for (const x of v) paths(x, `${path}[]`, out, parent);
    return;
  }
  if (v !== null && typeof v === 'object') {
    const isMap = MAPS.has(parent);
    for (const [k, x] of Object.entries(v)) paths(x, `${path}.${isMap ? '*' : k}`, out, isMap ? '' : k);
    return;
  }
  out.add(path);
}

describe('run export, version 1', () => {
  it('writes every snapshot key path it wrote before the snake_case rename', () => {
    const pinned = readFileSync(join(__dirname, 'run-export-v1-paths.txt'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const seen = new Set<string>();
    for (const [file, decisions] of CASES) {
      const run = replayRun({ scenario: readFileSync(join(SCENARIO_DIR, file), 'utf8'), decisions });
      if (!run.ok) throw new Error(run.message);
      const doc = JSON.parse(runToJson(run.result, run)) as { snapshot: unknown };
      paths(doc.snapshot, 'snapshot', seen, '');
    }
    expect(pinned.filter((p) => !seen.has(p))).toEqual([]);
    // and the renamed fields are written with their old spelling only
    expect(
      [...seen].filter((p) => /kv_used_blocks|head_cost|raw_isl|bound_label|bulk_rounds|steps_done/.test(p)),
    ).toEqual([]);
  }, 60_000);
});
