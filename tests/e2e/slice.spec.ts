import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

const DEFAULT = readFileSync('scenarios/default.yaml', 'utf8');

async function simTime(page: import('@playwright/test').Page): Promise<number> {
  const text = await page.getByRole('status', { name: 'Simulated time' }).textContent();
  return Number.parseFloat(text ?? '');
}

test('Play advances simulated time; Pause stops it; Step moves one decision', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled();
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toBeVisible();
  const t0 = await simTime(page);

  await page.getByRole('slider', { name: 'Speed' }).fill('8');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect.poll(() => simTime(page)).toBeGreaterThan(t0);

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
  const paused = (await page.evaluate(() => window.fairground.snapshot())) as { decisions: number };
  // Ten animation frames later (the play loop would have advanced on each), still the same decision.
  await page.evaluate(async () => {
    for (let i = 0; i < 10; i++) await new Promise((r) => requestAnimationFrame(r));
  });
  const still = (await page.evaluate(() => window.fairground.snapshot())) as { decisions: number };
  expect(still.decisions).toBe(paused.decisions);

  await page.getByRole('button', { name: 'Step' }).click();
  await expect
    .poll(
      async () =>
        ((await page.evaluate(() => window.fairground.snapshot())) as { decisions: number }).decisions,
    )
    .toBe(paused.decisions + 1);
  await expect(page.getByRole('log', { name: 'Decision log' }).locator('li').first()).not.toHaveText(
    /No decisions/,
  );
});

test('window.fairground drives the worker: load, step, runUntil, snapshot', async ({ page }) => {
  await page.goto('./');
  await page.waitForFunction(() => typeof window.fairground?.load === 'function');
  const snap = await page.evaluate(async (text) => {
    await window.fairground.load(text);
    await window.fairground.step(5);
    const a = (await window.fairground.snapshot()) as { decisions: number; sim_time_s: number };
    await window.fairground.runUntil(a.sim_time_s + 10);
    const b = (await window.fairground.snapshot()) as { decisions: number; sim_time_s: number };
    return { a, b };
  }, DEFAULT);
  expect(snap.a.decisions).toBe(5);
  expect(snap.b.sim_time_s).toBeGreaterThanOrEqual(snap.a.sim_time_s + 10);
  await expect(page.getByRole('status', { name: 'Simulated time' })).toContainText(
    snap.b.sim_time_s.toFixed(3),
  );

  const err = await page.evaluate(() =>
    window.fairground.load('a: [').then(
      () => 'resolved',
      (e: Error) => e.message,
    ),
  );
  expect(err).toMatch(/\d+:\d+: /);
});

test('keyboard: space plays and pauses, arrow steps, R resets', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled();
  await page.locator('body').press('ArrowRight');
  await expect
    .poll(
      async () =>
        ((await page.evaluate(() => window.fairground.snapshot())) as { decisions: number }).decisions,
    )
    .toBe(1);
  await page.locator('body').press(' ');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await page.locator('body').press(' ');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
  await page.locator('body').press('r');
  await expect
    .poll(
      async () =>
        ((await page.evaluate(() => window.fairground.snapshot())) as { decisions: number }).decisions,
    )
    .toBe(0);
});
