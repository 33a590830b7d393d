/** Shared test helpers: locate ../shared and build small policies by hand. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CompiledPolicy, Profile } from '../../../src/core/drr';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The shared reference folder: ../shared next to the repository, else /work/shared. */
export function sharedDir(): string {
  const candidates = [path.resolve(repoRoot, '../shared'), '/work/shared'];
  return candidates.find((c) => existsSync(c)) ?? candidates[0];
}

/** A root profile of explicit FCFS classes (name, quantum). */
export function explicitPolicy(classes: [string, number][]): CompiledPolicy {
  const root: Profile = {
    name: '(root)',
    model: null,
    defaultFamily: null,
    buckets: [],
    classes: classes.map(([name, quantum]) => ({ name, quantum, queuePolicy: 'fcfs' as const })),
    families: [],
    cells: [],
  };
  return { root, models: [] };
}
