/**
 * The scenario panel is a third of the left column: a lecturer read a long description through a
 * keyhole (1280×720). "Read all" opens it in a window of its own, which Escape closes.
 */
import { expect, test } from '@playwright/test';
import { openPlain } from './helpers';

for (const size of [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
])
  test(`"Read all" shows the whole description in a dialog, and Escape brings the focus back (${size.width}×${size.height})`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await openPlain(page);
    const panel = page.locator('.scenario-panel');
    const read = panel.getByRole('button', { name: 'Read all' });
    if (size.width < 600)
      await page
        .getByRole('button', { name: /^Scenario/ })
        .first()
        .click();
    await read.click();
    const dialog = page.getByRole('dialog', { name: /^About this scenario: Default/ });
    await expect(dialog).toBeVisible();
    // the description's last words are on screen in the dialog, not only somewhere in a scroll box
    const last = dialog.locator('.prose > *').last();
    await last.scrollIntoViewIfNeeded();
    await expect(last).toBeInViewport();
    const px = await dialog
      .locator('.prose')
      .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
    expect(px).toBeGreaterThanOrEqual(14);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(read).toBeFocused();
  });
