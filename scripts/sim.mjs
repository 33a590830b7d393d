/**
 * `npm run -s sim -- <command> …`: runs the CLI bundle, rebuilding it first when a source file
 * changed, so the command always runs the current code at the bundle's start-up speed.
 */
import { pathToFileURL } from 'node:url';
import { ensureCliBundle } from './cli-bundle.mjs';

const bundle = await ensureCliBundle();
await import(pathToFileURL(bundle).href);
