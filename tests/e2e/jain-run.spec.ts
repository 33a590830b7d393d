/**
 * Figures names the run's Jain index the way the run JSON does (tester F1): at the end of `default`
 * the page said "now: 0.448 since every client's first request" while run --json's jain_index (and
 * Export → Run as JSON, and the CLI summary) said 0.440 over jain_interval_s. Where the page claims
 * the run's figure it must be the CLI's, digit for digit, with the same window.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openPlain } from './helpers';

const CLI = 'dist-cli/fairground.mjs';

test.describe.configure({ timeout: 180_000 });

test("Figures' run figure at the end of default equals run --json's jain_index and window", async ({
  page,
}) => {
  test.skip(!existsSync(CLI), `the CLI bundle (${CLI}) is built by npm run build:cli`);
  const node = JSON.parse(
    execFileSync('node', [CLI, 'run', 'scenarios/default.yaml', '--json'], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    }),
  ) as {
    jain_index: number;
    jain_index_extend: number;
    jain_interval_s: { from: number; to: number; whole_run: boolean };
  };
  await openPlain(page);
  await page.evaluate(() => window.fairground.runUntil(1e9));
  await expect.poll(() => page.evaluate(() => window.fairground.state().done)).toBe(true);
  const figures = page.getByRole('region', { name: 'Figures' });
  const run = figures.getByTestId('jain-run');
  const { from, to } = node.jain_interval_s;
  await expect(run).toHaveText(
    // each view named (tryout T1); the system view exactly run --json's jain_index_extend
    `run: client view ${node.jain_index.toFixed(3)} · system view ${node.jain_index_extend.toFixed(3)} (as run --json, over ${from.toFixed(1)}–${to.toFixed(1)} s)`,
  );
  // the running index stays, named as what it is, and is not taken for the run's figure
  await expect(figures.getByTestId('jain-now')).toContainText("since every client's first request");
});
