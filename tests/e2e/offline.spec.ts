import { expect, test } from '@playwright/test';

test('the page requests nothing from any origin but its own', async ({ page, baseURL }) => {
  const origin = new URL(baseURL as string).origin;
  const foreign: string[] = [];
  page.on('request', (req) => {
    const url = req.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== origin) foreign.push(url);
  });
  await page.goto('./');
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled();
  // at the top speed: the same frames, snapshots and editor work, in a fraction of the wall time
  const slider = page.getByRole('slider', { name: 'Speed' });
  await slider.fill((await slider.getAttribute('max')) ?? '10');
  await page.getByRole('button', { name: 'Play' }).click();
  // Play until the run is well under way (hundreds of decisions: frames, snapshots, the editor).
  await expect
    .poll(() => page.evaluate(() => window.fairground.state().decisionCount), { timeout: 20_000 })
    .toBeGreaterThan(300);
  await page.getByRole('button', { name: 'Pause' }).click();
  expect(foreign).toEqual([]);
});
