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
    // a readable measure, not a mostly empty box: a tryout saw a 1,160 px dialog around ~870 px of
    // text at 1280 px; the dialog is now about as wide as its text (at most ~75 characters a line),
    // and on a phone within the screen
    const dialogBox = await dialog.boundingBox();
    const prose = await dialog.locator('.prose').evaluate((el) => {
      const r = document.createRange();
      r.selectNodeContents(el);
      return { used: r.getBoundingClientRect().width, ch: Number.parseFloat(getComputedStyle(el).fontSize) };
    });
    expect(dialogBox?.width ?? 1e9).toBeLessThanOrEqual(prose.used + 80);
    expect(dialogBox?.width ?? 1e9).toBeLessThanOrEqual(Math.min(size.width, 80 * prose.ch));
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(read).toBeFocused();
  });
