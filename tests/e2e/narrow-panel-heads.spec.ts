/**
 * Tryout: in a window up to ~340 px wide (1280×720 at 400 % zoom is 320×180 CSS px) the folded
 * "YAML · policy & scenario" header was 1 px wide: the editors' head hid its heading when the column
 * got narrower than 300 px (a rule meant for the desktop's narrow left column), and on a phone that
 * heading is the button that unfolds the panel. It showed as an empty sliver at the page's end; Tab
 * focused an invisible control and no tap could open the editors. Every panel's head keeps its
 * heading readable and pressable there, the tabs and buttons going under it when there is no room.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { openPlain } from './helpers';

/** The heading's box, and whether its visible title is cut (ellipsis) or covered by a sibling. */
async function headState(head: Locator) {
  return head.evaluate((el) => {
    const h2 = el.querySelector('h2') as HTMLElement;
    const r = h2.getBoundingClientRect();
    const title =
      [...h2.querySelectorAll<HTMLElement>('.fold-name, .fold-title')].find(
        (t) => t.getClientRects().length > 0,
      ) ?? h2;
    const overlaps = [...el.children]
      .filter((c) => c !== h2 && c.getClientRects().length > 0)
      .map((c) => c.getBoundingClientRect())
      .filter(
        (b) =>
          b.width > 0 &&
          b.left < r.right - 1 &&
          b.right > r.left + 1 &&
          b.top < r.bottom - 1 &&
          b.bottom > r.top + 1,
      );
    // the title itself (a long count after it, such as the scenario's name, may end in an ellipsis)
    const words = document.createRange();
    words.selectNodeContents(title.firstChild ?? title);
    const t = words.getBoundingClientRect();
    const box = title.getBoundingClientRect();
    return {
      width: r.width,
      height: r.height,
      cut: t.width === 0 || t.right > box.right + 1 || t.left < box.left - 1,
      overlaps: overlaps.length,
      text: (title.textContent ?? '').trim(),
    };
  });
}

async function expectReadable(head: Locator, what: string) {
  const s = await headState(head);
  expect(s.width, `${what}: heading "${s.text}" is ${s.width} px wide`).toBeGreaterThan(120);
  expect(s.height, what).toBeGreaterThanOrEqual(20);
  expect(s.cut, `${what}: "${s.text}" is cut`).toBe(false);
  expect(s.overlaps, `${what}: something sits over the heading`).toBe(0);
}

async function openAt(page: Page, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await openPlain(page);
}

for (const viewport of [
  { width: 320, height: 180 },
  { width: 340, height: 600 },
])
  test.describe(`${viewport.width}×${viewport.height}`, () => {
    test('the folded YAML section is readable, Tab reaches it, a click unfolds it', async ({ page }) => {
      await openAt(page, viewport);
      const yaml = page.locator('.fold-toggle[aria-controls="fold-editor"]');
      const scenario = page.locator('.fold-toggle[aria-controls="fold-scenario"]');
      // Tab from the section before it lands on a control one can see
      await scenario.focus();
      await page.keyboard.press('Tab');
      await expect(yaml).toBeFocused();
      await expect(yaml).toBeInViewport();
      await expectReadable(page.locator('#fold-editor > .panel-head'), 'folded YAML head');
      await expect(yaml).toHaveAccessibleName(/YAML · policy & scenario/);
      // a real click at its centre (Playwright checks nothing else takes it)
      await yaml.click();
      await expect(yaml).toHaveAttribute('aria-expanded', 'true');
      // unfolded: the heading stays, the tabs go under it
      await expectReadable(page.locator('#fold-editor > .panel-head'), 'open YAML head');
      const tabs = page.getByRole('tablist', { name: 'Editors' });
      await expect(tabs.getByRole('tab', { name: 'Policy' })).toBeVisible();
      await expect(tabs.getByRole('tab', { name: 'Scenario' })).toBeVisible();
      const tabBox = await tabs.boundingBox();
      const headBox = await page.locator('#editors-title').boundingBox();
      expect(tabBox && headBox && tabBox.y >= headBox.y + headBox.height - 1).toBe(true);
      // a click on the heading folds it again
      await yaml.click();
      await expect(yaml).toHaveAttribute('aria-expanded', 'false');
    });

    test("the other panels' heads are readable too, with their buttons", async ({ page }) => {
      await openAt(page, viewport);
      await page.evaluate(() => window.fairground.step(20));
      for (const fold of ['log', 'scenario']) {
        const t = page.locator(`.fold-toggle[aria-controls="fold-${fold}"]`);
        await t.click();
        await expect(t).toHaveAttribute('aria-expanded', 'true');
      }
      // a selected decision: the log's head gets "Clear selection", the explanation opens
      await page.locator('.decision-log [data-seq]').first().click();
      await expect(page.getByRole('button', { name: 'Clear selection' })).toBeVisible();
      await expectReadable(page.locator('#fold-log > .panel-head'), 'log head');
      await expectReadable(page.locator('.explanation-panel > .panel-head'), 'explanation head');
      await expect(page.locator('#fold-scenario .fold-toggle')).toBeVisible();
      await expectReadable(page.locator('#fold-scenario'), 'scenario head');
    });
  });

// the desktop's narrow left column keeps its one-row head (the tabs; the title yields to them)
test('1280×720: the editors keep their tabs in one row', async ({ page }) => {
  await openAt(page, { width: 1280, height: 720 });
  const tabs = page.getByRole('tablist', { name: 'Editors' });
  const policy = await tabs.getByRole('tab', { name: 'Policy' }).boundingBox();
  const scenario = await tabs.getByRole('tab', { name: 'Scenario' }).boundingBox();
  expect(policy && scenario && Math.abs(policy.y - scenario.y) < 2).toBe(true);
});
