/**
 * Tryout: on a phone, Menu → Views put the focus on the DRR ring view itself, a region taller than
 * the screen (374 × 1150 px at 390 × 844), so its focus ring was a frame around everything with no
 * edge of it in sight but the top. The focus goes to the view's heading: a ring around one line at
 * the top of the screen, and the next Tab goes on into the view.
 */
import { expect, type Page, test } from '@playwright/test';
import { openPlain, playhead } from './helpers';

/** The focused element as a person sees it: its box, and whether its focus ring is drawn. */
async function focusRing(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return {
      top: r.top,
      bottom: r.bottom,
      height: r.height,
      ring:
        el.matches(':focus-visible') &&
        style.outlineStyle !== 'none' &&
        Number.parseFloat(style.outlineWidth) > 0,
    };
  });
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 700, height: 600 },
])
  test(`${viewport.width}×${viewport.height}: Menu → Views by keyboard rings the DRR ring's heading, not the whole view`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await openPlain(page);
    await page.evaluate(() => window.fairground.step(30));
    await expect.poll(() => playhead(page)).toBe(30);
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Views' }).focus();
    await page.keyboard.press('Enter');
    const view = page.getByRole('region', { name: 'DRR ring' });
    const heading = view.getByRole('heading', { name: /^DRR ring/ });
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport();
    // the ring is drawn, around one line, all of it on the screen under the sticky header
    const header = await page.locator('.topbar').boundingBox();
    const ring = await focusRing(page);
    expect(ring.ring, 'a focus ring is drawn').toBe(true);
    expect(ring.height).toBeLessThan(80);
    expect(ring.top).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0) - 1);
    expect(ring.bottom).toBeLessThanOrEqual(viewport.height);
    // the focus is in the section: Tab goes on into the view, and ← / → still move the playhead
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => playhead(page)).toBe(29);
    await heading.focus();
    await page.keyboard.press('Tab');
    expect(
      await view.evaluate((v) => v.contains(document.activeElement) && v !== document.activeElement),
    ).toBe(true);
    // the heading takes the focus only when sent there: a tap on it later does not
    await expect(heading).not.toHaveAttribute('tabindex');
  });

test('390×844: Menu → Views by tap also leaves the focus on the heading, in sight', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlain(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Views' }).click();
  const heading = page.getByRole('region', { name: 'DRR ring' }).getByRole('heading', { name: /^DRR ring/ });
  await expect(heading).toBeFocused();
  await expect(heading).toBeInViewport();
  expect((await focusRing(page)).height).toBeLessThan(80);
});
