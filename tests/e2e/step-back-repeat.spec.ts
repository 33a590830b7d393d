/**
 * Pressing ← several times quickly steps back as many decisions (tryout B1): each press read the
 * playhead, which stays put while the previous press's seek replays, so five quick presses all
 * sought the same decision and the playhead went back by one.
 */
import { expect, test } from '@playwright/test';
import { openPlain, playhead } from './helpers';

test('five quick presses of ← go five decisions back', async ({ page }) => {
  await openPlain(page);
  await page.evaluate(() => window.fairground.runUntil(30));
  const end = await playhead(page);
  expect(end).toBeGreaterThan(100);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
  await expect.poll(() => playhead(page)).toBe(end - 5);
  // held down: key auto-repeat sends repeated keydowns, which count as presses too
  for (let i = 0; i < 3; i++) {
    await page.evaluate(() =>
      document.body.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'ArrowLeft', code: 'ArrowLeft', repeat: true, bubbles: true }),
      ),
    );
  }
  await expect.poll(() => playhead(page)).toBe(end - 8);
  // a step forward after the seeks have landed starts from where they landed
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => playhead(page)).toBe(end - 7);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => playhead(page)).toBe(end - 8);
});
