/**
 * The page around the views (#13): text outside the views at 14 px and up (editor, log, toolbars,
 * dialogs), every policy problem listed and reachable, the YAML editor wrapping only at spaces, the
 * explanation without its summary twice, and the phone's compact header, menu and folds.
 * Screenshots go to test-results/page-chrome/ for a person to look at.
 */
import { expect, type Page, test } from '@playwright/test';
import { editorReady, open, pasteInto, pickScenario, playhead } from './helpers';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
] as const;

const SHOTS = 'test-results/page-chrome';

/** Visible text drawn under `min` px outside the views (their own test covers them), within `root`. */
async function smallTextOutsideViews(page: Page, root = 'body', min = 14): Promise<string[]> {
  return page.evaluate(
    ([sel, least]) => {
      const out: string[] = [];
      for (const scope of document.querySelectorAll(sel))
        for (const el of scope.querySelectorAll<HTMLElement>('*')) {
          if (el.closest('.views, .vh, title, desc, [hidden], script, style, svg')) continue;
          const own = [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
          if (!own) continue;
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          const size = Number.parseFloat(getComputedStyle(el).fontSize);
          if (size < least - 0.01)
            out.push(
              `${el.tagName}.${el.className} "${(el.textContent ?? '').trim().slice(0, 30)}" ${size}px`,
            );
        }
      return out;
    },
    [root, min] as const,
  );
}

/** Elements whose box sticks out of the viewport sideways (the page would scroll or cut them). */
async function widerThanViewport(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const out: string[] = [];
    const sideways = document.documentElement.scrollWidth - vw;
    if (sideways > 0) out.push(`page scrolls sideways by ${sideways}px`);
    for (const el of document.querySelectorAll<HTMLElement>('.app *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      // inside a box that scrolls or clips on its own (Monaco, a table's scroller) it is that box's business
      let p = el.parentElement;
      let clipped = false;
      while (p && !p.classList.contains('app')) {
        const o = getComputedStyle(p).overflowX;
        if (o !== 'visible') {
          clipped = true;
          break;
        }
        p = p.parentElement;
      }
      if (clipped) continue;
      if (r.left < -1 || r.right > vw + 1)
        out.push(`${el.tagName}.${el.className} ${Math.round(r.left)}–${Math.round(r.right)}`);
    }
    return out.slice(0, 10);
  });
}

/** Click a decision of the log, as a reader does (the explanation opens under the log). */
async function selectDecision(page: Page, seq: number): Promise<void> {
  await page.locator(`.decision-log li[data-seq="${seq}"]`).click();
  await expect(page.getByRole('region', { name: 'Explanation' })).toContainText(`Why decision #${seq + 1}`);
}

for (const size of SIZES.filter((s) => s.width >= 900)) {
  test(`outside the views at ${size.width}×${size.height}: text ≥ 14 px, nothing wider than the viewport`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await open(page);
    await pickScenario(page, 'default');
    await page.evaluate(() => window.fairground.seek(6));
    await expect.poll(() => playhead(page)).toBe(6);
    await editorReady(page, 'policy');
    if (size.width < 900) {
      // on the phone the log, the scenario's text and the editor are folded: open them, as a reader would
      for (const name of [/^Decision log/, /^YAML/, /^Scenario/])
        await page.getByRole('button', { name, expanded: false }).click();
    }
    await selectDecision(page, 1);
    await page.waitForTimeout(300);
    expect(await smallTextOutsideViews(page)).toEqual([]);
    expect(await widerThanViewport(page)).toEqual([]);
    await page.screenshot({
      path: `${SHOTS}/page-${size.width}x${size.height}.png`,
      fullPage: size.width < 900,
    });
    // the dialogs and the tour panel too
    const menu = async () => {
      if (size.width < 900) await page.getByRole('button', { name: 'Menu', expanded: false }).click();
    };
    const dialogs: [string, string][] = [
      ['Keyboard shortcuts', 'Keyboard shortcuts'],
      ['Export', 'Export'],
      ['Share', 'Share link'],
    ];
    for (const [opener, name] of dialogs) {
      await menu();
      await page.getByRole('button', { name: opener, exact: true }).click();
      const dialog = page.getByRole('dialog', { name });
      await expect(dialog).toBeVisible();
      expect(await smallTextOutsideViews(page, '[role="dialog"], dialog[open]'), opener).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
    await menu();
    await page.getByRole('button', { name: 'Tour', exact: true }).click();
    await expect(page.locator('.tour-panel')).toBeVisible();
    expect(await smallTextOutsideViews(page, '.tour-panel'), 'tour').toEqual([]);
    expect(await widerThanViewport(page)).toEqual([]);
  });
}

const SIX_PROBLEMS = [
  'policy_classes:',
  '  - {name: A, quantum: -1}',
  '  - {name: B, quantum: zero}',
  '  - {name: C, quantum: 0, colour: red}',
  '  - {name: A, quantum: 5}',
  '  - {quantum: 5}',
  '  - {name: F, quantum: 1.5}',
  '',
].join('\n');

test('at 1280×720 every policy problem is listed, reachable, and takes the cursor to its line', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await pickScenario(page, 'drr-burst');
  await page.getByRole('tab', { name: 'Policy' }).click();
  expect(await editorReady(page, 'policy')).toBe('monaco');
  await pasteInto(page, 'Policy editor', SIX_PROBLEMS);
  const ours = () =>
    page.evaluate(() => window.fairground.editor.markers('policy').filter((m) => m.owner === 'fairground'));
  // more problems than the old one-line status could show
  await expect.poll(async () => (await ours()).length).toBeGreaterThanOrEqual(4);
  const markers = await ours();
  const region = page.getByRole('region', { name: 'Policy editor' });
  const toggle = region.getByRole('button', { name: `${markers.length} problems` });
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const list = region.getByRole('list', { name: 'Policy problems' });
  const items = list.getByRole('button');
  await expect(items).toHaveCount(markers.length);
  // the list is on screen, under the editor, with room for more than one problem
  const box = await list.boundingBox();
  if (!box) throw new Error('no problem list');
  expect(box.y + box.height).toBeLessThanOrEqual(720);
  expect(box.height).toBeGreaterThan(60);
  const editorBox = await region.locator('.monaco-editor').boundingBox();
  expect(editorBox?.height ?? 0).toBeGreaterThan(120);
  await page.screenshot({ path: `${SHOTS}/problems-1280x720.png` });
  // each problem can be scrolled to inside the list and clicked: the cursor goes to its place
  for (const i of [markers.length - 1, 1]) {
    const item = items.nth(i);
    await item.scrollIntoViewIfNeeded();
    const b = await item.boundingBox();
    expect(b && b.y >= box.y - 1 && b.y + b.height <= box.y + box.height + 1, `problem ${i} in view`).toBe(
      true,
    );
    const [line, col] = ((await item.locator('.problem-at').textContent()) ?? '').split(':').map(Number);
    expect(markers.some((m) => m.line === line)).toBe(true);
    await item.click();
    await expect
      .poll(() => page.evaluate(() => window.fairground.editor.cursor('policy')))
      .toEqual({ line, col });
  }
  // the count folds the list away, and brings it back
  await toggle.click();
  await expect(list).toBeHidden();
  await toggle.click();
  await expect(items).toHaveCount(markers.length);
});

test('the YAML editor wraps long lines only at spaces, never inside a key', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await pickScenario(page, 'default');
  expect(await editorReady(page, 'policy')).toBe('monaco');
  const editor = page.getByRole('region', { name: 'Policy editor' }).locator('.monaco-editor');
  let continuations = 0;
  for (let pass = 0; pass < 6; pass++) {
    const joins = await editor.evaluate((root) => {
      const tops = (sel: string) =>
        [...root.querySelectorAll<HTMLElement>(sel)].map((e) => ({
          top: Math.round(e.getBoundingClientRect().top),
          text: (e.textContent ?? '').replace(/\u00a0/g, ' '),
        }));
      const lines = tops('.view-line').sort((a, b) => a.top - b.top);
      const numbered = new Set(tops('.line-numbers').map((n) => n.top));
      const out: string[] = [];
      for (let i = 1; i < lines.length; i++) {
        if ([-1, 0, 1].some((d) => numbered.has(lines[i].top + d))) continue;
        out.push(`${lines[i - 1].text}⏎${lines[i].text}`);
      }
      return out;
    });
    continuations += joins.length;
    for (const j of joins) {
      const [head, tail] = j.split('⏎');
      // a word wider than the whole editor has to be cut somewhere (Monaco's last resort)
      if (!/\S\s+\S/.test(head.trim())) continue;
      // otherwise the break is after a space: the first part ends with it (the continuation's own
      // indent says nothing), so no key and no `interactive_|uncached` is split
      expect(/\s$/.test(head), j).toBe(true);
      expect(/^\s*\S/.test(tail), j).toBe(true);
    }
    await editor.hover();
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(150);
  }
  // the narrow column does wrap the default policy (so the check above looked at real breaks)
  expect(continuations).toBeGreaterThan(0);
  await page.locator('.editors').screenshot({ path: `${SHOTS}/editor-wrap-1280x720.png` });
});

test("the explanation's numbered steps do not repeat the summary under its heading", async ({ page }) => {
  await open(page);
  await pickScenario(page, 'default');
  await page.evaluate(() => window.fairground.seek(4));
  await expect.poll(() => playhead(page)).toBe(4);
  for (const seq of [0, 1, 2]) {
    await selectDecision(page, seq);
    const panel = page.getByRole('region', { name: 'Explanation' });
    const summary = (await panel.locator('.explanation-summary').textContent())?.trim() ?? '';
    expect(summary.length).toBeGreaterThan(10);
    const steps = await panel.locator('.explanation-steps > li').allTextContents();
    expect(steps.length).toBeGreaterThan(0);
    for (const s of steps) expect(s.trim().startsWith(summary), `step "${s}"`).toBe(false);
  }
});
