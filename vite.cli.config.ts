/**
 * The command line as one plain-Node bundle (#12.8): `dist-cli/fairground.mjs`, the package's `bin`.
 * Everything (zod, yaml, the core and the formats) is bundled into one file, so a run starts without
 * a TypeScript loader or module resolution across hundreds of files. Built by `npm install`
 * (`prepare`) and by `scripts/sim.mjs` when a source file is newer than the bundle.
 */
import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

export default defineConfig({
  logLevel: 'warn',
  publicDir: false,
  build: {
    ssr: 'src/cli/main.ts',
    outDir: 'dist-cli',
    emptyOutDir: false, // scripts/cli-bundle.mjs builds into a private folder and renames
    target: 'node20',
    minify: false,
    sourcemap: false,
    reportCompressedSize: false,
    rollupOptions: {
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
      output: {
        entryFileNames: 'fairground.mjs',
        format: 'es',
        codeSplitting: false,
        banner: '#!/usr/bin/env node',
      },
    },
  },
  ssr: { noExternal: true, target: 'node' },
});
