/**
 * `npm run bench [-- filter]`: runs every `bench/*.bench.ts` (or `<filter>.bench.ts` when there is
 * one, else those whose name contains the filter: `lpm` is lpm's, not dlpm's too), prints a table,
 * then one JSON line per figure: {"name", "value", "unit"}.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Bench, Figure } from './types';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';

async function main() {
  const all = readdirSync(here).filter((f) => f.endsWith('.bench.ts'));
  const exact = all.filter((f) => f === `${filter}.bench.ts`);
  const files = (exact.length > 0 ? exact : all.filter((f) => f.includes(filter))).sort();
  if (files.length === 0) {
    process.stderr.write(
      `bench: no benchmark matches '${filter}'; there are: ${all.map((f) => f.replace('.bench.ts', '')).join(', ')}\n`,
    );
    process.exit(1);
  }
  const figures: Figure[] = [];
  const failed: string[] = [];
  for (const f of files) {
    process.stderr.write(`bench: ${f}\n`);
    const t0 = performance.now();
    try {
      const mod = (await import(pathToFileURL(join(here, f)).href)) as { default: Bench };
      figures.push(...(await mod.default()));
      process.stderr.write(`bench: ${f} done in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    } catch (err) {
      // One broken benchmark must not hide the others' figures.
      failed.push(f);
      process.stderr.write(`bench: ${f} FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
  const rows = figures.map((f) => [f.name, formatValue(f.value), f.unit, f.target ?? '', f.note ?? '']);
  const head = ['figure', 'value', 'unit', 'target', 'note'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  console.log('');
  for (const f of figures) console.log(JSON.stringify({ name: f.name, value: f.value, unit: f.unit }));
  if (failed.length > 0) {
    console.log(`\nfailed: ${failed.join(', ')} (see stderr)`);
    process.exitCode = 1;
  }
}

function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  return Number(v.toPrecision(4)).toString();
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 2;
});
