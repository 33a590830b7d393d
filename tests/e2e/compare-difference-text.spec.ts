/**
 * Compare's Difference panel as the tryout read it: "Jain's index (as run --json)" broke inside
 * "--json" (L2) and did not say which view of service it is (T1); the decision log under the panel
 * did not say whose decisions it lists (nit).
 */
import { expect, test } from '@playwright/test';
import { openPlain, resizeTo } from './helpers';

test.describe.configure({ timeout: 120_000 });

test("the Jain row names its view and keeps '(as run --json)' whole; the log is said to be run A's", async ({
  page,
}) => {
  await openPlain(page);
  await page.evaluate(() => window.fairground.compare(['scheduler.policy=fcfs']));
  await page.evaluate(() => window.fairground.step(3000));
  const diff = page.getByRole('region', { name: 'Difference' });
  const row = diff.locator('tr[data-row="jain"] th');
  await expect(row).toHaveText("Jain's index, client view (as run --json)");
  await expect(diff.getByTestId('diff-log-note')).toHaveText(
    "The Decision log is run A's: run B's decisions are not listed.",
  );
  for (const size of [
    { width: 1280, height: 720 },
    { width: 853, height: 480 },
    { width: 390, height: 844 },
  ]) {
    await resizeTo(page, size);
    await row.scrollIntoViewIfNeeded();
    // one line box: the note is never split, whatever the width
    const lines = await row
      .locator('.diff-note')
      .evaluate((el) => new Set([...el.getClientRects()].map((r) => Math.round(r.top))).size);
    expect(lines, `${size.width}×${size.height}`).toBe(1);
  }
});
