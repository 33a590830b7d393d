/**
 * The trace import's banner (tryout): a 250 ms trace was "over 0 s", and the banner's "Press Play."
 * stayed after the replay had run to the end. Now the span has two digits and those words go once
 * the replay moves.
 */
import { expect, test } from '@playwright/test';
import { openImport, openPlain } from './helpers';

const TINY = [0, 125, 250]
  .map((t, i) =>
    JSON.stringify({ timestamp: t, input_length: 400 + i * 100, output_length: 8, hash_ids: [0, 1] }),
  )
  .join('\n');

test('a 250 ms trace loads "over 0.25 s"; Press Play goes once the replay has played', async ({ page }) => {
  await openPlain(page);
  const dialog = await openImport(page);
  await dialog.getByLabel('Trace file').setInputFiles({
    name: 'tiny.jsonl',
    mimeType: 'application/json',
    buffer: Buffer.from(TINY),
  });
  const banner = page.getByRole('alert').filter({ hasText: 'Loaded 3 requests (mooncake)' });
  await expect(banner).toContainText('from tiny.jsonl over 0.25 s as the workload. Press Play.');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect
    .poll(() => page.evaluate(() => window.fairground.state().done), { timeout: 30_000 })
    .toBe(true);
  await expect(banner).toContainText('over 0.25 s as the workload.');
  await expect(banner).not.toContainText('Press Play');
});
