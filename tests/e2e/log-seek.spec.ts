/**
 * Picking a decision in the log moves the playhead to it (tester F9): "Why decision #417" showed
 * while the header said "decision 428 / 428" and the views drew the latest moment. Now a click on a
 * log line seeks to the moment just after that decision, as a click on the timeline would; the
 * arrow keys move the selection and the playhead together.
 */
import { expect, test } from '@playwright/test';
import { openPlain, pickScenario, playhead } from './helpers';

test('clicking a log line seeks the playhead to that decision; ↑ moves on by one', async ({ page }) => {
  await openPlain(page);
  await page.evaluate(() => window.fairground.runUntil(20));
  const end = await playhead(page);
  expect(end).toBeGreaterThan(40);
  const log = page.getByRole('log', { name: 'Decision log' });
  const line = log.locator('li[data-seq]').nth(10);
  const seq = Number(await line.getAttribute('data-seq'));
  expect(seq + 1).toBeLessThan(end);
  await line.click();
  await expect(page.getByRole('heading', { name: `Why decision #${seq + 1}` })).toBeVisible();
  await expect.poll(() => playhead(page)).toBe(seq + 1);
  // the views draw that moment: the snapshot is the one after decision #seq+1
  const snap = await page.evaluate(() => window.fairground.snapshot());
  expect(snap.kind === 'cluster' && snap.decisions).toBe(seq + 1);
  await expect(page.locator('.timeline')).toContainText(
    String(seq + 1).replace(/\B(?=(\d{3})+(?!\d))/g, ' '),
  );
  // the picked line stays in the log, selected
  await expect(log.locator(`li[data-seq="${seq}"]`)).toHaveAttribute('aria-current', 'true');
  // ↑: the next decision, and the playhead with it
  await log.focus();
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => playhead(page)).toBe(seq + 2);
  await expect(page.getByRole('heading', { name: `Why decision #${seq + 2}` })).toBeVisible();
  // ↓ twice: back to the one before the first pick
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => playhead(page)).toBe(seq + 1);
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => playhead(page)).toBe(seq);
  await expect(page.getByRole('heading', { name: `Why decision #${seq}` })).toBeVisible();
});

test('a long seek (a link replayed from t = 0) says where it goes, and Stop seeking leaves the run where it got to, saying so (first-time user)', async ({
  page,
  context,
}) => {
  await openPlain(page);
  // A replay of the default run's 6,000 decisions takes about a second, and on a loaded machine it
  // could end before the checks below and the click on Stop seeking. Four minutes of arrivals
  // instead of one, and a link at decision 30,000: the new page's replay takes several seconds.
  const yaml = await page.evaluate(() => window.fairground.editor.text('scenario'));
  expect(yaml).toMatch(/^duration_s: 60$/m);
  await page.evaluate((y) => window.fairground.load(y), yaml.replace(/^duration_s: 60$/m, 'duration_s: 240'));
  await page.evaluate(() => window.fairground.step(30_000));
  await expect(page.locator('html')).toHaveAttribute('data-live-address', 'current');
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(
    other.getByRole('status').filter({ hasText: 'Seeking to decision 30\u202f000…' }),
  ).toBeVisible();
  await expect(other.getByRole('progressbar', { name: 'Seek progress' })).toHaveAttribute(
    'aria-valuetext',
    /^decision [\d\u202f]+ of 30\u202f000, t = \d+\.\d{3} s$/,
  );
  await other.getByRole('button', { name: 'Stop seeking' }).click();
  await expect(other.getByTestId('seek-hint')).not.toHaveClass(/\bon\b/);
  // the slice under way when Stop was clicked still lands (the playhead may move once more): the
  // message comes after it, and names where the run stopped
  const stopped = other.getByRole('alert').filter({ hasText: 'its replay was stopped at decision' });
  await expect(stopped).toBeVisible();
  const at = await playhead(other);
  expect(at).toBeLessThan(30_000);
  await expect(stopped).toContainText(
    `stopped at decision ${String(at).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f')} of 30\u202f000`,
  );
  // where it stopped is a state of the run like any other: Step goes on from there
  await other.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => playhead(other)).toBe(at + 1);
  await other.close();
});

test('with a decision selected, → and ← move the selection and its explanation with the playhead (lecture tryout)', async ({
  page,
  context,
}) => {
  await openPlain(page);
  await pickScenario(page, 'drr-carry-vs-cursor');
  await page.evaluate(() => window.fairground.step(3));
  const log = page.getByRole('log', { name: 'Decision log' });
  await log.locator('li[data-seq="2"]').click();
  await expect(page.getByRole('heading', { name: 'Why decision #3' })).toBeVisible();
  // the lecturer steps on with the keyboard, the explanation open: it tells the decision just taken
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => playhead(page)).toBe(4);
  await expect(page.getByRole('heading', { name: 'Why decision #4' })).toBeVisible();
  await expect(log.locator('li[data-seq="3"]')).toHaveAttribute('aria-current', 'true');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect.poll(() => playhead(page)).toBe(5);
  await expect(page.getByRole('heading', { name: 'Why decision #5' })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => playhead(page)).toBe(4);
  await expect(page.getByRole('heading', { name: 'Why decision #4' })).toBeVisible();
  // the ring's highlight is the selected decision's class: #4 popped b0 from B
  await expect(page.locator('.drr-table tbody[data-class="B"]')).toHaveClass(/\bselected\b/);
  // a link copied now gives the students the same decision and moment
  await expect(page.locator('html')).toHaveAttribute('data-live-address', 'current');
  const phone = await context.newPage();
  await phone.goto(page.url());
  await phone.waitForFunction(() => window.fairground?.state().kind !== null);
  await expect.poll(() => playhead(phone)).toBe(4);
  await expect.poll(() => phone.evaluate(() => window.fairground.state().selected)).toBe(3);
  // the timeline moves it too: to the end, then back to the start, where no decision is taken yet
  const timeline = page.getByRole('slider', { name: 'Timeline' });
  await timeline.focus();
  await page.keyboard.press('End');
  await expect.poll(() => playhead(page)).toBe(6);
  await expect(page.getByRole('heading', { name: 'Why decision #6' })).toBeVisible();
  await page.keyboard.press('Home');
  await expect.poll(() => playhead(page)).toBe(0);
  await expect.poll(() => page.evaluate(() => window.fairground.state().selected)).toBeNull();
  await expect(page.getByRole('button', { name: 'Clear selection' })).toHaveCount(0);
  await page.keyboard.press('End');
  await expect.poll(() => playhead(page)).toBe(6);
  await log.locator('li[data-seq="3"]').click();
  await expect.poll(() => playhead(page)).toBe(4);
  // without a selection, stepping selects nothing
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => playhead(page)).toBe(5);
  expect(await page.evaluate(() => window.fairground.state().selected)).toBeNull();
});
