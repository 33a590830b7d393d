/**
 * The page around the views (#13): text outside the views at 14 px and up (editor, log, toolbars,
 * dialogs), every policy problem listed and reachable, the YAML editor wrapping only at spaces, the
 * explanation without its summary twice, and the phone's compact header, menu and folds.
 * Screenshots go to test-results/page-chrome/ for a person to look at.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  editorReady,
  open,
  openPlain,
  pasteInto,
  pickScenario,
  playhead,
  resizeTo,
  smallText,
} from './helpers';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
] as const;

const SHOTS = 'test-results/page-chrome';

/** Visible text drawn under `min` px outside the views (their own test covers them), within `root`. */
function smallTextOutsideViews(page: Page, root = 'body', min = 14): Promise<string[]> {
  return smallText(page, root, min, '.views, script, style, svg');
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

// One page, resized to each size in turn as a reader resizes a window (a page load and a run cost
// seconds of CPU each): the checks at each size are those a page opened at that size gets, each
// failure named by its size.
test('outside the views at each size: text ≥ 14 px, nothing wider than the viewport', async ({ page }) => {
  await page.setViewportSize(SIZES[0]);
  await open(page);
  await pickScenario(page, 'default');
  await page.evaluate(() => window.fairground.seek(6));
  await expect.poll(() => playhead(page)).toBe(6);
  await editorReady(page, 'policy');
  await selectDecision(page, 1);
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    if (size.width < 900) {
      // on the phone the log, the scenario's text and the editor are folded: open them, as a reader would
      for (const name of [/^Decision log/, /^YAML/, /^Scenario/])
        await page.getByRole('button', { name, expanded: false }).click();
    }
    await expect(page.getByRole('region', { name: 'Explanation' }), at).toContainText('Why decision #2');
    // the explanation is open: measure once its layout has settled
    await expect.poll(() => smallTextOutsideViews(page), { message: at }).toEqual([]);
    expect(await widerThanViewport(page), at).toEqual([]);
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
      ['Sweep', 'Sweep'],
      ['Compare', 'Compare'],
    ];
    for (const [opener, name] of dialogs) {
      await menu();
      await page.getByRole('button', { name: opener, exact: true }).click();
      const dialog = page.getByRole('dialog', { name });
      await expect(dialog).toBeVisible();
      expect(
        await smallTextOutsideViews(page, '[role="dialog"], dialog[open]'),
        `${opener} at ${at}`,
      ).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
    await menu();
    await page.getByRole('button', { name: 'Tour', exact: true }).click();
    const tour = page.locator('.tour-panel');
    await expect(tour).toBeVisible();
    expect(await smallTextOutsideViews(page, '.tour-panel'), `tour at ${at}`).toEqual([]);
    expect(await widerThanViewport(page), `tour at ${at}`).toEqual([]);
    await tour.getByRole('button', { name: 'Close tour' }).click();
    await expect(tour).toBeHidden();
  }
});

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

/** At 1280×720, the DRR burst's policy in Monaco with SIX_PROBLEMS pasted over it. */
async function withSixProblems(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await pickScenario(page, 'drr-burst');
  await page.getByRole('tab', { name: 'Policy' }).click();
  expect(await editorReady(page, 'policy')).toBe('monaco');
  await pasteInto(page, 'Policy editor', SIX_PROBLEMS);
}

test('at 1280×720 every policy problem is listed, reachable, and takes the cursor to its line', async ({
  page,
}) => {
  await withSixProblems(page);
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
    // `file:line:col:` as the command line prints it
    const at = (await item.locator('.problem-at').textContent()) ?? '';
    expect(at).toMatch(/^policy\.yaml:\d+:\d+:$/);
    const [line, col] = at.split(':').slice(1, 3).map(Number);
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
    // scroll on, as a reader does, and wait until the editor shows other lines (or has no more)
    const lineCount = (await page.evaluate(() => window.fairground.editor.text('policy'))).split('\n').length;
    const shown = () =>
      editor.evaluate((root) =>
        [...root.querySelectorAll<HTMLElement>('.line-numbers')].map((e) => Number(e.textContent)),
      );
    const before = await shown();
    if (before.includes(lineCount)) break;
    await editor.hover();
    await page.mouse.wheel(0, 200);
    await expect.poll(async () => (await shown()).join(',')).not.toBe(before.join(','));
  }
  // the narrow column does wrap the default policy (so the check above looked at real breaks)
  expect(continuations).toBeGreaterThan(0);
  await page.locator('.editors').screenshot({ path: `${SHOTS}/editor-wrap-1280x720.png` });
});

test("the explanation's numbered steps do not repeat the summary under its heading", async ({ page }) => {
  await openPlain(page);
  await pickScenario(page, 'default');
  await page.evaluate(() => window.fairground.seek(4));
  await expect.poll(() => playhead(page)).toBe(4);
  // newest first: picking a decision moves the playhead to it, and the log ends there
  for (const seq of [2, 1, 0]) {
    await selectDecision(page, seq);
    const panel = page.getByRole('region', { name: 'Explanation' });
    const summary = (await panel.locator('.explanation-summary').textContent())?.trim() ?? '';
    expect(summary.length).toBeGreaterThan(10);
    const steps = await panel.locator('.explanation-steps > li').allTextContents();
    expect(steps.length).toBeGreaterThan(0);
    for (const s of steps) expect(s.trim().startsWith(summary), `step "${s}"`).toBe(false);
  }
});

/** The sticky header's box, and whether the transport in it is on screen. */
async function header(page: Page): Promise<{ top: number; height: number; transport: boolean }> {
  const box = await page.locator('.topbar').boundingBox();
  const step = await page.getByRole('button', { name: 'Step' }).boundingBox();
  const play = await page.getByRole('button', { name: /^(Play|Pause)$/ }).boundingBox();
  return {
    top: box?.y ?? -1,
    height: box?.height ?? -1,
    transport: !!step && !!play && step.y >= 0 && step.y + step.height <= 844 && play.y >= 0,
  };
}

for (const id of ['default', 'drr-burst']) {
  test(`phone 390×844 (${id}): a compact sticky header, the lesson first, the rest one tap away`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page);
    await pickScenario(page, id);
    await page.evaluate(() => window.fairground.seek(3));
    await expect.poll(() => playhead(page)).toBe(3);
    // the first screen: a header of at most ~three rows, then the ring whole
    const top = await header(page);
    expect(top.top).toBe(0);
    expect(top.height).toBeLessThanOrEqual(130);
    expect(top.transport).toBe(true);
    const ring = await page.locator('.drr-ring').boundingBox();
    expect(ring && ring.y >= top.height && ring.y + ring.height <= 844, 'ring on the first screen').toBe(
      true,
    );
    expect(await widerThanViewport(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/phone-${id}-first-screen.png` });
    // what is not the lesson is folded to one line each: the page is the views plus a few lines
    for (const name of [/^Decision log/, /^(Scenario|DRR sandbox)/, /^YAML/])
      await expect(page.getByRole('button', { name, expanded: false })).toBeVisible();
    const heights = await page.evaluate(() => ({
      page: document.documentElement.scrollHeight,
      views: document.querySelector('.column.center')?.getBoundingClientRect().height ?? 0,
      capped: [...document.querySelectorAll<HTMLElement>('.views > .class-service, .views > .fig-view')].map(
        (e) => e.getBoundingClientRect().height,
      ),
    }));
    expect(heights.page - heights.views, 'page height outside the views').toBeLessThanOrEqual(450);
    for (const h of heights.capped) expect(h).toBeLessThanOrEqual(0.7 * 844 + 1);
    // the header stays while the page scrolls, transport and all
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const low = await header(page);
    expect(low.top).toBe(0);
    expect(low.transport).toBe(true);
    await page.getByRole('button', { name: 'Step' }).click();
    await expect.poll(() => playhead(page)).toBe(4);
    // Menu: the features, Share and Present, and the sections, all on the screen
    await page.getByRole('button', { name: 'Menu', expanded: false }).click();
    for (const name of ['Tour', 'Sweep', 'Compare', 'Export', 'Share', 'Present', 'Keyboard shortcuts']) {
      const b = await page.getByRole('button', { name, exact: true }).boundingBox();
      expect(b && b.y >= 0 && b.y + b.height <= 844, `${name} on screen`).toBe(true);
    }
    await expect(page.getByRole('slider', { name: 'Speed' })).toBeVisible();
    expect(await widerThanViewport(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/phone-${id}-menu.png` });
    // Escape folds the menu; a section of the menu opens its fold and scrolls it under the header
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Log' }).click();
    await expect(page.getByRole('button', { name: /^Decision log/ })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await expect(page.getByRole('log', { name: 'Decision log' })).toBeInViewport();
    const bar = await header(page);
    const log = await page.locator('.log-panel').boundingBox();
    expect(log && log.y >= bar.height - 1, 'the log starts under the header').toBe(true);
    // the phone plays
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => playhead(page), { timeout: 15_000 }).toBeGreaterThan(6);
    await page.screenshot({ path: `${SHOTS}/phone-${id}-log.png` });
  });
}

test('a phone opens a shared link at its moment: playhead, selected decision, its explanation one tap away', async ({
  page,
  context,
}) => {
  await openPlain(page);
  await pickScenario(page, 'default');
  await page.evaluate(() => window.fairground.seek(5));
  await expect.poll(() => playhead(page)).toBe(5);
  await selectDecision(page, 2);
  // picking decision #3 moved the playhead to just after it (tester F9)
  await expect.poll(() => playhead(page)).toBe(3);
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#s=\d+\./);
  // the debounced rewrite after the selection is done: the address holds it
  await expect(page.locator('html')).toHaveAttribute('data-live-address', 'current');
  const link = page.url();
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(link);
  await phone.waitForFunction(() => window.fairground?.state().kind !== null);
  await expect.poll(() => playhead(phone)).toBe(3);
  await expect(phone.getByRole('region', { name: 'Explanation' })).toContainText('Why decision #3');
  await phone.getByRole('button', { name: 'Menu' }).click();
  await phone.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Why #3' }).click();
  await expect(phone.getByRole('region', { name: 'Explanation' })).toBeInViewport();
  expect(await widerThanViewport(phone)).toEqual([]);
  await phone.screenshot({ path: `${SHOTS}/phone-shared-link.png` });
  // a broken policy shows on the folded editor's line, and its list is there when unfolded
  await editorReady(phone, 'policy');
  await phone.evaluate((t) => window.fairground.editor.setText('policy', t), SIX_PROBLEMS);
  const fold = phone.getByRole('button', { name: /^YAML.*\d+ problems/ });
  await expect(fold).toBeVisible();
  await fold.click();
  await expect(phone.getByRole('list', { name: 'Policy problems' })).toBeVisible();
  await phone.getByRole('list', { name: 'Policy problems' }).scrollIntoViewIfNeeded();
  expect(await widerThanViewport(phone)).toEqual([]);
  await phone.screenshot({ path: `${SHOTS}/phone-problems.png` });
});

test('at 150 % zoom of 1280×720 (853 px wide) the header is two rows: picker, transport and Menu, then the timeline', async ({
  browser,
}) => {
  const ctx = await browser.newContext({ viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 });
  const page = await ctx.newPage();
  await openPlain(page);
  await pickScenario(page, 'drr-burst');
  const bar = await page.locator('.topbar').boundingBox();
  expect(bar?.height ?? 999).toBeLessThanOrEqual(90);
  const pick = await page.getByRole('combobox', { name: 'Scenario' }).boundingBox();
  const step = await page.getByRole('button', { name: 'Step' }).boundingBox();
  const menu = await page.getByRole('button', { name: 'Menu' }).boundingBox();
  if (!pick || !step || !menu) throw new Error('header controls missing');
  // one row: their boxes share a line
  expect(Math.abs(step.y - pick.y)).toBeLessThan(10);
  expect(Math.abs(menu.y - pick.y)).toBeLessThan(10);
  expect(await widerThanViewport(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/zoom150-853x480.png` });
  await ctx.close();
});

test('a file dragged over the page shows the drop overlay over the whole page, not one column', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPlain(page);
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['{}\n'], 'trace.jsonl', { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, cancelable: true }));
    window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, cancelable: true }));
  });
  const overlay = page.locator('.trace-drop');
  await expect(overlay).toBeVisible();
  const box = await overlay.boundingBox();
  if (!box) throw new Error('no overlay');
  // inset 12 px from each edge of the viewport (inside a contained column it was that column's box)
  expect(Math.abs(box.x - 12)).toBeLessThanOrEqual(2);
  expect(Math.abs(box.y - 12)).toBeLessThanOrEqual(2);
  expect(Math.abs(box.width - (1280 - 24))).toBeLessThanOrEqual(2);
  expect(Math.abs(box.height - (720 - 24))).toBeLessThanOrEqual(2);
  await page.screenshot({ path: `${SHOTS}/trace-drop-1280x720.png` });
  await page.evaluate(() => window.dispatchEvent(new DragEvent('dragleave', { relatedTarget: null })));
  await expect(overlay).toHaveCount(0);
});

test('presentation mode keeps the speed value beside the slider', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPlain(page);
  await pickScenario(page, 'drr-burst');
  await page.getByRole('button', { name: 'Present' }).click();
  await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'on');
  const value = page.locator('.masthead .speed-value');
  await expect(value).toBeVisible();
  await expect(value).toHaveText(/\/s$/);
  const slider = await page.getByRole('slider', { name: 'Speed' }).boundingBox();
  const v = await value.boundingBox();
  expect(slider && v && Math.abs(v.y + v.height / 2 - (slider.y + slider.height / 2)) < 12).toBe(true);
  await page.locator('.masthead').screenshot({ path: `${SHOTS}/present-speed-1280x720.png` });
});

test('in compare mode at 1280×720 "Edit B" and "Exit compare" are each one line', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPlain(page);
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare' });
  await dialog.getByRole('combobox', { name: 'B scheduler' }).selectOption('lpm');
  await dialog.getByRole('button', { name: 'Start comparing' }).click();
  await expect(dialog).toHaveCount(0);
  const diff = page.getByRole('region', { name: 'Difference' });
  // At t = 0 the head fitted; it grows with "at t = 3.01 s" (Jain's n/a row) and "at t = 50.01 s" and
  // the full table (tester finding 8: "Exit comp", the table's B − A column past the panel's edge).
  for (const until of [0, 3, 50]) {
    if (until > 0) await page.evaluate((t) => window.fairground.runUntil(t), until);
    await expect(diff.locator('tr[data-row="throughput"]')).toBeVisible();
    for (const name of ['Edit B', 'Exit compare']) {
      const lines = await diff.getByRole('button', { name, exact: true }).evaluate((b) => {
        const r = document.createRange();
        r.selectNodeContents(b);
        return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
      });
      expect(lines, `${name} at t = ${until}`).toBe(1);
    }
    // the buttons and the table stay inside the panel, and nothing scrolls sideways
    const panel = await diff.boundingBox();
    const exit = await diff.getByRole('button', { name: 'Exit compare' }).boundingBox();
    expect(panel && exit && exit.x + exit.width <= panel.x + panel.width + 1, `t = ${until}`).toBe(true);
    expect(panel && panel.x + panel.width <= 1280, `t = ${until}`).toBe(true);
    const sideways = await diff.evaluate((d) =>
      [d, d.querySelector('.table-scroll'), d.parentElement]
        .filter((e): e is Element => e !== null)
        .filter((e) => e.scrollWidth > e.clientWidth + 1)
        .map((e) => `${e.className}: ${e.scrollWidth} > ${e.clientWidth}`),
    );
    expect(sideways, `t = ${until}`).toEqual([]);
  }
  await diff.screenshot({ path: `${SHOTS}/compare-diff-head-1280x720.png` });
});

test("at 1280×720 the editor's problem hover is drawn whole, past the editor column's edge", async ({
  page,
}) => {
  await withSixProblems(page);
  const region = page.getByRole('region', { name: 'Policy editor' });
  const items = region.getByRole('list', { name: 'Policy problems' }).getByRole('button');
  await expect(items.first()).toBeVisible();
  // the cursor goes to the problem; Monaco's "show hover" (Ctrl+K Ctrl+I) opens its message there
  await items.first().click();
  await page.keyboard.press('ControlOrMeta+K');
  await page.keyboard.press('ControlOrMeta+I');
  const hover = page.locator('.monaco-hover:not(.hidden)').filter({ hasText: /\S/ }).first();
  await expect(hover).toBeVisible();
  const column = await page.locator('.column.left').boundingBox();
  const box = await hover.boundingBox();
  if (!column || !box) throw new Error('no hover');
  // every part of the hover, left, middle and right, is what is painted there (not cut by the column)
  const painted = await hover.evaluate((h) => {
    const r = h.getBoundingClientRect();
    return [r.left + 4, (r.left + r.right) / 2, r.right - 4].every((x) => {
      const hit = document.elementFromPoint(x, r.top + Math.min(12, r.height / 2));
      return !!hit && h.contains(hit);
    });
  });
  const where = `hover ${Math.round(box.x)}–${Math.round(box.x + box.width)}, column ends ${Math.round(column.x + column.width)}`;
  expect(painted, where).toBe(true);
  expect(box.x + box.width).toBeGreaterThan(column.x + column.width);
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  await page.screenshot({ path: `${SHOTS}/editor-hover-1280x720.png` });
});

test('phone 390×844: a tour opened from the Menu brings the ring it names into sight, its card clear of the header', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlain(page);
  await pickScenario(page, 'default');
  // the reader has scrolled down to the scenario's text
  await page.getByRole('button', { name: /^(Scenario|DRR sandbox)/, expanded: false }).click();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
  await page.getByRole('button', { name: 'Menu', expanded: false }).click();
  await page.getByRole('button', { name: 'Tour', exact: true }).click();
  await page.getByRole('button', { name: 'What DRR is' }).click();
  const card = page.locator('.tour-panel');
  await expect(card.locator('.tour-progress')).toHaveText('Step 1 of 4');
  await expect(card).toContainText('The DRR ring shows the cursor on A');
  const ring = page.locator('.drr-ring');
  await expect(ring).toBeInViewport({ ratio: 0.99 });
  const bar = await header(page);
  expect(bar.transport).toBe(true);
  const r = await ring.boundingBox();
  const c = await card.boundingBox();
  if (!r || !c) throw new Error('no ring or card');
  // the ring lies between the header and the card; the card leaves the header (transport, timeline) free
  expect(r.y).toBeGreaterThanOrEqual(bar.height - 1);
  expect(r.y + r.height).toBeLessThanOrEqual(c.y + 1);
  expect(c.y).toBeGreaterThanOrEqual(bar.height);
  expect(c.x).toBeGreaterThanOrEqual(0);
  expect(c.x + c.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/phone-tour-step1.png` });
  // Next: the transport stays usable above the card
  await card.getByRole('button', { name: 'Next' }).click();
  await expect(card.locator('.tour-progress')).toHaveText('Step 2 of 4');
  await expect.poll(() => playhead(page)).toBe(1);
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => playhead(page)).toBe(2);
  expect(await widerThanViewport(page)).toEqual([]);
});

test("phone 390×844: the Sweep dialog's fields stay inside the dialog", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlain(page);
  await page.getByRole('button', { name: 'Menu', expanded: false }).click();
  await page.getByRole('button', { name: 'Sweep', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Sweep' });
  await expect(dialog).toBeVisible();
  const d = await dialog.boundingBox();
  if (!d) throw new Error('no dialog');
  for (const field of await dialog.locator('select, input').all()) {
    const b = await field.boundingBox();
    if (!b) continue;
    const name = (await field.getAttribute('aria-label')) ?? (await field.getAttribute('type')) ?? 'field';
    expect(
      b.x >= d.x && b.x + b.width <= d.x + d.width,
      `${name} ${Math.round(b.x)}–${Math.round(b.x + b.width)}`,
    ).toBe(true);
  }
  await page.screenshot({ path: `${SHOTS}/phone-sweep.png` });
});

test("phone 390×844: the timeline's decision count stays on one line, 14 px, clear of the slider", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlain(page);
  await pickScenario(page, 'default');
  // four-digit counts on both sides: "decision 2 845 / 2 845"
  await page.evaluate(() => window.fairground.runUntil(30));
  await expect.poll(() => playhead(page)).toBeGreaterThan(1000);
  const count = page.locator('.timeline-count');
  await expect(count).toHaveText(/^decision \d{1,3}(\u202f\d{3})+ \/ \d{1,3}(\u202f\d{3})+$/);
  const m = await count.evaluate((el) => {
    const s = getComputedStyle(el);
    const range = document.createRange();
    range.selectNodeContents(el);
    return {
      size: Number.parseFloat(s.fontSize),
      // one line box per line of text
      lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
      box: el.getBoundingClientRect().toJSON() as DOMRect,
    };
  });
  expect(m.size).toBeGreaterThanOrEqual(14);
  expect(m.lines).toBe(1);
  expect(m.box.right).toBeLessThanOrEqual(390);
  // the slider keeps room to scrub, and does not run under the count
  const slider = await page.getByRole('slider', { name: 'Timeline' }).boundingBox();
  if (!slider) throw new Error('no timeline slider');
  expect(slider.width).toBeGreaterThanOrEqual(200);
  const apart =
    slider.x + slider.width <= m.box.left ||
    slider.y + slider.height <= m.box.top ||
    m.box.top + m.box.height <= slider.y;
  expect(apart, 'slider clear of the count').toBe(true);
  const top = await header(page);
  expect(top.height).toBeLessThanOrEqual(130);
  await page.screenshot({ path: `${SHOTS}/phone-timeline-count.png` });
});

test("at a run's end the timeline says so beside the count, on one line, at a phone's width and a projector's", async ({
  page,
}) => {
  await openPlain(page);
  await pickScenario(page, 'drr-carry-vs-cursor');
  const count = page.locator('.timeline-count');
  await expect(count).not.toContainText('end');
  // a short script: step past its last op, so Play and Step are greyed out
  await page.evaluate(() => window.fairground.step(1000));
  await expect.poll(() => page.evaluate(() => window.fairground.state().done)).toBe(true);
  await expect(count).toHaveText(/^step \d+ \/ \d+ · end$/);
  await expect(count).toHaveAttribute('title', /^The run is over/);
  for (const size of [
    { width: 390, height: 844 },
    { width: 853, height: 480 },
  ]) {
    await page.setViewportSize(size);
    const m = await count.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return {
        lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
        right: el.getBoundingClientRect().right,
      };
    });
    expect(m.lines, `${size.width} px`).toBe(1);
    expect(m.right, `${size.width} px`).toBeLessThanOrEqual(size.width);
  }
  // a step back leaves the end: the words go
  await page.getByRole('button', { name: 'Previous decision' }).click();
  await expect(count).not.toContainText('end');
});

// Tester finding F10: at 1280×720 with 150 % zoom the Help dialog opened scrolled to its Close button,
// its heading "Keyboard shortcuts" cut off above the dialog's top edge.
for (const [name, opts] of [
  ['1280×720 at 150 %', { viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 }],
  ['390×844', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ['1280×720', { viewport: { width: 1280, height: 720 } }],
] as const) {
  test.describe(`the Help dialog at ${name}`, () => {
    test.use(opts);
    test('shows its whole heading and its Close button inside the window', async ({ page }) => {
      await openPlain(page);
      await page.locator('body').press('?');
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await expect(dialog).toBeVisible();
      const view = page.viewportSize() ?? { width: 0, height: 0 };
      const box = await dialog.boundingBox();
      const head = await dialog.getByRole('heading', { name: 'Keyboard shortcuts' }).boundingBox();
      const close = await dialog.getByRole('button', { name: 'Close', exact: true }).boundingBox();
      expect(box && head && close).toBeTruthy();
      if (!box || !head || !close) return;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(view.height);
      // the heading and Close lie wholly inside the dialog's visible box (not scrolled out of it)
      for (const [what, r] of [
        ['heading', head],
        ['Close', close],
      ] as const) {
        expect(r.y, what).toBeGreaterThanOrEqual(box.y);
        expect(r.y + r.height, what).toBeLessThanOrEqual(box.y + box.height);
      }
      await page.screenshot({ path: `test-results/help-${name.replace(/[^0-9a-z]+/gi, '-')}.png` });
    });

    // The first focus was the shortcut list (the first focusable thing in the dialog): Enter did
    // nothing and a screen reader started inside a scrolling region. It is Close now; the list stays
    // one Shift+Tab away and scrolls by keyboard.
    test('opens with the focus on Close; the list is reachable by keyboard and scrolls', async ({ page }) => {
      await openPlain(page);
      await page.locator('body').press('?');
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Close', exact: true })).toBeFocused();
      await page.keyboard.press('Shift+Tab');
      const list = dialog.getByRole('region', { name: 'Shortcut list' });
      await expect(list).toBeFocused();
      const room = await list.evaluate((el) => el.scrollHeight - el.clientHeight);
      // at 150 % zoom the list is taller than its room (elsewhere it may fit)
      if (name.includes('150')) expect(room).toBeGreaterThan(0);
      if (room > 0) {
        await page.keyboard.press('PageDown');
        await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
      }
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect(dialog).toHaveCount(0);
    });
  });
}

// The panels had a scroll margin for the menu's jumps, but the controls inside them had none: a button
// or summary that Tab (or Shift+Tab) focused was scrolled to the page's top edge, under the sticky
// header (the Client service toggle at 390×844, the DRR ring's "?" at 853×480).
for (const viewport of [
  { width: 390, height: 844 },
  { width: 853, height: 480 },
])
  test(`${viewport.width}×${viewport.height}: a control that Shift+Tab focuses is not hidden under the sticky header`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await openPlain(page);
    await page.evaluate(() => window.fairground.step(150));
    // each control and the one after it in the Tab order: the first scrolled up under the header (in
    // the window, so the browser saw no need to scroll it when focused), Shift+Tab from the second
    for (const [control, next] of [
      [page.getByRole('button', { name: 'cumulative' }), page.getByRole('button', { name: 'rate' })],
      [
        page.getByRole('button', { name: 'What is profile (root)?' }),
        page.getByRole('button', { name: 'What is V2?' }),
      ],
    ]) {
      await next.focus();
      await control.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 20));
      await page.keyboard.press('Shift+Tab');
      await expect(control).toBeFocused();
      const covered = await control.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit && !el.contains(hit) ? hit.closest('header, .topbar')?.className || hit.className : '';
      });
      expect(covered, `${await control.textContent()} under the header`).toBe('');
    }
  });

// Escape folded the phone's menu with the focus on one of its controls, now hidden: the focus fell to
// the body and the next Tab started again from the top of the page. It goes to the Menu button.
test('phone 390×844: Escape from a control in the menu leaves the focus on Menu', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlain(page);
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.click();
  const sections = page.getByRole('navigation', { name: 'Sections' });
  await sections.getByRole('button', { name: 'Scenario' }).focus();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeFocused();
});

// On a phone the columns were drawn in lesson order by CSS `order` alone: Tab went from the timeline
// to the scenario text and the editor at the page's end, then back up to the views. The page holds
// them in the order they are drawn.
for (const viewport of [
  { width: 390, height: 844 },
  { width: 853, height: 480 },
])
  test(`${viewport.width}×${viewport.height}: Tab follows the page's order, views first, the editor last`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await openPlain(page);
    await page.evaluate(() => window.fairground.step(30));
    await expect.poll(() => playhead(page)).toBe(30);
    const timeline = page.getByRole('slider', { name: 'Timeline' });
    await timeline.focus();
    await expect(timeline).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('region', { name: 'DRR ring' })).toBeFocused();
    await page.locator('.fold-toggle[aria-controls="fold-log"]').focus();
    await page.keyboard.press('Tab');
    await expect(page.locator('.fold-toggle[aria-controls="fold-scenario"]')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.locator('.fold-toggle[aria-controls="fold-editor"]')).toBeFocused();
    // and back to the desktop's three columns, left to right
    await resizeTo(page, { width: 1280, height: 720 });
    const columns = await page
      .locator('main.workspace > .column')
      .evaluateAll((cols) => cols.map((c) => c.className));
    expect(columns).toEqual(['column left', 'column center', 'column right']);
  });

// With a tour open on a phone the card covers the bottom of the screen: a control Tab focused there was
// left under the card (the folded Scenario and YAML panels, the glossary buttons). The page keeps the
// card's height as its bottom scroll padding.
test('phone 390×844: with a tour open, a control Tab focuses is not left under the tour card', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlain(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Tour', exact: true }).click();
  const card = page.getByRole('dialog', { name: 'Tour' });
  await card.getByRole('button', { name: 'Why LPM starves a client and DLPM does not' }).click();
  await expect(card).toContainText('Step 1 of');
  await expect(card).not.toContainText('moving the simulation');
  const before = page.locator('.fold-toggle[aria-controls="fold-log"]');
  const control = page.locator('.fold-toggle[aria-controls="fold-scenario"]');
  await before.focus();
  // the control just inside the window's bottom edge, under the card
  await control.evaluate((el) =>
    window.scrollBy(0, el.getBoundingClientRect().bottom - window.innerHeight + 20),
  );
  await page.keyboard.press('Tab');
  await expect(control).toBeFocused();
  const [bottom, cardTop] = await control.evaluate((el) => [
    el.getBoundingClientRect().bottom,
    document.querySelector('.tour-panel')?.getBoundingClientRect().top ?? Number.NaN,
  ]);
  expect(bottom, 'the focused control ends above the card').toBeLessThanOrEqual(cardTop);
});

/** Height (px) of the window that the page's header covers now (0 when it has scrolled away). */
function headerCover(page: Page): Promise<number> {
  return page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>('.topbar');
    const r = (
      bar && bar.getBoundingClientRect().height > 0 ? bar : document.querySelector('.masthead')
    )?.getBoundingClientRect();
    if (!r) return -1;
    return Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0));
  });
}

// Tryout: at 400 % zoom of a 1280×720 screen (320×180 CSS px) the sticky header (picker, Menu,
// transport, timeline) stayed on screen as the page scrolled and covered 159 of the 180 px: the views
// read through a 21 px slit. A viewport that short gets a header that scrolls away with the page, and
// what Tab focuses lands at the top, not under a header that is no longer there. 853×480 (150 %) and
// 390×844 keep the sticky header.
for (const [tag, viewport, scale] of [
  ['320×180 (1280×720 at 400 %)', { width: 320, height: 180 }, 4],
  ['427×240 (1280×720 at 300 %)', { width: 427, height: 240 }, 3],
] as const)
  test(`at ${tag} the header does not stay over the page as it scrolls`, async ({ browser }) => {
    const ctx = await browser.newContext({ viewport, deviceScaleFactor: scale });
    const page = await ctx.newPage();
    await openPlain(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    // at the top the whole header is there, its transport reachable
    await expect(page.getByRole('button', { name: 'Play' })).toBeInViewport();
    // …and compact: the page's content starts well within the first window (the header was 159 of
    // 180 px: transport, clock and the timeline's label each had a row), its text still ≥ 14 px
    const mainTop = await page.locator('main').evaluate((el) => el.getBoundingClientRect().top);
    expect(mainTop, `the content starts ${mainTop} px down`).toBeLessThan(viewport.height);
    expect(mainTop).toBeLessThanOrEqual(viewport.height * 0.4);
    const smallest = await page
      .locator('.topbar')
      .evaluate((bar) =>
        Math.min(
          ...[...bar.querySelectorAll('*')]
            .filter(
              (e) =>
                e.getClientRects().length > 0 &&
                [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim()),
            )
            .map((e) => Number.parseFloat(getComputedStyle(e).fontSize)),
        ),
      );
    expect(smallest).toBeGreaterThanOrEqual(14);
    // what folded into Menu (the scenario picker, the clock) is one Enter away, named, by keyboard
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(menu).toBeFocused();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    const picker = page.getByRole('combobox', { name: 'Scenario' });
    await expect(picker).toBeVisible();
    await expect(page.getByRole('status', { name: 'Simulated time' })).toBeVisible();
    // the menu unfolds under Menu, the picker first: the next Tab (short-menu-keys.spec.ts)
    await page.keyboard.press('Tab');
    await expect(picker).toBeFocused();
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await page.evaluate(() => window.scrollTo(0, 600));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    const cover = await headerCover(page);
    expect(cover, `header covers ${cover} of ${viewport.height} px`).toBeLessThanOrEqual(
      viewport.height * 0.25,
    );
    // a control that Tab focuses lower on the page is scrolled to near the top, not 160 px down under
    // a scroll padding kept for a sticky header
    const control = page.getByRole('button', { name: 'What is profile (root)?' });
    await page.evaluate(() => window.scrollTo(0, 0));
    await control.focus();
    const top = await control.evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top + 20).toBeLessThanOrEqual(viewport.height);
    await page.screenshot({ path: `test-results/short-header-${viewport.width}x${viewport.height}.png` });
    await ctx.close();
  });

for (const [viewport, scale] of [
  [{ width: 853, height: 480 }, 1.5],
  [{ width: 390, height: 844 }, 1],
  [{ width: 640, height: 360 }, 2],
] as const)
  test(`at ${viewport.width}×${viewport.height} the header stays in sight as the page scrolls`, async ({
    browser,
  }) => {
    const ctx = await browser.newContext({ viewport, deviceScaleFactor: scale });
    const page = await ctx.newPage();
    await openPlain(page);
    await page.evaluate(() => window.scrollTo(0, 600));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await expect(page.getByRole('button', { name: 'Play' })).toBeInViewport();
    expect(await headerCover(page)).toBeLessThanOrEqual(viewport.height * 0.2);
    await ctx.close();
  });
