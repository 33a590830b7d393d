import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openPlain, playhead } from './helpers';

// Export left out every drawing under 80 × 60 px (meant for icons), so a worker's radix tree of one
// or two rows (20 or 40 px high) could not be exported while on screen. Every view's drawing is
// offered now, whatever its size; legend swatches (no viewBox) are not.
test('Export offers a small radix tree, and every drawn view', async ({ page }) => {
  await openPlain(page);
  await page.evaluate(() => window.fairground.step(20));
  await expect.poll(() => playhead(page)).toBe(20);
  const summary = page.locator('summary', { hasText: /^radix tree/ }).first();
  await summary.click();
  const tree = page.locator('svg.radix-svg').first();
  await expect(tree).toBeVisible();
  const box = await tree.boundingBox();
  expect(box?.height, 'a tree of one or two rows').toBeLessThan(60);
  const label = (await tree.getAttribute('aria-label'))?.split(':')[0] ?? '';
  expect(label).toMatch(/^Radix prefix tree of worker \d+$/);
  const drawn = await page.evaluate(
    () =>
      [...document.querySelectorAll('.workspace svg[viewBox]')].filter((s) => {
        const b = s.getBoundingClientRect();
        return !s.parentElement?.closest('svg') && b.width > 0 && b.height > 0;
      }).length,
  );
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await expect(dialog.getByRole('button', { name: new RegExp(`${label} as SVG$`) })).toHaveCount(1);
  await expect(dialog.getByRole('button', { name: / as SVG$/ })).toHaveCount(drawn);
});

// A time chart past a few thousand points draws its lines on a canvas under its svg (the svg keeps the
// axes); Export copied the svg alone, so the file showed empty axes. The canvas now travels as an image
// under the svg's content, at its place. A probe chart of the same structure (.chart: canvas + svg).
test('Export keeps what a chart draws on a canvas under its svg', async ({ page }) => {
  await openPlain(page);
  await page.evaluate(() => {
    const probe = document.createElement('section');
    probe.setAttribute('aria-label', 'Canvas probe');
    probe.innerHTML = `<div class="chart" style="width: 300px"><canvas width="600" height="200"></canvas>
      <svg viewBox="0 0 300 100"><line x1="0" y1="99" x2="300" y2="99" style="stroke:#000"/></svg></div>`;
    document.querySelector('.workspace')?.append(probe);
    const ctx = probe.querySelector('canvas')?.getContext('2d');
    if (ctx) {
      ctx.fillStyle = '#d55e00';
      ctx.fillRect(0, 0, 600, 200);
    }
  });
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  const [svg] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Canvas probe as SVG' }).click(),
  ]);
  const text = readFileSync((await svg.path()) as string, 'utf8');
  const image = /<image [^>]*>/.exec(text)?.[0] ?? '';
  expect(image).toMatch(/href="data:image\/png;base64,/);
  for (const [k, v] of [
    ['x', '0'],
    ['y', '0'],
    ['width', '300'],
    ['height', '100'],
  ])
    expect(image).toContain(` ${k}="${v}"`);
  // below the svg's own drawing: the image comes before its line
  expect(text.indexOf('<image')).toBeLessThan(text.indexOf('<line'));
  // and the PNG (the same svg drawn into a canvas) is still made
  const [png] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Canvas probe as PNG' }).click(),
  ]);
  expect(
    readFileSync((await png.path()) as string)
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG');
});

// The chart names were cut to one line with an ellipsis: on a phone both workers' radix trees read
// "Workers — Radix prefix tree…", so which button exports which tree could not be seen. They wrap now.
test('Export shows each chart’s whole name, on a phone too', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlain(page);
  await page.evaluate(() => window.fairground.step(20));
  await expect.poll(() => playhead(page)).toBe(20);
  await page.getByRole('button', { name: /^Menu/ }).click();
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const names = page.getByRole('dialog', { name: 'Export' }).locator('.export-charts li span');
  await expect(names.first()).toBeVisible();
  expect(await names.count()).toBeGreaterThan(3);
  for (const clipped of await names.evaluateAll((spans) =>
    spans.filter((s) => s.scrollWidth > s.clientWidth + 1).map((s) => s.textContent),
  ))
    expect(clipped, 'a chart name cut short').toBeNull();
  await expect(names.filter({ hasText: /^Workers — Radix prefix tree of worker 0$/ })).toBeVisible();
});
