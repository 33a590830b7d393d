/**
 * A sweep closed with Esc kept running with nothing on the page showing it (tryout). The Sweep
 * button now carries its progress while the dialog is closed, and opens it again.
 */
import { expect, test } from '@playwright/test';
import { openPlain } from './helpers';

test('a sweep running behind a closed dialog shows its progress on the Sweep button', async ({ page }) => {
  await openPlain(page);
  const button = page.getByRole('toolbar', { name: 'Features' }).getByRole('button', { name: /^Sweep/ });
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Sweep' });
  await dialog.getByRole('combobox', { name: 'Preset' }).selectOption('fig10');
  await dialog.getByRole('button', { name: 'Run sweep' }).click();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  const badge = button.getByTestId('sweep-running');
  await expect(badge).toHaveText(/running \d of 7|running \d\/7/);
  await expect(button).toHaveAttribute('title', /A sweep is running: \d of 7 runs done/);
  await button.click();
  await expect(dialog).toBeVisible();
  await expect(badge).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toContainText('Cancelled at');
  await page.keyboard.press('Escape');
  await expect(badge).toHaveCount(0);
});
