/**
 * Tapping a log line moves the playhead back to it, so the newer lines leave the log: a tryout on a
 * phone (390×844, LPM run to 50 s) tapped #4017 and the log, keeping its scroll offset, left the
 * selected line above its visible area. A click or tap keeps the picked line where it was in the log.
 */
import { expect, type Locator, test } from '@playwright/test';
import { openPlain, pickScenario } from './helpers';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

/** The line's box relative to the log's visible box (top and bottom edges, CSS px). */
async function placeIn(
  log: Locator,
  line: Locator,
): Promise<{ top: number; bottom: number; height: number }> {
  const l = await log.boundingBox();
  const b = await line.boundingBox();
  if (!l || !b) throw new Error('no box');
  return { top: b.y - l.y, bottom: l.y + l.height - (b.y + b.height), height: l.height };
}

test('tapping a line of the log on a phone keeps it in sight', async ({ page }) => {
  await openPlain(page);
  await pickScenario(page, 'lpm-tot-s1');
  await page.evaluate(() => window.fairground.runUntil(50));
  await expect.poll(() => page.evaluate(() => window.fairground.state().decisionCount)).toBeGreaterThan(4020);
  await page.locator('.fold-toggle[aria-controls="fold-log"]').click();
  const log = page.getByRole('log', { name: 'Decision log' });
  const line = log.locator('li[data-seq="4016"]');
  await expect(line).toHaveText(/^#4017 /);
  // scroll the log down to #4017, as the tryout did
  await line.scrollIntoViewIfNeeded();
  const before = await placeIn(log, line);
  expect(before.top).toBeGreaterThan(0);
  expect(await log.evaluate((ol) => ol.scrollTop)).toBeGreaterThan(0);
  await line.tap();
  await expect.poll(() => page.evaluate(() => window.fairground.state().decisionCount)).toBe(4017);
  await expect(line).toHaveAttribute('aria-current', 'true');
  await expect(log.locator('li[data-seq="4017"]')).toHaveCount(0);
  // the picked line is now the log's newest: it stays inside the log's visible box, no lower than
  // where it was tapped (the log cannot scroll above its first line)
  await expect.poll(async () => Math.round((await placeIn(log, line)).top)).toBeGreaterThanOrEqual(0);
  const after = await placeIn(log, line);
  expect(after.top).toBeLessThanOrEqual(before.top + 1);
  expect(after.bottom).toBeGreaterThanOrEqual(0);
  await expect(line).toBeInViewport();
});
