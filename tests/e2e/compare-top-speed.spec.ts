import { expect, type Page, test } from '@playwright/test';
import { openPlain } from './helpers';

const bState = (page: Page) => page.evaluate(() => window.fairground.compareState());

/** Wait (each animation frame, so B has only just moved) until B has taken more than `n` decisions. */
const bPast = (page: Page, n: number) =>
  page.waitForFunction((d) => window.fairground.compareState().decisionsB > d, n, { polling: 'raf' });

/** Compare with B = fcfs changed by `overrides`, as the dialog sets it, at the top speed. */
async function compareAtTopSpeed(page: Page, overrides: string): Promise<void> {
  await openPlain(page);
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare' });
  await dialog.getByRole('combobox', { name: 'B scheduler' }).selectOption('fcfs');
  await dialog.getByRole('textbox', { name: 'B overrides' }).fill(overrides);
  await dialog.getByRole('button', { name: 'Start comparing' }).click();
  await expect(dialog).toHaveCount(0);
  const slider = page.getByRole('slider', { name: 'Speed' });
  await slider.fill((await slider.getAttribute('max')) ?? '10');
  // the keys go to the page, not to the slider
  await page.locator('body').click({ position: { x: 5, y: 700 } });
}

/** Compare as above, then Play until A ends: B is still going, and the button is its Pause. */
async function playPastEndOfA(page: Page, overrides: string): Promise<void> {
  await compareAtTopSpeed(page, overrides);
  await page.getByRole('button', { name: 'Play' }).click();
  // A (dlpm on two workers) ends first; B is still catching up with A's end, then plays on
  await page.waitForFunction(() => window.fairground.state().done, null, { polling: 'raf', timeout: 40_000 });
  const pause = page.getByRole('button', { name: 'Pause' });
  await expect(pause).toBeEnabled();
  await expect(pause).toHaveAttribute('title', /^Pause run B/);
}

/** B has stopped where it is: Play is back, its worker is idle, it is not over and its clock stays. */
async function bStays(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 2_000 });
  await expect.poll(async () => (await bState(page)).busy, { timeout: 2_000 }).toBe(false);
  const paused = await bState(page);
  expect(paused.doneB, 'B is not over yet').toBe(false);
  await page.waitForTimeout(500);
  const later = await bState(page);
  expect(later.decisionsB).toBe(paused.decisionsB);
  expect(later.simTimeB).toBe(paused.simTimeB);
}

test("Compare at the top speed: Step, Play and Pause pressed while B catches up with A's end leave B paused, not at its end (first-time user)", async ({
  page,
}) => {
  // the report's set-up: default scenario, B = fcfs on one worker
  await compareAtTopSpeed(page, 'cluster.workers=1');
  // A to its end at once (the hook's step stops there): B then catches up with A's end in its worker
  await page.evaluate(() => void window.fairground.step(1_000_000));
  await page.waitForFunction(() => window.fairground.state().done, null, { polling: 'raf' });
  expect((await bState(page)).busy, 'B is still catching up').toBe(true);
  // a Step of B, then Play and Pause, while that catch-up runs: the Step's one decision used to lift
  // the wall limit of Play's slice queued behind it, and B ran to its end in one call past the Pause
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press(' ');
  await page.keyboard.press(' ');
  await bStays(page);
  const ui = await page.evaluate(() => window.fairground.state());
  expect((await bState(page)).simTimeB).toBeGreaterThanOrEqual(ui.simTime);
});

test('Compare at the top speed: while B plays on after A has ended, the button is its Pause, and Pause or Step stop it at once (first-time user)', async ({
  page,
}) => {
  // B = fcfs on one worker whose arrivals go on for four minutes: it plays on long after A's end
  // (about 17,000 decisions), so the keys below always land while B is going
  test.setTimeout(150_000);
  await playPastEndOfA(page, 'cluster.workers=1\nduration_s=240');
  await page.keyboard.press(' ');
  await bStays(page);
  // Space plays B on; Space again pauses it, and it stays there
  let at = (await bState(page)).decisionsB;
  await page.keyboard.press(' ');
  const pause = page.getByRole('button', { name: 'Pause' });
  await expect(pause).toHaveAttribute('title', /^Pause run B/);
  await bPast(page, at);
  await page.keyboard.press(' ');
  await bStays(page);
  // → while B plays: Step pauses it; the next → is one decision of B
  at = (await bState(page)).decisionsB;
  await page.keyboard.press(' ');
  await bPast(page, at);
  await page.keyboard.press('ArrowRight');
  await bStays(page);
  at = (await bState(page)).decisionsB;
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await bState(page)).decisionsB).toBe(at + 1);
  // Play runs B on to its end; only then is the run over
  const play = page.getByRole('button', { name: 'Play' });
  await play.click();
  await expect.poll(async () => (await bState(page)).doneB, { timeout: 90_000 }).toBe(true);
  await expect(play).toBeDisabled();
  await expect(play).toHaveAttribute('title', /run is over/);
});
