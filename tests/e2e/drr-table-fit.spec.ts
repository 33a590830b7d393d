/**
 * The DRR ring's class table is whole in its column at every size, presenting or not: presenting at
 * 1280×720 the ring keeps a 340 px column and the table got 239 px where its class and
 * deficit / quantum columns needed 270 on one line each, so "deficit / quantum" and the figures were
 * cut at the card's edge. One page, resized, so the check costs one load.
 */
import { expect, type Page, test } from '@playwright/test';
import { openPlain, playhead, smallText } from './helpers';

/** Cells of the table that reach past its column, and the column's sideways overflow, in px. */
async function cut(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const side = document.querySelector('.drr-side') as HTMLElement;
    const s = side.getBoundingClientRect();
    const out: string[] = [];
    if (side.scrollWidth > side.clientWidth + 0.5)
      out.push(`column scrolls ${side.scrollWidth - side.clientWidth} px`);
    for (const c of side.querySelectorAll<HTMLElement>('.drr-table th, .drr-table td')) {
      const r = c.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.right > s.right + 0.5 || r.left < s.left - 0.5)
        out.push(
          `"${(c.textContent ?? '').trim().slice(0, 24)}" ${Math.round(r.left)}–${Math.round(r.right)} in ${Math.round(s.left)}–${Math.round(s.right)}`,
        );
    }
    return out;
  });
}

test("the DRR ring's class table is whole in its column, presenting or not, at the four sizes", async ({
  page,
}) => {
  await openPlain(page);
  await page.evaluate(() => window.fairground.seek(30));
  await expect.poll(() => playhead(page)).toBe(30);
  const sizes = [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
    { width: 853, height: 480 },
    { width: 390, height: 844 },
  ];
  const problems: string[] = [];
  for (const presenting of [false, true]) {
    if (presenting) {
      await page.keyboard.press('p');
      await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'on');
    }
    for (const size of sizes) {
      await page.setViewportSize(size);
      await expect(page.locator('.drr-table')).toBeVisible();
      // let the layout and the container queries settle at the new size
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const at = `${size.width}×${size.height}${presenting ? ' presenting' : ''}`;
      for (const p of await cut(page)) problems.push(`${at}: ${p}`);
      const least = presenting && size.width > 600 ? 18 : 14;
      for (const p of await smallText(page, '.drr-table', least))
        problems.push(`${at}: under ${least} px: ${p}`);
    }
  }
  expect(problems).toEqual([]);
});
