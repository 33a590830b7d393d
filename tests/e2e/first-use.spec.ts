/**
 * A first-time user's findings at projector size (1280×720 at 150 %: 853×480) and on a phone
 * (390×844, touch): the focus after a dialog opened from the Menu, presentation mode's type, the
 * phone's tap targets, and the header's tab order. Screenshots go to test-results/first-use/.
 */
import { expect, test } from '@playwright/test';
import { open } from './helpers';

const PROJECTOR = { viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 };

test('at 853×480@1.5 a dialog opened from the Menu gives the focus back to the Menu button on Escape', async ({
  browser,
}) => {
  const ctx = await browser.newContext(PROJECTOR);
  const page = await ctx.newPage();
  await open(page);
  const menu = page.getByRole('button', { name: 'Menu' });
  for (const c of [
    { opener: 'Sweep', dialog: 'Sweep' },
    { opener: 'Compare', dialog: 'Compare' },
    { opener: 'Export', dialog: 'Export' },
    { opener: 'Share', dialog: 'Share link' },
  ]) {
    await menu.focus();
    await page.keyboard.press('Enter');
    const opener = page.getByRole('button', { name: c.opener, exact: true });
    await expect(opener).toBeVisible();
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: c.dialog });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    // the opener is folded away with the menu: the focus is on the Menu button, not on the body
    await expect(menu, c.dialog).toBeFocused();
  }
  await ctx.close();
});
