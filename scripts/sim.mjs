/**
 * `npm run -s sim -- <command> …`: runs the CLI bundle, rebuilding it first when a source file
 * changed, so the command always runs the current code at the bundle's start-up speed.
 *
 * npm runs a script in the package's root; relative paths (a scenario, `--trace out.jsonl`) are the
 * user's, so the CLI works in the directory npm was started from (INIT_CWD), as `npx fairground` does.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureCliBundle } from './cli-bundle.mjs';

const bundle = resolve(await ensureCliBundle());
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
await import(pathToFileURL(bundle).href);
