import { expect, type FrameLocator, type Page, test } from '@playwright/test';
import { encodeShare } from '../../src/ui/share/codec';
import { BURST_TEXT, DEFAULT_TEXT, open, playhead } from './helpers';

const ALL_REGIONS = ['DRR ring', 'Class queues', 'Client service', 'Workers', 'Guarantees', 'Figures'];

/** The strip's controls are there (contract names); the full playground's chrome is not. */
async function expectEmbedChrome(scope: Page | FrameLocator): Promise<void> {
  for (const name of ['Play', 'Step', 'Reset'])
    await expect(scope.getByRole('button', { name, exact: true })).toBeVisible();
  await expect(scope.getByRole('status', { name: 'Simulated time' })).toBeVisible();
  await expect(scope.getByRole('button', { name: 'Share', exact: true })).toHaveCount(0);
  await expect(scope.getByRole('combobox', { name: 'Scenario' })).toHaveCount(0);
  await expect(scope.getByRole('region', { name: 'Policy editor' })).toHaveCount(0);
  await expect(scope.getByRole('toolbar', { name: 'Features' })).toHaveCount(0);
}

test('a link from the Share dialog with ?embed=1&panels=ring,log shows only the ring, the log and the controls', async ({
  page,
}) => {
  await open(page);
  await page.evaluate((t) => window.fairground.load(t), DEFAULT_TEXT);
  await page.evaluate(() => window.fairground.step(40));
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share link' });
  // Keep only the DRR ring and the decision log in the embed choice.
  for (const name of ['Class queues', 'Client service', 'Workers', 'Figures', 'Guarantees'])
    await dialog.getByRole('checkbox', { name }).uncheck();
  const code = dialog.getByRole('textbox', { name: 'Embed code' });
  await expect(code).toHaveValue(
    /^<iframe src="[^"]*\?embed=1&amp;panels=ring,log#s=\d+\.[^"]+" width="\d+" height="\d+"/,
  );
  await expect(dialog.getByRole('button', { name: 'Copy embed code' })).toBeVisible();
  const snippet = await code.inputValue();
  const src = (/src="([^"]+)"/.exec(snippet)?.[1] ?? '').replaceAll('&amp;', '&');
  expect(new URL(src).search).toBe('?embed=1&panels=ring,log');

  await page.goto(src);
  await page.waitForFunction(
    () => typeof window.fairground?.state === 'function' && window.fairground.state().kind !== null,
  );
  await expect.poll(() => playhead(page)).toBe(40);
  await expect(page.getByRole('region', { name: 'DRR ring' })).toBeVisible();
  await expect(page.getByRole('log', { name: 'Decision log' })).toBeVisible();
  for (const name of ALL_REGIONS.filter((n) => n !== 'DRR ring'))
    await expect(page.getByRole('region', { name, exact: true })).toHaveCount(0);
  await expectEmbedChrome(page);

  // The strip drives the run.
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect.poll(() => playhead(page)).toBe(41);
  await expect(page.getByRole('status', { name: 'Simulated time' })).toHaveText(/^\d+\.\d{3} s$/);
});

// The two framed tests take a fresh context's first page: with the context reused between tests
// (playwright.config.ts) the host page is an about:blank navigated to, and Chromium's local network
// access checks refuse it the frame from 127.0.0.1.
test('inside an iframe the page switches to embed mode by itself', async ({ browser, baseURL }) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.setContent(
    `<!doctype html><title>slides</title><iframe title="demo" src="${baseURL}" width="1100" height="700"></iframe>`,
  );
  const frame = page.frameLocator('iframe[title="demo"]');
  await expect(frame.getByRole('button', { name: 'Play', exact: true })).toBeVisible({ timeout: 20_000 });
  await expectEmbedChrome(frame);
  // No panels named: every view the scenario has, and the log.
  await expect(frame.getByRole('region', { name: 'Client service' })).toBeVisible();
  await expect(frame.getByRole('log', { name: 'Decision log' })).toBeVisible();
  await frame.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(frame.getByRole('log', { name: 'Decision log' }).locator('li[data-seq]')).not.toHaveCount(0);
  await ctx.close();
});

test('?embed=0 keeps the full playground inside a frame', async ({ browser, baseURL }) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.setContent(`<iframe title="full" src="${baseURL}?embed=0" width="1366" height="760"></iframe>`);
  const frame = page.frameLocator('iframe[title="full"]');
  await expect(frame.getByRole('button', { name: 'Share', exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(frame.getByRole('combobox', { name: 'Scenario' })).toBeVisible();
  await ctx.close();
});

test("a share link's own embed panels apply when the query names none", async ({ page }) => {
  const hash = await encodeShare({
    scenario: DEFAULT_TEXT,
    playhead: 25,
    layout: {},
    embed: { panels: ['clients'] },
  });
  await page.goto(`./?embed=1${hash}`);
  await expect(page.getByRole('region', { name: 'Client service' })).toBeVisible();
  await expect.poll(() => playhead(page)).toBe(25);
  for (const name of ALL_REGIONS.filter((n) => n !== 'Client service'))
    await expect(page.getByRole('region', { name, exact: true })).toHaveCount(0);
  await expect(page.getByRole('log', { name: 'Decision log' })).toHaveCount(0);
  await expectEmbedChrome(page);
});

// The snippet's frame is 960 px wide with max-width 100%: in a narrower docs column the page took the
// phone's layout, which folds the log to one line ("DECISION LOG · 40 ▸"), the log the embed asked for.
test('an embed narrower than 900 px shows the log it asks for, unfolded', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 450 });
  const hash = await encodeShare({ scenario: DEFAULT_TEXT, playhead: 40, layout: {} });
  await page.goto(`./?embed=1&panels=ring,log${hash}`);
  await expect.poll(() => playhead(page)).toBe(40);
  const log = page.getByRole('log', { name: 'Decision log' });
  await expect(log).toBeVisible();
  await expect(log.locator('li').first()).toBeVisible();
});

test('a DRR sandbox embedded with only cluster panels says so', async ({ page }) => {
  const hash = await encodeShare({ scenario: BURST_TEXT, playhead: 0, layout: {} });
  await page.goto(`./?embed=1&panels=workers${hash}`);
  await expect(page.getByText('This scenario has none of the chosen panels (Workers).')).toBeVisible();
});

test('the full playground keeps its masthead on one row at 1366×768', async ({ page }) => {
  await open(page);
  const tops = await page.locator('.masthead button, .masthead select, .masthead output').evaluateAll((els) =>
    els
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.width > 0)
      .map((r) => Math.round(r.top + r.height / 2)),
  );
  expect(tops.length).toBeGreaterThan(8);
  expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(4);
  const box = await page.locator('.masthead').boundingBox();
  expect(box?.height ?? 0).toBeLessThan(56);
});
