/**
 * Writes tests/unit/cli/trace-v1-keys.json, the pin of the CLI's `--trace` keys (trace-v1.test.ts):
 * runs every case of TRACE_CASES through `run --trace` in memory, merges the key order of every line
 * (trace-keys.ts), sorts the groups by name and formats the JSON as biome does.
 *
 *   npx tsx scripts/trace-v1-keys.ts            rewrite the pin from the current code
 *   npx tsx scripts/trace-v1-keys.ts --check    exit 1, printing the first difference, when it differs
 *
 * The pin holds the keys the lines wrote before the snake_case rename (#12.4): regenerate it only when
 * a trace change is meant to change them, and say so in the commit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { memoryIO } from '../src/cli/io';
import { runCommand } from '../src/cli/run';
import {
  type KeyOrder,
  keyOrderJson,
  mergeKeyOrder,
  TRACE_CASES,
  type TraceLine,
} from '../tests/unit/cli/trace-keys';

const root = resolve(import.meta.dirname, '..');
const pinFile = join(root, 'tests/unit/cli/trace-v1-keys.json');

async function traceLines(file: string, sets: readonly string[]): Promise<TraceLine[]> {
  const files: Record<string, string> = {
    's.yaml': readFileSync(join(root, 'scenarios', file), 'utf8'),
  };
  const io = memoryIO(files);
  const code = await runCommand(['s.yaml', '--trace', 't.jsonl', '--set', ...sets], io);
  if (code !== 0) throw new Error(`${file} ${sets.join(' ')}: exit ${code}\n${io.stderr.join('\n')}`);
  return files['t.jsonl']
    .trim()
    .split('\n')
    .map((l): TraceLine => JSON.parse(l));
}

/** The pin's text for the current code. */
async function traceKeysJson(): Promise<string> {
  const seen: KeyOrder = {};
  for (const [, file, sets] of TRACE_CASES) mergeKeyOrder(await traceLines(file, sets), seen);
  return keyOrderJson(seen, root);
}

const text = await traceKeysJson();
if (process.argv.includes('--check')) {
  const pinned = readFileSync(pinFile, 'utf8');
  if (pinned === text) console.log(`${pinFile}: identical (${text.length} bytes)`);
  else {
    const a = pinned.split('\n');
    const b = text.split('\n');
    const i = a.findIndex((l, j) => l !== b[j]);
    console.error(`${pinFile}: differs from the current code at line ${i + 1}:`);
    console.error(`  pinned:    ${a[i]}`);
    console.error(`  generated: ${b[i]}`);
    process.exitCode = 1;
  }
} else {
  writeFileSync(pinFile, text);
  console.log(`wrote ${pinFile} (${text.length} bytes)`);
}
