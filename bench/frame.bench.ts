/**
 * Size of the frame the UI receives (the packed ArrayBuffer the worker transfers: header + the typed
 * snapshot and new decisions as JSON), through the worker API in-process (no browser):
 *   ui.frame_bytes.default   scenarios/default.yaml after 3,000 decisions, a frame with its snapshot
 *   ui.frame_bytes.heavy     scenarios/bench-tot-100k.yaml (8 workers) after 200,000 decisions
 *   ui.frame_bytes.sandbox   scenarios/drr-burst.yaml after 6 steps (the DRR sandbox)
 * The note names the snapshot's three largest parts, so a part that grows shows where.
 * (ui.bench.ts measures the largest frame of a real browser run.)
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FairgroundApi } from '../src/worker/api';
import { FRAME_MAX_BYTES, unpackFrame } from '../src/worker/frame';
import type { Figure } from './types';

const here = dirname(fileURLToPath(import.meta.url));

async function frameAt(file: string, decisions: number): Promise<{ bytes: number; parts: string }> {
  const api = new FairgroundApi();
  const loaded = await api.load(readFileSync(join(here, '..', 'scenarios', file), 'utf8'));
  if (!loaded.ok) throw new Error(`${file} did not load`);
  let at = 0;
  while (at < decisions) {
    // light frames on the way, as the UI plays at full speed
    const f = unpackFrame(
      await api.advance({ decisions: Math.min(4096, decisions - at), snapshotEveryMs: 1e9 }),
    );
    at = f.decision_count;
    if (f.done) break;
  }
  const frame = unpackFrame(await api.advance({ decisions: 1 }));
  const snap = frame.snapshot;
  if (!snap) throw new Error('the frame has no snapshot');
  const parts = Object.entries(snap)
    .map(([k, v]) => [k, JSON.stringify(v)?.length ?? 0] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([k, n]) => `${k} ${(n / 1024).toFixed(1)} KB`)
    .join(', ');
  return { bytes: frame.bytes, parts };
}

export default async function bench(): Promise<Figure[]> {
  const target = `≤ ${FRAME_MAX_BYTES}`;
  const def = await frameAt('default.yaml', 3000);
  const heavy = await frameAt('bench-tot-100k.yaml', 200_000);
  const sandbox = await frameAt('drr-burst.yaml', 6);
  return [
    { name: 'ui.frame_bytes.default', value: def.bytes, unit: 'B', target, note: def.parts },
    { name: 'ui.frame_bytes.heavy', value: heavy.bytes, unit: 'B', target, note: heavy.parts },
    { name: 'ui.frame_bytes.sandbox', value: sandbox.bytes, unit: 'B', target, note: sandbox.parts },
  ];
}
