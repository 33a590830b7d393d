/**
 * The Guarantees panel's words (tryout findings): the broken variant's warning names a setting,
 * `scheduler.dlpm_quantum_per_request`, which as one word ran out of the warning's box in the
 * panel's column (B3). Its count of violations read "2 violations" when it was two pairs over the
 * bound (nit).
 */
import { expect, test } from '@playwright/test';
import { openPlain, pickScenario } from './helpers';

test.describe.configure({ timeout: 120_000 });

for (const size of [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
]) {
  test(`the broken variant's warning keeps its setting name inside its box at ${size.width}×${size.height}`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await openPlain(page);
    await pickScenario(page, 'guarantee-broken-dlpm');
    await page.evaluate(() => window.fairground.runUntil(1e9));
    await expect.poll(() => page.evaluate(() => window.fairground.state().done)).toBe(true);
    const warning = page.getByRole('region', { name: 'Guarantees' }).locator('.gu-warning');
    await expect(warning).toContainText('scheduler.dlpm_quantum_per_request');
    const out = await warning.evaluate((box) => {
      const b = box.getBoundingClientRect();
      const r = document.createRange();
      r.selectNodeContents(box);
      const rects = [...r.getClientRects()];
      return {
        scroll: box.scrollWidth - box.clientWidth,
        beyond: Math.max(0, ...rects.map((x) => x.right - b.right)),
      };
    });
    expect(out.scroll).toBeLessThanOrEqual(0);
    expect(out.beyond).toBeLessThanOrEqual(0);
  });
}

test('the violations are counted as pairs over the bound, the words the Client service gauge uses too', async ({
  page,
}) => {
  await openPlain(page);
  await pickScenario(page, 'guarantee-broken-dlpm');
  await page.evaluate(() => window.fairground.runUntil(1e9));
  await expect.poll(() => page.evaluate(() => window.fairground.state().done)).toBe(true);
  const gu = page.getByRole('region', { name: 'Guarantees' });
  // alice–hog and bob–hog both went over, once each
  await expect(gu.locator('.gu-violations h3')).toHaveText('2 pairs over the bound');
  await expect(gu).not.toContainText('2 violations');
  await expect(page.getByRole('region', { name: 'Client service' })).toContainText(
    '2 pairs over the bound (see Guarantees)',
  );
});
