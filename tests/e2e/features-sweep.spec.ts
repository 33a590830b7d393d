import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { openPlain, pickScenario, playhead, resizeTo, smallText, textCollisions } from './helpers';

const DEFAULT = readFileSync('scenarios/default.yaml', 'utf8').replace(/^duration_s: .*$/m, 'duration_s: 8');

/** Open Sweep and run the worker count over 1, 2, 3 (`check` looks at the form before the run). */
async function workersSweep(page: Page, check?: (dialog: Locator) => Promise<void>): Promise<Locator> {
  await page.getByRole('button', { name: 'Sweep' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sweep' });
  await dialog.getByRole('combobox', { name: 'Parameter' }).selectOption('cluster.workers');
  await dialog.getByRole('spinbutton', { name: 'From' }).fill('1');
  await dialog.getByRole('spinbutton', { name: 'To' }).fill('3');
  await dialog.getByRole('spinbutton', { name: 'Points' }).fill('3');
  await check?.(dialog);
  await dialog.getByRole('button', { name: 'Run sweep' }).click();
  return dialog;
}

test('a 3-point sweep runs to 100 %, plots 3 points, and a point opens its run', async ({ page }) => {
  await openPlain(page);
  await page.evaluate((t) => window.fairground.load(t), DEFAULT);
  const dialog = await workersSweep(page, async (d) => {
    await d.getByRole('radio', { name: 'linear' }).check();
    // more points than a sweep runs: said, and nothing to run (1,000 became an 840-run job before)
    const points = d.getByRole('spinbutton', { name: 'Points' });
    await points.fill('1000');
    await expect(d).toContainText('Points: a whole number from 1 to 40');
    await expect(d.getByRole('button', { name: 'Run sweep' })).toBeDisabled();
    await points.fill('3');
    await expect(d).toContainText('3 points (1, 2, 3)');
  });

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
  await expect(results).toContainText('throughput (completed tokens/s)');
  // the swept axis says "Workers", not "Workers (workers)"; 1, 2, 3 are evenly spaced: a linear axis
  await expect(results.locator('.axis-label', { hasText: /^Workers$/ })).toHaveCount(2);

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
  await openPlain(page);
  await page.getByRole('button', { name: 'Sweep' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sweep' });
  await dialog.getByRole('combobox', { name: 'Preset' }).selectOption('fig10');
  // the preset says plainly that this model gives none of the paper's Fig. 10 trade-off (tryout T4)
  await expect(dialog.getByRole('note')).toContainText('This model on this workload gives no such trade-off');
  await dialog.getByRole('button', { name: 'Run sweep' }).click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toContainText('Cancelled at');
  await expect(dialog.getByRole('button', { name: 'Run sweep' })).toBeEnabled();
});

// One sweep, its charts looked at with the window resized from the one size to the other (as a reader
// resizes it; a page load and a sweep cost seconds of CPU each): each failure named by its size.
test("the sweep charts' text is drawn at 14 px or more at 1280×720 and 1920×1080", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPlain(page);
  await page.evaluate((t) => window.fairground.load(t), DEFAULT);
  await workersSweep(page);
  for (const [w, h] of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    const at = `${w}×${h}`;
    await resizeTo(page, { width: w, height: h });
    await expect(
      page.getByRole('region', { name: 'Sweep results' }).getByRole('button', { name: /^Open run/ }),
      at,
    ).toHaveCount(3, { timeout: 30_000 });
    // the size a reader sees: an SVG's text is its font size times the chart's drawn scale
    const small = await smallText(page, '.sweep-results', 14);
    expect(small, at).toEqual([]);
    await page.screenshot({ path: `test-results/sweep-text-${w}.png` });
  }
});

// Tester finding F2: guarantee-dlpm's default sweep (Q^u, five points) put throughput ticks side by
// side ("23.6k23.8k24.0k…"), axis titles on tick numbers, and the right axis's title over its ticks
// and past the SVG's edge. Every chart's text must sit clear of every other text and inside its SVG.
//
// 1280×720 and 1920×1080 differ only in the window's size: one sweep, resized from the one to the
// other (a five-point sweep of guarantee-dlpm costs many CPU-seconds); the zoomed and the touch
// phone's sizes need contexts of their own.
const AXES = [
  {
    sizes: [
      { name: '1280×720', viewport: { width: 1280, height: 720 } },
      { name: '1920×1080', viewport: { width: 1920, height: 1080 } },
    ],
    opts: {},
  },
  {
    sizes: [{ name: '1280×720 at 150 %', viewport: { width: 853, height: 480 } }],
    opts: { viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 },
  },
  {
    sizes: [{ name: '390×844', viewport: { width: 390, height: 844 } }],
    opts: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  },
] as const;
for (const { sizes, opts } of AXES) {
  test.describe(`sweep charts at ${sizes.map((s) => s.name).join(' and ')}`, () => {
    test.use(opts);
    test('ticks and axis titles do not overlap and stay inside their chart', async ({ page }) => {
      test.setTimeout(150_000);
      const resized = sizes.length > 1;
      if (resized) await page.setViewportSize(sizes[0].viewport);
      await openPlain(page);
      await pickScenario(page, 'guarantee-dlpm');
      const menu = page.getByRole('button', { name: /^Menu/ });
      if (await menu.isVisible()) await menu.click();
      await page.getByRole('button', { name: 'Sweep' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sweep' });
      await dialog.getByRole('button', { name: 'Run sweep' }).click();
      await expect(dialog.getByRole('progressbar', { name: 'Sweep progress' })).toHaveAttribute(
        'aria-valuetext',
        '100 %',
        { timeout: 120_000 },
      );
      const results = page.getByRole('region', { name: 'Sweep results' });
      for (const { name, viewport } of sizes) {
        if (resized) await resizeTo(page, viewport);
        await expect(results.locator('svg.sweep-svg'), name).toHaveCount(3);
        // Q^u 125 → 2,000 is log-spaced (a 16× spread): both charts over it draw a log axis
        await expect(results.locator('.axis-label', { hasText: 'log scale' }), name).toHaveCount(2);
        expect(await smallText(page, '.sweep-results', 14), name).toEqual([]);
        const tag = name.replace(/[^0-9a-z]+/gi, '-');
        await results.locator('figure').nth(1).scrollIntoViewIfNeeded();
        await page.screenshot({ path: `test-results/sweep-axes-${tag}.png` });
        expect(await textCollisions(page, '.sweep-results'), name).toEqual([]);
      }
    });
  });
}

test("results kept from another scenario's sweep say so beside the new form (first-time user)", async ({
  page,
}) => {
  await openPlain(page);
  await page.evaluate((t) => window.fairground.load(t), DEFAULT);
  const dialog = await workersSweep(page);
  await expect(dialog.getByRole('progressbar', { name: 'Sweep progress' })).toHaveAttribute(
    'aria-valuetext',
    '100 %',
    { timeout: 30_000 },
  );
  // on the scenario it ran on, the results need no such word
  await expect(dialog.getByRole('note')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await pickScenario(page, 'fig1-kv-pressure');
  await page.getByRole('button', { name: 'Sweep' }).click();
  // the form is fig1's, the results below it are still the default scenario's: the note says which
  await expect(dialog.getByRole('note')).toContainText("These are the last sweep's results, on");
  await expect(dialog.getByRole('note')).toContainText('Run sweep replaces them');
});
