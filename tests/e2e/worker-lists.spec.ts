/**
 * A worker's running and waiting lists show a few chips and "+ N more". A lecturer could not see
 * the 16th waiting request, which LPM then admitted first: the count now opens the whole list the
 * snapshot holds, in order, and closes again.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openPlain } from './helpers';

test('"+ N more" on a worker card lists every request in order, and "fewer" folds it again', async ({
  page,
}) => {
  await openPlain(page);
  const text = readFileSync('scenarios/fig1-kv-pressure.yaml', 'utf8').replace(
    /^(\s*policy:) dlpm\s*$/m,
    '$1 lpm',
  );
  await page.evaluate((t) => window.fairground.load(t), text);
  await page.waitForFunction(() => window.fairground.state().kind === 'cluster');
  await page.evaluate(() => window.fairground.runUntil(13));
  const list = page.getByRole('list', { name: 'running on worker 0' });
  await expect(list.locator('li[data-request]')).toHaveCount(6);
  const more = list.getByRole('button', { name: /^\+ \d+ more$/ });
  const hidden = Number((await more.innerText()).replace(/\D/g, ''));
  expect(hidden).toBeGreaterThan(0);
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(list.locator('li[data-request]')).toHaveCount(6 + hidden);
  await expect(list.getByRole('button', { name: 'fewer' })).toHaveAttribute('aria-expanded', 'true');
  await list.getByRole('button', { name: 'fewer' }).click();
  await expect(list.locator('li[data-request]')).toHaveCount(6);
});
