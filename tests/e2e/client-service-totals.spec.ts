/**
 * Client service's totals table fits its card (no sideways scroll): with five columns the "running"
 * column was cut at 1280 and 1920 px (the card is ~260 px wide there). Queued and running now share a
 * column.
 */
import { expect, test } from '@playwright/test';
import { open, pickScenario } from './helpers';

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
]) {
  test(`Client service totals fit their card at ${viewport.width}×${viewport.height}`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await open(page);
    await pickScenario(page, 'cluster-locality-vs-load');
    await page.evaluate(() => window.fairground.runUntil(30));
    const table = page.locator('.cs-totals');
    await expect(table).toBeVisible();
    await expect(table.locator('tbody td.cs-qr').first()).toHaveText(/^\d+ \/ \d+$/);
    const over = await table.evaluate((t) => {
      const box = t.parentElement as HTMLElement;
      return box.scrollWidth - box.clientWidth;
    });
    expect(over).toBeLessThanOrEqual(0);
  });
}
