import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    pool: 'threads',
    setupFiles: ['tests/unit/fast-check-seed.ts'],
  },
});
