/**
 * The README's "Reproducing the DLPM paper" figures are reproduce's: the generated block in the
 * README equals what bench/reproduce-readme.ts renders from the committed bench/reproduce-results.json,
 * that file has the shape issue #11.5 fixes, and a fresh run of one workload gives exactly its rows
 * (so a model change that moves the figures fails here until the file and the README are
 * regenerated: `npm run -s reproduce -- --json > bench/reproduce-results.json`, `npx biome format --write` it, then paste
 * `npm run -s reproduce -- --readme-from bench/reproduce-results.json` into the README).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, MULTI, type Reproduction, runVariant, SINGLE } from '../../../bench/reproduce';
import { README_END, README_START, readmeBlock } from '../../../bench/reproduce-readme';

const root = join(__dirname, '../../..');
const rep = JSON.parse(readFileSync(join(root, 'bench/reproduce-results.json'), 'utf8')) as Reproduction;
const KEYS = [
  'workload',
  'workers',
  'scheduler',
  'tokens_per_s',
  'jain_index',
  'program_e2e_p99_s',
  'ttft_p99_s',
  'cache_hit_rate',
  'preemptions',
  'quantum',
  'worker_quantum',
  'charge',
];

describe('README paper section', () => {
  it('the committed reproduce --json has one row per (workload, workers, scheduler) with the fixed keys', () => {
    expect(rep.rows).toHaveLength(8 * (SINGLE.length + MULTI.length));
    for (const r of rep.rows) expect(Object.keys(r).sort()).toEqual([...KEYS].sort());
    const ids = new Set(rep.rows.map((r) => `${r.workload}/${r.workers}/${r.scheduler}`));
    expect(ids.size).toBe(rep.rows.length);
    for (const w of ['qa', 'tot', 'judge', 'chat'])
      for (const s of ['s1', 's2']) {
        for (const v of SINGLE) expect(ids.has(`${w}-${s}/1/${v.scheduler}`)).toBe(true);
        for (const v of MULTI) expect(ids.has(`${w}-${s}/4/${v.scheduler}`)).toBe(true);
      }
  });

  it('the README block is exactly what reproduce renders from it', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const a = readme.indexOf(README_START);
    const b = readme.indexOf(README_END);
    expect(a).toBeGreaterThanOrEqual(0);
    expect(b).toBeGreaterThan(a);
    expect(readme.slice(a, b + README_END.length)).toBe(readmeBlock(rep));
  });

  it('a fresh run of one workload gives the committed rows (the file is current with the model)', () => {
    const file = 'paper-chat-s2-1w.yaml';
    const s = loadScenario(file);
    for (const v of SINGLE) {
      const fresh = runVariant(file, s, v);
      const kept = rep.rows.find(
        (r) => r.workload === 'chat-s2' && r.workers === 1 && r.scheduler === v.scheduler,
      );
      expect(kept, `${v.scheduler}: regenerate bench/reproduce-results.json`).toBeDefined();
      expect(
        JSON.parse(JSON.stringify(fresh)),
        `${v.scheduler}: regenerate bench/reproduce-results.json`,
      ).toEqual(kept);
    }
  }, 120_000);
});
