/**
 * One event of the simulation can take several decisions (an arrival is queued, popped and
 * dispatched at once; a step's end completes requests, then admits others). The log hands them out
 * one at a time, but the state is the one after the last: a tryout saw the Workers card drop two
 * waiting requests while the log still showed the completion before their admissions. The Workers
 * view now says whose state it shows.
 */
import { expect, test } from '@playwright/test';
import { openPlain } from './helpers';

test('stepping inside one event: the Workers view says it shows the state after that event’s last decision', async ({
  page,
}) => {
  await openPlain(page);
  const note = page.getByRole('region', { name: 'Workers' }).getByRole('note');
  // the default scenario's first arrival is submitted, queued, popped and dispatched in one event
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => page.evaluate(() => window.fairground.state().decisionCount)).toBe(1);
  await expect(note).toHaveText(
    'The views show the state after decision 4: decisions 2–4 were taken in the same event as decision 1 (the log hands them out one at a time).',
  );
  await expect(page.getByRole('region', { name: 'Workers' })).toContainText('mallory#0.0');
  for (let n = 2; n <= 4; n++) {
    await page.getByRole('button', { name: 'Step' }).click();
    await expect.poll(() => page.evaluate(() => window.fairground.state().decisionCount)).toBe(n);
  }
  // at the event's last decision the state and the log agree: no note
  await expect(note).toHaveCount(0);
});
