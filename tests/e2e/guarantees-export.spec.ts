/**
 * The exported Guarantees chart carries its key (tryout B2): Export → "Guarantees — Service gap per
 * client pair" drew the pairs' lines and the dashed bound with nothing to say which was which; the
 * page's key is HTML beside the chart, so the chart's <svg> must hand it to the export (`data-legend`,
 * as TimeChart does).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openPlain, pickScenario } from './helpers';

test('the exported Guarantees chart has a key: every pair drawn, and the bound', async ({ page }) => {
  await openPlain(page);
  await pickScenario(page, 'guarantee-dlpm');
  await page.evaluate(() => window.fairground.runUntil(20));
  await expect.poll(() => page.evaluate(() => window.fairground.state().simTime)).toBeGreaterThanOrEqual(20);
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Guarantees — Service gap per client pair as SVG' }).click(),
  ]);
  const pairs = await page
    .getByRole('list', { name: 'Client pairs' })
    .locator('li[data-pair]')
    .evaluateAll((lis) => lis.map((li) => li.getAttribute('data-pair')?.replace('|', '–')));
  expect(pairs.length).toBeGreaterThan(1);
  const text = readFileSync((await download.path()) as string, 'utf8');
  const keys = [...text.matchAll(/<text([^>]*)>([^<]*)<\/text>/g)]
    .filter((m) => m[1].includes('data-key'))
    .map((m) => m[2]);
  expect(keys.length).toBe(pairs.length + 1);
  for (const [i, p] of pairs.entries()) expect(keys[i]).toContain(p);
  expect(keys[keys.length - 1]).toMatch(/^bound \d[\d\s]*( \(above the axis\))?$/);
  // the bound's swatch is dashed, as its line in the chart
  expect(text).toMatch(/<line [^>]*stroke-dasharray:5 3[^>]*data-key/);
});
