import { expect, test } from '@playwright/test';
import { open, playhead } from './helpers';

// Export left out every drawing under 80 × 60 px (meant for icons), so a worker's radix tree of one
// or two rows (20 or 40 px high) could not be exported while on screen. Every view's drawing is
// offered now, whatever its size; legend swatches (no viewBox) are not.
test('Export offers a small radix tree, and every drawn view', async ({ page }) => {
  await open(page);
  await page.evaluate(() => window.fairground.step(20));
  await expect.poll(() => playhead(page)).toBe(20);
  const summary = page.locator('summary', { hasText: /^radix tree/ }).first();
  await summary.click();
  const tree = page.locator('svg.radix-svg').first();
  await expect(tree).toBeVisible();
  const box = await tree.boundingBox();
  expect(box?.height, 'a tree of one or two rows').toBeLessThan(60);
  const label = (await tree.getAttribute('aria-label'))?.split(':')[0] ?? '';
  expect(label).toMatch(/^Radix prefix tree of worker \d+$/);
  const drawn = await page.evaluate(
    () =>
      [...document.querySelectorAll('.workspace svg[viewBox]')].filter((s) => {
        const b = s.getBoundingClientRect();
        return !s.parentElement?.closest('svg') && b.width > 0 && b.height > 0;
      }).length,
  );
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await expect(dialog.getByRole('button', { name: new RegExp(`${label} as SVG$`) })).toHaveCount(1);
  await expect(dialog.getByRole('button', { name: / as SVG$/ })).toHaveCount(drawn);
});
