/**
 * The CLI bundle (dist-cli/fairground.mjs, built by vite.cli.config.ts): `ensureCliBundle()` builds it
 * when it is missing or older than any source file it is made of, so `npm run -s sim` always runs the
 * current code. Build messages go to stderr: stdout carries only the command's output.
 * `node scripts/cli-bundle.mjs` builds it unconditionally (the `prepare` script).
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bundlePath = join(root, 'dist-cli', 'fairground.mjs');

/** Folders the CLI is built from (it uses core and the formats only). */
const SOURCES = ['src/cli', 'src/core', 'src/format', 'src/policy', 'src/scenario', 'src/import'];
const EXTRA = ['vite.cli.config.ts', 'package-lock.json'];

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = st.mtimeMs;
  for (const name of readdirSync(path)) m = Math.max(m, newestMtime(join(path, name)));
  return m;
}

export function bundleIsStale() {
  if (!existsSync(bundlePath)) return true;
  const built = statSync(bundlePath).mtimeMs;
  for (const p of [...SOURCES, ...EXTRA]) {
    const full = join(root, p);
    if (existsSync(full) && newestMtime(full) > built) return true;
  }
  return false;
}

/**
 * Builds into a private folder, then renames the file into place: two builds at once (parallel test
 * files, two terminals) never see each other's half-written bundle.
 */
export async function buildCliBundle() {
  const { build } = await import('vite');
  const outDir = join(root, 'dist-cli', `.build-${process.pid}-${Date.now()}`);
  await build({
    root,
    configFile: join(root, 'vite.cli.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  renameSync(join(outDir, 'fairground.mjs'), bundlePath);
  rmSync(outDir, { recursive: true, force: true });
}

export async function ensureCliBundle() {
  if (bundleIsStale()) {
    process.stderr.write('fairground: building the command line (dist-cli/fairground.mjs)…\n');
    await buildCliBundle();
  }
  return bundlePath;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildCliBundle();
}
