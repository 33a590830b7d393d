import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { open, playhead } from './helpers';

const DEFAULT = readFileSync('scenarios/default.yaml', 'utf8').replace(/^duration_s: .*$/m, 'duration_s: 8');

test('a 3-point sweep runs to 100 %, plots 3 points, and a point opens its run', async ({ page }) => {
  await open(page);
  await page.evaluate((t) => window.fairground.load(t), DEFAULT);
  await page.getByRole('button', { name: 'Sweep' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sweep' });
  await dialog.getByRole('combobox', { name: 'Parameter' }).selectOption('cluster.workers');
  await dialog.getByRole('spinbutton', { name: 'From' }).fill('1');
  await dialog.getByRole('spinbutton', { name: 'To' }).fill('3');
  await dialog.getByRole('spinbutton', { name: 'Points' }).fill('3');
  await dialog.getByRole('radio', { name: 'linear' }).check();
  await expect(dialog).toContainText('3 points (1, 2, 3)');
  await dialog.getByRole('button', { name: 'Run sweep' }).click();

  const progress = dialog.getByRole('progressbar', { name: 'Sweep progress' });
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute('aria-valuetext', '100 %', { timeout: 30_000 });
  await expect(dialog).toContainText('3 of 3 runs (100 %)');

  const results = page.getByRole('region', { name: 'Sweep results' });
  const points = results.getByRole('button', { name: /^Open run/ });
  await expect(points).toHaveCount(3);
  await expect(results.getByRole('img', { name: /Latency vs Workers/ })).toBeVisible();
  // Two results plotted against each other: points only (a line in sweep order would cross itself).
  await expect(
    results.locator('figure', { hasText: 'Throughput vs fairness' }).locator('svg.sweep-svg path'),
  ).toHaveCount(0);
  await expect(results).toContainText('throughput (tokens/s)');

  const [png] = await Promise.all([
    page.waitForEvent('download'),
    results.getByRole('button', { name: 'Throughput vs fairness as PNG' }).click(),
  ]);
  expect(png.suggestedFilename()).toMatch(/\.png$/);
  const bytes = readFileSync((await png.path()) as string);
  expect(bytes.subarray(1, 4).toString()).toBe('PNG');

  await results.getByRole('button', { name: 'Open run Workers = 3' }).click();
  await expect(dialog).toHaveCount(0);
  await expect
    .poll(() => page.evaluate(() => window.fairground.editor.text('scenario')))
    .toMatch(/workers: 3/);
  await expect
    .poll(
      async () =>
        ((await page.evaluate(() => window.fairground.snapshot())) as { workers?: unknown[] }).workers
          ?.length,
    )
    .toBe(3);
  expect(await playhead(page)).toBe(0);
});

test('Cancel stops a running sweep', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'Sweep' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sweep' });
  await dialog.getByRole('combobox', { name: 'Preset' }).selectOption('fig10');
  await dialog.getByRole('button', { name: 'Run sweep' }).click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toContainText('Cancelled at');
  await expect(dialog.getByRole('button', { name: 'Run sweep' })).toBeEnabled();
});

for (const [w, h] of [
  [1280, 720],
  [1920, 1080],
] as const) {
  test(`the sweep charts' text is drawn at 14 px or more at ${w}×${h}`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    await page.evaluate((t) => window.fairground.load(t), DEFAULT);
    await page.getByRole('button', { name: 'Sweep' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sweep' });
    await dialog.getByRole('combobox', { name: 'Parameter' }).selectOption('cluster.workers');
    await dialog.getByRole('spinbutton', { name: 'From' }).fill('1');
    await dialog.getByRole('spinbutton', { name: 'To' }).fill('3');
    await dialog.getByRole('spinbutton', { name: 'Points' }).fill('3');
    await dialog.getByRole('button', { name: 'Run sweep' }).click();
    const results = page.getByRole('region', { name: 'Sweep results' });
    await expect(results.getByRole('button', { name: /^Open run/ })).toHaveCount(3, { timeout: 30_000 });
    // the size a reader sees: an SVG's text is its font size times the chart's drawn scale
    const small = await results.evaluate((root) => {
      const out: string[] = [];
      for (const el of root.querySelectorAll<HTMLElement | SVGElement>('*')) {
        const own = [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
        if (!own || el.closest('title') !== null) continue;
        const svg = el instanceof SVGElement ? el.ownerSVGElement : null;
        const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
        const px = Number.parseFloat(getComputedStyle(el).fontSize) * scale;
        if (px < 13.95) out.push(`${(el.textContent ?? '').trim().slice(0, 30)}: ${px.toFixed(1)} px`);
      }
      return out;
    });
    expect(small).toEqual([]);
    await page.screenshot({ path: `test-results/sweep-text-${w}.png` });
  });
}
