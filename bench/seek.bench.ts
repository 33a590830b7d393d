/**
 * Seeking back on the heaviest shipped scenario (scenarios/bench-tot-100k.yaml), through the worker
 * API in-process (no comlink, no browser):
 *   seek.back_ms         play 240,000 decisions at full speed, then seek back to decision 200,000:
 *                        wall time of the seek (it restarts from the nearest restore point)
 *   seek.from_start_ms   the same target reached by a replay from decision 0 (a fresh run)
 *   seek.speedup         from_start / back (the machine-independent figure)
 *   seek.again_ms        then forward to 230,000 and back to 201,000: scrubbing in a region gets
 *                        faster, as the first replay there left restore points behind
 *   seek.points          restore points kept after the play, and their memory (seek.points_mb)
 *   seek.copy_share      share of the play's wall time spent copying (restore points' own account)
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FairgroundApi } from '../src/worker/api';
import { unpackFrame } from '../src/worker/frame';
import type { Figure } from './types';

const here = dirname(fileURLToPath(import.meta.url));
const TEXT = readFileSync(join(here, '..', 'scenarios', 'bench-tot-100k.yaml'), 'utf8');
const PLAY = 240_000;
const TARGET = 200_000;

/** Play to PLAY decisions at full speed, as the UI does (~12 ms slices, snapshots now and then). */
async function play(api: FairgroundApi): Promise<number> {
  const start = performance.now();
  let at = 0;
  while (at < PLAY) {
    const frame = await api.advance({
      decisions: Math.min(4096, PLAY - at),
      maxWallMs: 12,
      snapshotEveryMs: 100,
    });
    at = unpackFrame(frame).decision_count;
  }
  return performance.now() - start;
}

async function seekMs(api: FairgroundApi, decision: number): Promise<number> {
  const start = performance.now();
  for (;;) if ((await api.seek({ decision }, 1000)).finished) break;
  return performance.now() - start;
}

export default async function bench(): Promise<Figure[]> {
  const withPoints = new FairgroundApi();
  await withPoints.load(TEXT);
  const playMs = await play(withPoints);
  const points = await withPoints.restorePoints();
  const backMs = await seekMs(withPoints, TARGET);
  await seekMs(withPoints, 230_000);
  const againMs = await seekMs(withPoints, TARGET + 1000);

  const fresh = new FairgroundApi();
  await fresh.load(TEXT);
  const fromStartMs = await seekMs(fresh, TARGET);
  return [
    {
      name: 'seek.back_ms',
      value: Math.round(backMs),
      unit: 'ms',
      note: `to decision ${TARGET} after ${PLAY}`,
    },
    {
      name: 'seek.from_start_ms',
      value: Math.round(fromStartMs),
      unit: 'ms',
      note: 'replay from decision 0',
    },
    { name: 'seek.speedup', value: Number((fromStartMs / backMs).toFixed(1)), unit: 'x' },
    {
      name: 'seek.again_ms',
      value: Math.round(againMs),
      unit: 'ms',
      note: `back to ${TARGET + 1000} after 230000`,
    },
    {
      name: 'seek.points',
      value: points.decisions.length,
      unit: 'points',
      note: points.failed ?? `at ${points.decisions.map((d) => `${Math.round(d / 1000)}k`).join(', ')}`,
    },
    { name: 'seek.points_mb', value: Number((points.bytes / 1e6).toFixed(1)), unit: 'MB', target: '≤ 201' },
    {
      name: 'seek.copy_share',
      value: Number((points.copyMs / playMs).toFixed(2)),
      unit: 'of play',
      target: '≤ 0.2',
    },
  ];
}
