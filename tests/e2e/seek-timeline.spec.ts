/**
 * The timeline during a seek: while a replay runs (a link opened at a late playhead, Step back in a
 * long run), the timeline said "decision 31 424 / 31 424", the target, which read like the end of
 * the run, while the clock showed the replay's time. Now it says where the replay is and where it is
 * going ("decision 640 → 30 000"), on a slider that reaches the target, and the seeking hint gives
 * the target's time too when the run has been there before. The decision log, whose lines reached it
 * in bursts thousands of decisions behind the clock, says where the replay is too.
 */
import { expect, type Page, test } from '@playwright/test';
import { openPlain, playhead } from './helpers';

const digits = (s: string) => Number(s.replace(/\u202f/g, ''));
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');

/** The default run stretched to `durationS` of arrivals (four minutes by default), stepped to decision `n`. */
async function longRun(page: Page, n: number, durationS = 240): Promise<void> {
  const yaml = await page.evaluate(() => window.fairground.editor.text('scenario'));
  expect(yaml).toMatch(/^duration_s: 60$/m);
  await page.evaluate(
    ([y, d]) => window.fairground.load(y.replace(/^duration_s: 60$/m, `duration_s: ${d}`)),
    [yaml, durationS] as const,
  );
  await page.evaluate((k) => window.fairground.step(k), n);
}

test('a link replaying to a late playhead: the timeline shows the replay heading for the target, not the target as the end', async ({
  page,
  context,
}) => {
  await openPlain(page);
  // 60 000 decisions: the link's replay takes a few seconds, long enough that the checks below and
  // the Stop click come before its end (with 30 000 the replay once ended under the click in CI)
  await longRun(page, 60_000, 480);
  await expect(page.locator('html')).toHaveAttribute('data-live-address', 'current');
  const other = await context.newPage();
  await other.goto(page.url());
  const hint = other.getByRole('status').filter({ hasText: 'Seeking to decision 60\u202f000…' });
  await expect(hint).toBeVisible();
  const count = other.getByTestId('timeline-count');
  await expect(count).toHaveText(/^decision [\d\u202f]+ → 60\u202f000$/);
  const at = digits((await count.textContent())?.match(/^decision ([\d\u202f]+)/)?.[1] ?? '');
  expect(at).toBeLessThan(60_000);
  // the slider reaches the target, its thumb at the replay (not at its far end)
  const slider = other.getByRole('slider', { name: 'Timeline' });
  await expect(slider).toHaveAttribute('max', '60000');
  expect(Number(await slider.inputValue())).toBeLessThan(60_000);
  await other.getByRole('button', { name: 'Stop seeking' }).click();
  // stopped: the timeline is at rest where the replay got to, as the clock is
  const stopped = await playhead(other);
  await expect(count).toHaveText(`decision ${grouped(stopped)} / ${grouped(stopped)}`);
  await other.close();
});

test('Step back in a long run replayed from the start: the timeline counts the replay, and the hint gives the target’s time', async ({
  page,
}) => {
  await openPlain(page);
  // a background tab takes no restore points: the run below keeps none past its start, so one step
  // back replays ~30 000 decisions from t = 0, long enough to watch
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await longRun(page, 30_000);
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const count = page.getByTestId('timeline-count');
  await expect(count).toHaveText('decision 30\u202f000 / 30\u202f000');
  await page.getByRole('button', { name: 'Previous decision' }).click();
  const hint = page.getByTestId('seek-hint').getByRole('status');
  await expect(hint).toHaveText(/^Seeking to decision 29\u202f999 \(t = \d+\.\d{3} s\)…$/);
  const words = (await hint.textContent()) ?? '';
  await expect(count).toHaveText(/^decision [\d\u202f]+ → 29\u202f999$/);
  const at = digits((await count.textContent())?.match(/^decision ([\d\u202f]+)/)?.[1] ?? '');
  expect(at).toBeLessThan(29_999);
  // the decision log says the same, instead of lines thousands of decisions behind the clock
  const log = page.getByRole('log', { name: 'Decision log' });
  await expect(log).toContainText(
    /Replaying to decision 29\u202f999 \(t = \d+\.\d{3} s\): at decision [\d\u202f]+\./,
  );
  // it lands where it said, at the time it said
  await expect.poll(() => playhead(page), { timeout: 30_000 }).toBe(29_999);
  const t = await page.evaluate(() => window.fairground.state().simTime);
  expect(words).toContain(`(t = ${t.toFixed(3)} s)`);
  await expect(count).toHaveText('decision 29\u202f999 / 30\u202f000');
  await expect(log.locator('li[data-seq]').first()).toHaveAttribute('data-seq', '29998');
  await expect(log).not.toContainText('Replaying');
});
