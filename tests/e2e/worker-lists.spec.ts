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

// A tryout (LPM at 50 s, 1280 px) opened "+ 117 more": 123 chips in one narrow column, half the
// panel empty, the "fewer" toggle after all of them, and the legend still saying "first 6 of each
// list". Opened, the list now fills the row in columns, with its toggle at the top and at the end.
test.describe('an opened worker list at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });
  test('fills the panel in columns, folds from its top or its end, and the legend says so', async ({
    page,
  }) => {
    await openPlain(page);
    await page.getByRole('combobox', { name: 'Scenario' }).selectOption('lpm-tot-s1');
    await expect.poll(() => page.evaluate(() => window.fairground.state().decisionCount)).toBe(0);
    await page.evaluate(() => window.fairground.runUntil(50));
    const panel = page.getByRole('region', { name: 'Workers' });
    const list = page.getByRole('list', { name: 'running on worker 0' });
    await list.getByRole('button', { name: /^\+ \d+ more$/ }).click();
    const chips = list.locator('li[data-request]');
    expect(await chips.count()).toBeGreaterThan(100);
    // the chips use the panel's width: several columns, the list nearly as wide as the panel
    const xs = await chips.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().left)));
    expect(new Set(xs).size).toBeGreaterThanOrEqual(3);
    const listBox = await list.boundingBox();
    const panelBox = await panel.boundingBox();
    expect(listBox?.width ?? 0).toBeGreaterThan(0.8 * (panelBox?.width ?? 1));
    // the toggle is above the first chip, and there is one after the last
    const fewer = list.getByRole('button', { name: 'fewer', exact: true });
    const firstChip = await chips.first().boundingBox();
    expect((await fewer.boundingBox())?.y ?? 1e9).toBeLessThan(firstChip?.y ?? 0);
    await expect(panel.locator('.wk-legend')).toContainText(
      'the first 6 of each list; “+ N more” lists the rest',
    );
    await list.getByRole('button', { name: 'back to the first 6' }).click();
    await expect(chips).toHaveCount(6);
    const more = list.getByRole('button', { name: /^\+ \d+ more$/ });
    await expect(more).toBeFocused();
    await expect(more).toBeInViewport();
  });
});
