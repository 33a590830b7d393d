import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    pool: 'threads',
    // Vitest's default is one worker fewer than the cores, which on CI's 2-core machine is a single
    // worker: the main thread only collects results, so every core runs test files.
    maxWorkers: Math.max(2, availableParallelism()),
    // Files share their worker's modules instead of each importing the whole core again: the import
    // and warm-up were a third of the run. Tests that flip a module's switch (livePrefixFaults, a
    // policy's reference flag, fake timers, a localStorage stand-in) put it back in afterEach; the
    // suite passes in shuffled order too (--sequence.shuffle).
    isolate: false,
    setupFiles: ['tests/unit/fast-check-seed.ts'],
  },
});
