/**
 * Tryout, the phone's Menu by keyboard in a short window (below 600 × 340 px, 1280×720 at 300–400 %
 * zoom, the header puts the Scenario picker and the clock in Menu):
 * - the open Menu drew the picker above the Menu button, but the page held it first: Tab from Menu
 *   went to Share, past the picker and Speed. Tab now follows what is drawn, on every phone layout;
 * - Escape on the picker (a native drop-down, its list closed) left the Menu open, where it closes it
 *   from every other control;
 * - Menu → YAML (or another section) left the focus on the body: the next Tab started again from the
 *   page's top. The focus goes to the section's heading.
 */
import { expect, type Page, test } from '@playwright/test';
import { openPlain } from './helpers';

type Stop = { name: string; x: number; y: number; w: number; h: number };

/** The controls Tab visits inside the header from `start`, in order, with their boxes. */
async function tabStops(page: Page, start: string): Promise<Stop[]> {
  await page.locator(start).first().focus();
  const stops: Stop[] = [];
  for (let k = 0; k < 40; k++) {
    const s = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      // where it is drawn in the header's content (the open menu scrolls inside the header)
      const bar = el?.closest<HTMLElement>('.topbar');
      if (!el || !bar) return null;
      const r = el.getBoundingClientRect();
      const down = bar.scrollTop + window.scrollY;
      const name =
        el.getAttribute('aria-label') ||
        (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 20) ||
        el.tagName;
      return { name, x: r.left, y: r.top + down, w: r.width, h: r.height };
    });
    if (s === null) break;
    stops.push(s);
    await page.keyboard.press('Tab');
  }
  return stops;
}

/** Stops that come before one drawn above or to the left of them on the same row (reading order). */
function outOfOrder(stops: Stop[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < stops.length; i++) {
    const a = stops[i - 1];
    const b = stops[i];
    const sameRow = Math.abs(a.y + a.h / 2 - (b.y + b.h / 2)) < Math.min(a.h, b.h) / 2;
    if (sameRow ? b.x < a.x : b.y + b.h / 2 < a.y + a.h / 2)
      out.push(
        `${a.name} (${Math.round(a.x)},${Math.round(a.y)}) → ${b.name} (${Math.round(b.x)},${Math.round(b.y)})`,
      );
  }
  return out;
}

async function openMenuByKeyboard(page: Page) {
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(menu).toBeFocused();
  return menu;
}

test.describe('320×180 (1280×720 at 400 %)', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 180 });
    await openPlain(page);
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  test('after opening Menu, Tab reaches the picker, then Speed and the rest of the menu', async ({
    page,
  }) => {
    await openMenuByKeyboard(page);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('combobox', { name: 'Scenario' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('slider', { name: 'Speed' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Share' })).toBeFocused();
  });

  test('Tab follows the open menu as it is drawn, row by row', async ({ page }) => {
    await openMenuByKeyboard(page);
    const stops = await tabStops(page, '[data-transport="play"]');
    expect(stops.map((s) => s.name)).toContain('Scenario');
    expect(outOfOrder(stops), stops.map((s) => s.name).join(' → ')).toEqual([]);
  });

  test('Escape on the Scenario picker closes the open Menu and leaves the focus on Menu', async ({
    page,
  }) => {
    const menu = await openMenuByKeyboard(page);
    const picker = page.getByRole('combobox', { name: 'Scenario' });
    await picker.focus();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeFocused();
  });

  test('Menu → YAML puts the focus on the YAML section', async ({ page }) => {
    await openMenuByKeyboard(page);
    const yaml = page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'YAML' });
    await yaml.focus();
    await page.keyboard.press('Enter');
    const toggle = page.locator('.fold-toggle[aria-controls="fold-editor"]');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(toggle).toBeFocused();
    await expect(toggle).toBeInViewport();
    // the next Tab goes on into the section (its tabs), not back to the page's top
    await page.keyboard.press('Tab');
    await expect(page.getByRole('tab', { name: 'Policy' })).toBeFocused();
  });
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 700, height: 600 },
])
  test(`${viewport.width}×${viewport.height}: Tab follows the open menu as it is drawn; a section gets the focus`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await openPlain(page);
    await openMenuByKeyboard(page);
    const stops = await tabStops(page, '.toolbar [aria-label="Scenario"]');
    expect(stops.map((s) => s.name)).toContain('Speed');
    expect(outOfOrder(stops), stops.map((s) => s.name).join(' → ')).toEqual([]);
    await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'true');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Log' }).click();
    await expect(page.locator('.fold-toggle[aria-controls="fold-log"]')).toBeFocused();
    // Views: the first view's heading (the whole view outlined was taller than the screen)
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Views' }).click();
    await expect(
      page.getByRole('region', { name: 'DRR ring' }).getByRole('heading', { name: /^DRR ring/ }),
    ).toBeFocused();
  });
