/**
 * One event can hold several DRR pops (a drain pops until a pop returns nothing). The log hands them
 * out one at a time, but the snapshot is after the whole event: a tryout clicked pop #151 ("keeps
 * 315, carry bulk_uncached") and the ring showed 42 and "carry none", with "Last arbitration"
 * describing the event's later pop. Each pop's record carries every class's deficit, the cursor and
 * the carry after it: the ring now shows those for the pop at the playhead, and says so.
 */
import { expect, test } from '@playwright/test';
import { openPlain } from './helpers';

test('clicking a pop inside a multi-pop event: the ring, its table and the account are that pop’s', async ({
  page,
}) => {
  await openPlain(page);
  await page.evaluate(() => window.fairground.runUntil(1.75));
  const log = page.getByRole('log', { name: 'Decision log' });
  const line = log.locator('li', { hasText: /^#151 / });
  await expect(line).toContainText('bulk_uncached keeps 315, carry bulk_uncached');
  await line.click();
  await expect.poll(() => page.evaluate(() => window.fairground.state().decisionCount)).toBe(151);
  const ring = page.getByRole('region', { name: 'DRR ring' });
  // what a person reads: the legend, the table's deficit, the carry tag, the account
  await expect(ring.locator('.drr-legend')).toContainText('carry bulk_uncached');
  const row = ring.locator('tbody[data-class="bulk_uncached"]');
  await expect(row.locator('.drr-deficit')).toHaveText('315');
  await expect(row.locator('.drr-tag.carry')).toBeVisible();
  const account = ring.locator('.drr-decision');
  await expect(account.locator('h3')).toHaveText('Arbitration at the playhead at t = 1.74 s');
  await expect(account.locator('.drr-which')).toHaveText('Decision 151, the one at the playhead');
  await expect(account.locator('.drr-summary')).toContainText('dispatches mallory#19.0');
  await expect(account).not.toContainText('mallory#21.0');
  // the ring's visit arcs and the rules say whose they are
  await expect(ring.locator('.drr-arc-key')).toContainText("outer arcs = decision 151's visits");
  await expect(ring.locator('.drr-rules-last')).toContainText('decision 151:');
  // and the ring says whose state the rest (queues, heads) is
  await expect(ring.getByRole('note')).toContainText('right after decision 151');
  await expect(ring.getByRole('note')).toContainText('after decision 160');
  await expect(page.getByRole('region', { name: 'Class queues' }).getByRole('note')).toContainText(
    'state after decision 160',
  );
});

test('at the end of a drain, the account says the closing empty pop cleared the carry', async ({ page }) => {
  await openPlain(page);
  await page.evaluate(() => window.fairground.runUntil(1.745));
  // the playhead at an event's last decision (168, t = 1.753 s): the state is the snapshot's, carry none
  await expect.poll(() => page.evaluate(() => window.fairground.state().decisionCount)).toBe(168);
  const ring = page.getByRole('region', { name: 'DRR ring' });
  await expect(ring.locator('.drr-legend')).toContainText('carry none');
  const account = ring.locator('.drr-decision');
  await expect(account.locator('h3')).toHaveText('Last arbitration at t = 1.75 s');
  await expect(account.locator('.drr-which')).toHaveText('Decision 163');
  await expect(account.locator('.drr-summary')).toContainText(
    'dispatches mallory#23.0 (cost 1671); bulk_uncached keeps 497, carry bulk_uncached',
  );
  await expect(account.locator('.drr-closing')).toHaveText(
    "After that pop: carry bulk_uncached cleared. A pop that finds nothing to dispatch does this (a drain ends with one; it is not a log line), and so does shedding a class's expired requests (logged as refusals).",
  );
});
