/**
 * The Algorithm steps panel's "latest decision" (tester finding 3): at the end of the default run the
 * decision log's window (the last 200) holds only completions and steps, so a search of the window
 * alone found no DLPM decision although thousands were taken; the snapshot's `latest_algorithm`
 * keeps each algorithm's newest one.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { algorithmDetail, latestStepDecision, runListings } from '../../../src/ui/views/AlgorithmSteps';
import { LOG_LIMIT } from '../../../src/worker/api';
import { loadSession } from '../../../src/worker/load';
import type { SessionDecision } from '../../../src/worker/session';

test('the default run, played to the end: the latest decision of its algorithms is found', () => {
  const loaded = loadSession(readFileSync('scenarios/default.yaml', 'utf8'));
  if (!loaded.ok) throw new Error('default scenario loads');
  const s = loaded.session;
  const algos = runListings(s.snapshot()).map((l) => l.name);
  expect(algos.length).toBeGreaterThan(0);
  let window: SessionDecision[] = [];
  let truth: SessionDecision | null = null;
  let mid: { window: SessionDecision[]; truth: SessionDecision | null } | null = null;
  for (let d = s.step(); d; d = s.step()) {
    window.push(d);
    if (window.length > 2 * LOG_LIMIT) window = window.slice(-LOG_LIMIT);
    const det = algorithmDetail(d);
    if (det && algos.includes(det.algo)) truth = d;
    if (d.seq === 4000) mid = { window: window.slice(-LOG_LIMIT), truth };
  }
  const tail = window.slice(-LOG_LIMIT);
  expect(truth).not.toBeNull();
  // the case the window alone fails on: none of its decisions is one of these algorithms'
  expect(latestStepDecision(tail, null, algos)).toBeNull();
  const found = latestStepDecision(tail, s.snapshot(), algos);
  expect(found?.seq).toBe(truth?.seq);
  expect(found?.kind).toBe(truth?.kind);
  expect(found && algorithmDetail(found)).toEqual(truth && algorithmDetail(truth));
  // mid-run the window's own newest one is found (the snapshot's are older or the same)
  expect(mid?.truth).not.toBeNull();
  if (mid) expect(latestStepDecision(mid.window, null, algos)?.seq).toBe(mid.truth?.seq);
});
