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

/**
 * Every cursor / carry tag of the table against every tick of the bars (quantum, head cost, with the
 * head cost's triangle, a CSS ::after measured from its computed style): pairs whose boxes intersect.
 */
async function tagClashes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type B = { l: number; t: number; r: number; b: number; name: string };
    const marks: B[] = [];
    for (const tick of document.querySelectorAll<HTMLElement>('.drr-table .drr-tick')) {
      const r = tick.getBoundingClientRect();
      if (getComputedStyle(tick).display === 'none') continue;
      const row = tick.closest('tbody')?.getAttribute('data-class') ?? '?';
      const kind = tick.classList.contains('head')
        ? 'head cost'
        : tick.classList.contains('quantum')
          ? 'quantum'
          : 'tick';
      marks.push({ l: r.left, t: r.top, r: r.right, b: r.bottom, name: `${row}'s ${kind} marker` });
      const a = getComputedStyle(tick, '::after');
      if (a.content === 'none' || a.content === '') continue;
      // absolutely placed in the tick's padding box: past its left border; its drawn part is the top
      // border (a triangle pointing down), the bottom one is transparent
      const left =
        r.left + Number.parseFloat(getComputedStyle(tick).borderLeftWidth) + Number.parseFloat(a.left);
      const top = r.top + Number.parseFloat(a.top);
      const w = Number.parseFloat(a.borderLeftWidth) + Number.parseFloat(a.borderRightWidth);
      marks.push({
        l: left,
        t: top,
        r: left + w,
        b: top + Number.parseFloat(a.borderTopWidth),
        name: `${row}'s ${kind} triangle`,
      });
    }
    const out: string[] = [];
    for (const tag of document.querySelectorAll<HTMLElement>('.drr-table .drr-tag')) {
      const r = tag.getBoundingClientRect();
      if (r.width === 0) continue;
      const row = tag.closest('tbody')?.getAttribute('data-class') ?? '?';
      for (const m of marks) {
        const w = Math.min(r.right, m.r) - Math.max(r.left, m.l);
        const h = Math.min(r.bottom, m.b) - Math.max(r.top, m.t);
        if (w > 0 && h > 0)
          out.push(
            `${row}'s ${tag.textContent} tag (${Math.round(r.top)}–${Math.round(r.bottom)}) × ${m.name} (${Math.round(m.t)}–${Math.round(m.b)})`,
          );
      }
    }
    return out;
  });
}

test("drr-burst after one step: the table's cursor and carry tags cover no bar marker, at every size, presenting or not", async ({
  page,
}) => {
  // at 1280×720 the cursor tag's bottom edge sat on the head-cost triangle of the bar below it (the
  // triangle rose 8 px above its track, into the tag's row)
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPlain(page);
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption('drr-burst');
  await expect.poll(() => playhead(page)).toBe(0);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect.poll(() => playhead(page)).toBe(1);
  await expect(page.locator('.views')).toHaveAttribute('data-decisions', '1');
  await expect(page.locator('[data-animating]')).toHaveCount(0);
  const problems: string[] = [];
  for (const presenting of [false, true]) {
    if (presenting) {
      await page.keyboard.press('p');
      await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'on');
    }
    for (const size of [
      { width: 1280, height: 720 },
      { width: 1920, height: 1080 },
      { width: 853, height: 480 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await expect(page.locator('.drr-table .drr-tag')).toHaveCount(2);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const at = `${size.width}×${size.height}${presenting ? ' presenting' : ''}`;
      for (const p of await tagClashes(page)) problems.push(`${at}: ${p}`);
    }
  }
  expect(problems).toEqual([]);
});
