/**
 * Compare mode's Difference panel and run B's controls as a person meets them: the panel's heading
 * ("A at its end, B at 109.448 s") ran on under "Edit B" at 1280 px and on a phone.
 */
import { expect, type Page, test } from '@playwright/test';
import { AA_TEXT, contrast, parseColor, WHITE } from '../../src/ui/features/contrast';
import { openPlain, resizeTo, smallText } from './helpers';

/** Text in the Difference panel's head whose glyphs lie under one of its buttons, or past the panel. */
async function headClashes(page: Page): Promise<string[]> {
  return page.locator('.diff-view').evaluate((panel) => {
    const out: string[] = [];
    const head = panel.querySelector('.panel-head') as HTMLElement;
    const buttons = [...head.querySelectorAll('button')].map((b) => ({
      name: b.textContent,
      r: b.getBoundingClientRect(),
    }));
    const box = panel.getBoundingClientRect();
    const walker = document.createTreeWalker(head.querySelector('h2') as HTMLElement, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.width === 0) continue;
        const text = (n.textContent ?? '').trim();
        if (r.right > box.right + 0.5 || r.left < box.left - 0.5) out.push(`"${text}" past the panel`);
        for (const b of buttons) {
          const w = Math.min(r.right, b.r.right) - Math.max(r.left, b.r.left);
          const h = Math.min(r.bottom, b.r.bottom) - Math.max(r.top, b.r.top);
          if (w > 0.5 && h > 0.5) out.push(`"${text}" under "${b.name}"`);
        }
      }
    }
    return out;
  });
}

test('the Difference panel’s heading never runs under Edit B: 1280×720, at 150 % and on a phone', async ({
  page,
}) => {
  await openPlain(page);
  await page.evaluate(() => window.fairground.compare(['scheduler.policy=fcfs', 'cluster.workers=1']));
  // A to its end, B (one worker, slower) goes on past it: the longest heading
  await page.evaluate(() => window.fairground.step(1_000_000));
  await expect.poll(() => page.evaluate(() => window.fairground.state().done)).toBe(true);
  await page.getByRole('button', { name: 'Step' }).click();
  const diff = page.getByRole('region', { name: 'Difference' });
  await expect(diff.getByRole('heading')).toHaveText(/^Difference A at its end, B at \d+\.\d{3} s$/);
  const problems: string[] = [];
  for (const size of [
    { width: 1280, height: 720 },
    { width: 853, height: 480 },
    { width: 390, height: 844 },
  ]) {
    await resizeTo(page, size);
    await diff.scrollIntoViewIfNeeded();
    const at = `${size.width}×${size.height}`;
    for (const p of await headClashes(page)) problems.push(`${at}: ${p}`);
    for (const p of await smallText(page, '.diff-view', 14)) problems.push(`${at}: under 14 px: ${p}`);
    await expect(diff.getByRole('button', { name: 'Edit B' }), at).toBeVisible();
  }
  expect(problems).toEqual([]);
});

/** Open Compare from the feature bar and start (or update) run B with these picks, as a person does. */
async function startB(page: Page, opener: 'Compare' | 'Edit B', overrides: string, scheduler?: string) {
  if (opener === 'Compare') await page.getByRole('button', { name: 'Compare', exact: true }).click();
  else await page.getByRole('region', { name: 'Difference' }).getByRole('button', { name: 'Edit B' }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare' });
  if (scheduler) await dialog.getByLabel('B scheduler').selectOption(scheduler);
  await dialog.getByLabel('B overrides').fill(overrides);
  await dialog
    .getByRole('button', { name: opener === 'Compare' ? 'Start comparing' : 'Update run B' })
    .click();
  await expect(dialog).toBeHidden();
}

test('run B’s label shows every override: the first ones spelled out, the rest counted, all in its tooltip', async ({
  page,
}) => {
  await openPlain(page);
  await startB(page, 'Compare', 'cluster.workers=1', 'fcfs');
  // "fcfs · kv-aware" alone hid the one worker
  const heading = page.getByRole('region', { name: /^B: / }).locator('.compare-head h2');
  await expect(heading).toHaveText('B fcfs · kv-aware + cluster.workers=1');
  const diff = page.getByRole('region', { name: 'Difference' });
  await expect(diff.locator('.diff-runs')).toContainText('B fcfs · kv-aware + cluster.workers=1');
  // more overrides than the label has room for
  await startB(
    page,
    'Edit B',
    'cluster.workers=1\nduration_s=50\nclients.alice.arrival.rate=2\nclients.mallory.arrival.rate=9',
  );
  await expect(heading).toHaveText(/^B fcfs · kv-aware \+ cluster\.workers=1(, [^,]+)* \+\d more$/);
  const title =
    'Run B overrides:\nscheduler.policy=fcfs\ncluster.workers=1\nduration_s=50\nclients.alice.arrival.rate=2\nclients.mallory.arrival.rate=9';
  await expect(heading).toHaveAttribute('title', title);
  await expect(diff.locator('.diff-label-b')).toHaveAttribute('title', title);
  // on a phone the label wraps, but never inside its count ("+2" on one line, "more" on the next)
  await resizeTo(page, { width: 390, height: 844 });
  for (const count of [heading.locator('.label-count'), diff.locator('.diff-label-b .label-count')]) {
    await expect(count).toHaveText(/^\+\d more$/);
    expect(await count.evaluate((el) => el.getClientRects().length)).toBe(1);
  }
});

test('after Start comparing or Update run B the focus is on Play, so Space plays instead of reopening the dialog', async ({
  page,
}) => {
  await openPlain(page);
  const playing = () => page.evaluate(() => window.fairground.state().playing);
  const dialog = page.getByRole('dialog', { name: 'Compare' });
  const play = page.getByRole('button', { name: 'Play' });
  await startB(page, 'Compare', '', 'fcfs');
  await expect(play).toBeFocused();
  await page.keyboard.press('Space');
  await expect.poll(playing).toBe(true);
  await expect(dialog).toBeHidden();
  await page.keyboard.press('Space');
  await expect.poll(playing).toBe(false);
  await startB(page, 'Edit B', 'cluster.workers=1');
  await expect(play).toBeFocused();
  await page.keyboard.press('Space');
  await expect.poll(playing).toBe(true);
  await expect(dialog).toBeHidden();
});

// The A and B tags took the panel's colour for their letter: white on orange (2.2:1) in the light
// theme, near-black on blue (3.1:1) in the dark one. Each reads at AA now, in both themes.
test('the A and B tags read at 4.5:1 in the light and the dark theme', async ({ page }) => {
  await openPlain(page);
  await page.evaluate(() => window.fairground.compare(['scheduler.policy=fcfs']));
  // two column headings, the Difference panel's A and B, and its note that the log is run A's
  await expect(page.locator('.compare-tag')).toHaveCount(5);
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    const pairs = await page
      .locator('.compare-tag')
      .evaluateAll((tags) =>
        tags.map((t) => [
          t.textContent ?? '',
          getComputedStyle(t).color,
          getComputedStyle(t).backgroundColor,
        ]),
      );
    for (const [tag, ink, fill] of pairs) {
      const ratio = contrast(parseColor(ink) ?? WHITE, parseColor(fill) ?? WHITE);
      expect(ratio, `${theme}: tag ${tag}, ${ink} on ${fill}`).toBeGreaterThanOrEqual(AA_TEXT);
    }
  }
});
