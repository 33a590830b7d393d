/**
 * Client service's totals table fits its card (no sideways scroll): with five columns the "running"
 * column was cut at 1280 and 1920 px (the card is ~260 px wide there). Queued and running now share a
 * column. One run, the window resized to each size in turn (as a reader resizes it): the table is
 * measured again at each, a failure named by its size.
 */
import { expect, test } from '@playwright/test';
import { openPlain, pickScenario, resizeTo } from './helpers';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
];

test(`Client service totals fit their card at ${SIZES.map((s) => `${s.width}×${s.height}`).join(', ')}`, async ({
  page,
}) => {
  await page.setViewportSize(SIZES[0]);
  await openPlain(page);
  await pickScenario(page, 'cluster-locality-vs-load');
  await page.evaluate(() => window.fairground.runUntil(30));
  const table = page.locator('.cs-totals');
  for (const viewport of SIZES) {
    const at = `${viewport.width}×${viewport.height}`;
    await resizeTo(page, viewport);
    await expect(table, at).toBeVisible();
    await expect(table.locator('tbody td.cs-qr').first(), at).toHaveText(/^\d+ \/ \d+$/);
    const over = await table.evaluate((t) => {
      const box = t.parentElement as HTMLElement;
      return box.scrollWidth - box.clientWidth;
    });
    expect(over, at).toBeLessThanOrEqual(0);
  }
});
