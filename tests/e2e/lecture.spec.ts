/**
 * The lecture hall (#13): legible views at projector and phone sizes, presentation mode, the DRR pop
 * animated phase by phase, and links that carry the moment. Screenshots go to test-results/lecture/
 * for a person to look at.
 */
import { expect, type Page, test } from '@playwright/test';
import { openPlain, pickScenario, playhead, resizeTo, smallText, textCollisions } from './helpers';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
] as const;

/** Pairs of masthead/timeline controls whose boxes overlap. */
async function overlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const els = [
      ...document.querySelectorAll<HTMLElement>(
        '.masthead button, .masthead select, .masthead input, .masthead output, .subbar button, .subbar input',
      ),
    ].filter((e) => e.getBoundingClientRect().width > 0);
    const out: string[] = [];
    for (let i = 0; i < els.length; i++)
      for (let j = i + 1; j < els.length; j++) {
        const a = els[i].getBoundingClientRect();
        const b = els[j].getBoundingClientRect();
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1)
          out.push(
            `${els[i].textContent || els[i].getAttribute('aria-label')} × ${els[j].textContent || els[j].getAttribute('aria-label')}`,
          );
      }
    return out;
  });
}

/**
 * Rotated y-axis titles that touch a tick label of their chart, or stick out of the chart's box
 * (into the heading above it, say): each as "title × label".
 */
async function axisClashes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const svg of document.querySelectorAll<SVGSVGElement>('.views svg')) {
      const titles = [...svg.querySelectorAll<SVGTextElement>('.axis .axis-title')].filter((t) =>
        (t.getAttribute('transform') ?? '').includes('rotate'),
      );
      if (titles.length === 0) continue;
      const labels = [...svg.querySelectorAll<SVGTextElement>('.axis text:not(.axis-title)')];
      const box = svg.getBoundingClientRect();
      for (const t of titles) {
        const a = t.getBoundingClientRect();
        if (a.width === 0) continue;
        const name = (t.textContent ?? '').trim();
        if (a.top < box.top - 0.5 || a.bottom > box.bottom + 0.5 || a.left < box.left - 0.5)
          out.push(`${name} × outside its chart`);
        for (const l of labels) {
          const b = l.getBoundingClientRect();
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (w > 0 && h > 0) out.push(`${name} × ${(l.textContent ?? '').trim()}`);
        }
      }
    }
    return out;
  });
}

/** The drr-burst script with the focus on the page (a click on an empty spot), so → steps it. */
async function burstWithPageFocus(page: Page): Promise<void> {
  await openPlain(page);
  await pickScenario(page, 'drr-burst');
  await page.locator('body').click({ position: { x: 5, y: 700 } });
}

// Each scenario is run once and the window resized to each size in turn, as a reader resizes it (a
// page load and a run cost seconds of CPU each): at each size the checks a page opened there gets,
// each failure named by its scenario and size.

test(`views at ${SIZES.map((s) => `${s.width}×${s.height}`).join(', ')}: text ≥ 14 px, nothing overlaps, no sideways scroll`, async ({
  page,
}) => {
  await page.setViewportSize(SIZES[0]);
  await openPlain(page);
  for (const id of ['drr-burst', 'default']) {
    await pickScenario(page, id);
    await page.evaluate(() => window.fairground.seek(3));
    await expect.poll(() => playhead(page)).toBe(3);
    for (const size of SIZES) {
      const at = `${id} at ${size.width}×${size.height}`;
      await resizeTo(page, size);
      // the views draw that snapshot, and no pop is being animated
      await expect(page.locator('.views'), at).toHaveAttribute('data-decisions', '3');
      await expect(page.locator('[data-animating]'), at).toHaveCount(0);
      expect(await smallText(page, '.views', 14), at).toEqual([]);
      expect(await overlaps(page), at).toEqual([]);
      expect(await axisClashes(page), at).toEqual([]);
      // the help button is reachable where it is drawn (the feature bar used to cover it at 1280 px);
      // on a phone it is in the header's menu
      const phone = size.width < 900;
      if (phone) {
        await page.getByRole('button', { name: 'Menu' }).click();
        expect(await overlaps(page), `${at} menu`).toEqual([]);
      }
      const help = page.getByRole('button', { name: 'Keyboard shortcuts' });
      const box = await help.boundingBox();
      if (box) {
        const hit = await page.evaluate(
          ([x, y]) => document.elementFromPoint(x, y)?.closest('button')?.getAttribute('aria-label') ?? null,
          [box.x + box.width / 2, box.y + box.height / 2] as const,
        );
        expect(hit, at).toBe('Keyboard shortcuts');
      }
      if (phone) await page.keyboard.press('Escape');
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(sideways, at).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: `test-results/lecture/${id}-${size.width}x${size.height}.png`,
        fullPage: size.width < 900,
      });
    }
  }
});

test('below 900 px the page is one column in lesson order: transport, ring, step account, log, editor', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlain(page);
  await pickScenario(page, 'drr-burst');
  const top = async (sel: string) => (await page.locator(sel).first().boundingBox())?.y ?? -1;
  const order = async () => [
    await top('.masthead'),
    await top('section[aria-label="DRR ring"]'),
    await top('.drr-account'),
    await top('.log-panel'),
    await top('section[aria-label="Policy editor"], .column.left'),
  ];
  // measured once every part is drawn (read at once after the pick, a part could still be missing)
  await expect.poll(async () => (await order()).every((y) => y >= 0)).toBe(true);
  const ys = await order();
  expect([...ys].sort((a, b) => a - b)).toEqual(ys);
  // the phone can play and step
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => playhead(page)).toBe(1);
  await page.getByRole('button', { name: 'Play' }).click();
  await expect.poll(() => playhead(page), { timeout: 15_000 }).toBeGreaterThan(2);
});

// One page resized from the one size to the other with each lesson on screen (a run of
// guarantee-dlpm costs seconds of CPU): each failure named by its size.
test("presentation mode at 1280×720 and 1920×1080: the lesson's views fill the screen at 18 px and up", async ({
  page,
}) => {
  const sizes = [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ];
  await page.setViewportSize(sizes[0]);
  await openPlain(page);
  await pickScenario(page, 'drr-burst');
  await page.evaluate(() => window.fairground.seek(3));
  await expect.poll(() => playhead(page)).toBe(3);
  await page.keyboard.press('p');
  await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'on');
  await expect(page.getByRole('button', { name: 'Present' })).toHaveAttribute('aria-pressed', 'true');
  expect(new URL(page.url()).searchParams.get('present')).toBe('1');
  for (const size of sizes) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    // editor and log hidden; ring, deficit table, class queues and the step account shown; transport kept
    await expect(page.getByRole('log', { name: 'Decision log' }), at).toBeHidden();
    await expect(page.locator('.column.left'), at).toBeHidden();
    await expect(page.getByRole('region', { name: 'DRR ring' }), at).toBeVisible();
    await expect(page.locator('.drr-table'), at).toBeVisible();
    await expect(page.getByRole('region', { name: 'Class queues' }), at).toBeVisible();
    await expect(page.locator('.drr-account'), at).toBeVisible();
    await expect(page.getByRole('button', { name: 'Step' }), at).toBeVisible();
    expect(await smallText(page, '.views', 18), at).toEqual([]);
    await page.screenshot({ path: `test-results/lecture/present-drr-${size.width}x${size.height}.png` });
  }
  // a cluster lesson: service, guarantees and workers
  await pickScenario(page, 'guarantee-dlpm');
  await page.evaluate(() => window.fairground.step(400));
  for (const size of [...sizes].reverse()) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    await expect(page.getByRole('region', { name: 'Client service' }), at).toBeVisible();
    await expect(page.getByRole('region', { name: 'Guarantees' }), at).toBeVisible();
    await expect(page.getByRole('region', { name: 'Workers' }), at).toBeAttached();
    await expect(page.getByRole('region', { name: 'Figures' }), at).toHaveCount(0);
    expect(await smallText(page, '.views', 18), at).toEqual([]);
    await page.screenshot({ path: `test-results/lecture/present-cluster-${size.width}x${size.height}.png` });
  }
  await page.getByRole('button', { name: 'Present' }).click();
  await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'off');
});

test('?present=1 in a link opens in presentation mode', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?present=1');
  await page.waitForFunction(() => window.fairground?.state().kind !== null);
  await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'on');
});

// Tester finding (new user): presenting at 1280×720 at 150 % (853 px), Present was only inside the
// closed Menu, so nothing on screen said how to leave presentation mode.
test('presenting at 853×480 (150 %): the pressed Present sits in the header, and one press leaves', async ({
  browser,
}) => {
  const ctx = await browser.newContext({ viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 });
  const page = await ctx.newPage();
  await page.goto('./?editor=plain&present=1');
  await page.waitForFunction(() => window.fairground?.state().kind !== null);
  const app = page.locator('.app');
  await expect(app).toHaveAttribute('data-presenting', 'on');
  await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  const present = page.getByRole('button', { name: 'Present' });
  await expect(present).toBeInViewport();
  await expect(present).toHaveAttribute('aria-pressed', 'true');
  await present.click();
  await expect(app).toHaveAttribute('data-presenting', 'off');
  // not presenting, it is back inside the Menu
  await expect(present).toBeHidden();
  await ctx.close();
});

test('a pop animates in phases: the bar rises by the quantum, then falls by the cost (hooks true mid-step)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await burstWithPageFocus(page);
  // a sampler in the page reads the hooks at every animation frame of the step, up to the first
  // frame after the animation ended (the ring drops data-animating then)
  await page.evaluate(() => {
    const w = window as unknown as {
      __samples: { d: number; ratio: number; rule: string; state: string }[];
      __ended: boolean;
    };
    w.__samples = [];
    w.__ended = false;
    let started = false;
    const tick = () => {
      const g = document.querySelector('[data-class="A"] .drr-bar') as HTMLElement;
      const track = g.closest('.drr-track') as HTMLElement;
      const ratio = g.getBoundingClientRect().width / track.getBoundingClientRect().width;
      const max = Number(track.dataset.scaleMax);
      const rule = document.querySelector('[data-rule].current')?.getAttribute('data-rule') ?? '';
      const state = document.querySelector('tbody[data-class="A"] .drr-state-text')?.textContent ?? '';
      w.__samples.push({ d: Number(g.dataset.deficit), ratio: ratio * max, rule, state });
      const animating = document.querySelector('[data-animating]') !== null;
      started ||= animating;
      if (started && !animating) w.__ended = true;
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.keyboard.press('ArrowRight');
  // mid-step: A has earned its quantum and not paid yet
  await page.waitForFunction(
    () =>
      (document.querySelector('[data-class="A"] .drr-bar') as HTMLElement | null)?.dataset.deficit === '10',
    null,
    { polling: 'raf' },
  );
  await page.screenshot({ path: 'test-results/lecture/drr-mid-step-1280x720.png' });
  await page.waitForFunction(() => (window as unknown as { __ended: boolean }).__ended);
  const samples = await page.evaluate(
    () =>
      (window as unknown as { __samples: { d: number; ratio: number; rule: string; state: string }[] })
        .__samples,
  );
  const ds = samples.map((s) => s.d);
  // A earns its quantum 0 → 10 (visible mid-step), then pays the head's cost 3 and keeps 7
  expect(Math.max(...ds)).toBe(10);
  expect(ds.at(-1)).toBe(7);
  expect(ds.indexOf(10)).toBeLessThan(ds.lastIndexOf(7));
  // the bar's drawn length is its shown deficit at every sampled frame (scale max rounds to 1 unit)
  for (const s of samples) expect(Math.abs(s.ratio - s.d)).toBeLessThan(0.8);
  // the rules panel highlighted the earn rule, then the take
  const rules = samples.map((s) => s.rule).filter(Boolean);
  expect(rules).toContain('earn');
  expect(rules.indexOf('earn')).toBeLessThan(rules.indexOf('take'));
  // the table's state line tells the phase on screen (earning, then paying), then the end state
  const states = samples.map((s) => s.state);
  expect(samples.find((s) => s.d === 10)?.state).toBe('earns its quantum: 0 → 10');
  expect(states).toContain('pays 3 for its head');
  expect(states.indexOf('earns its quantum: 0 → 10')).toBeLessThan(states.indexOf('pays 3 for its head'));
  expect(states.at(-1)).toBe('head affordable');
});

test('reduced motion gets the end state at once', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await burstWithPageFocus(page);
  // the bar's deficit at every animation frame from before the step until it shows the end state
  await page.evaluate(() => {
    const w = window as unknown as { __seen: string[] };
    w.__seen = [];
    const tick = () => {
      const d = (document.querySelector('[data-class="A"] .drr-bar') as HTMLElement).dataset.deficit ?? '';
      w.__seen.push(d);
      if (d !== '7') requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => (window as unknown as { __seen: string[] }).__seen.at(-1) === '7');
  const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
  // only the states before and after the pop: no rise to 10 in between
  expect(seen.filter((d) => d !== '0' && d !== '7')).toEqual([]);
  await expect
    .poll(() =>
      page.evaluate(
        () => (document.querySelector('[data-class="A"] .drr-bar') as HTMLElement).dataset.deficit,
      ),
    )
    .toBe('7');
});

test('a focused view takes ← / → to move the playhead', async ({ page }) => {
  await openPlain(page);
  await pickScenario(page, 'drr-burst');
  await page.getByRole('region', { name: 'Class queues' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => playhead(page)).toBe(1);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => playhead(page)).toBe(0);
});

test('the address bar follows the run, and a link keeps the selected decision and its explanation', async ({
  page,
  context,
}) => {
  await openPlain(page);
  // the start-up scenario's address first, then the picked one's (a load: one new history entry)
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#s=\d+\./);
  const startup = new URL(page.url()).hash;
  await pickScenario(page, 'drr-burst');
  await expect.poll(() => new URL(page.url()).hash).not.toBe(startup);
  const entries = await page.evaluate(() => history.length);
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => playhead(page)).toBe(3);
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#s=\d+\./);
  // steps rewrite the address, they add no history entries
  expect(await page.evaluate(() => history.length)).toBe(entries);
  // the debounced rewrite for the third step is done: the address holds playhead 3
  await expect(page.locator('html')).toHaveAttribute('data-live-address', 'current');
  const before = new URL(page.url()).hash;
  await page.locator('.decision-log li[data-seq="1"]').click();
  await expect(page.getByRole('region', { name: 'Explanation' })).toContainText('Why decision #2');
  await expect.poll(() => new URL(page.url()).hash).not.toBe(before);
  const link = page.url();
  // a student opens the copied address on a phone
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(link);
  await phone.waitForFunction(() => window.fairground?.state().kind !== null);
  // picking decision #2 moved the playhead to just after it (tester F9), and the link keeps that
  await expect.poll(() => playhead(phone)).toBe(2);
  await expect.poll(() => phone.evaluate(() => window.fairground.state().selected)).toBe(1);
  await expect(phone.getByRole('region', { name: 'Explanation' })).toContainText('Why decision #2');
  await phone.screenshot({ path: 'test-results/lecture/phone-shared-link-390x844.png', fullPage: true });
});

test('a link cut short says it is damaged or truncated and what is kept', async ({ page }) => {
  await openPlain(page);
  await pickScenario(page, 'drr-burst');
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#s=\d+\./);
  const link = page.url();
  const cut = link.slice(0, link.length - 9);
  const other = await page.context().newPage();
  await other.goto(cut);
  await other.waitForFunction(() => window.fairground?.state().kind !== null);
  // Monaco adds its own (empty) live alerts once it loads: the page's message is the one that says so
  const alert = other.getByRole('alert').filter({ hasText: /damaged or truncated/ });
  await expect(alert).toContainText(/nothing of it could be kept/);
});

test('a cluster run at 1280×720 is compact: the DRR panel sits beside its table and Workers follow it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPlain(page);
  await pickScenario(page, 'default');
  await page.evaluate(() => window.fairground.seek(20));
  await expect.poll(() => playhead(page)).toBe(20);
  const ring = page.getByRole('region', { name: 'DRR ring' });
  const box = async (sel: string) =>
    (await page.locator(sel).first().boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
  // the ring's panel used to stack ring, table, account and rules into ~1,680 px, Workers at y≈1,780
  expect((await ring.boundingBox())?.height ?? 9999).toBeLessThan(820);
  // (the account's line naming its decision, "Decision 3", added 20 px: Workers at y≈936)
  expect((await page.getByRole('region', { name: 'Workers' }).boundingBox())?.y ?? 9999).toBeLessThan(950);
  // the deficit table is beside the ring, not under it; the rules fold to one line naming the last rule
  const fig = await box('.drr-figure');
  const table = await box('.drr-table');
  expect(table.x).toBeGreaterThanOrEqual(fig.x + fig.width - 1);
  expect(table.y).toBeLessThan(fig.y + 60);
  await expect(page.locator('details.drr-rules')).not.toHaveAttribute('open');
  await page.locator('details.drr-rules > summary').click();
  await expect(page.locator('details.drr-rules [data-rule="earn"]')).toBeVisible();
  await page.screenshot({ path: 'test-results/lecture/cluster-compact-1280x720.png' });
});

test('at 150 % zoom (1280×720 screen) the DRR ring and its deficit table are above the fold', async ({
  browser,
}) => {
  const ctx = await browser.newContext({ viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 });
  const page = await ctx.newPage();
  await openPlain(page);
  for (const id of ['drr-burst', 'default']) {
    await pickScenario(page, id);
    await page.evaluate(() => window.fairground.seek(3));
    await expect.poll(() => playhead(page)).toBe(3);
    for (const sel of ['.drr-ring', '.drr-table tbody']) {
      const b = await page.locator(sel).first().boundingBox();
      expect(b, `${id} ${sel}`).not.toBeNull();
      expect(b?.y ?? 9999, `${id} ${sel}`).toBeLessThan(480 - 40);
    }
    await page.screenshot({ path: `test-results/lecture/${id}-zoom150-1280x720.png` });
  }
  await ctx.close();
});

test('presentation mode on a phone stacks the ring above the class queues; Speed and Timeline stay labelled', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlain(page);
  await pickScenario(page, 'drr-burst');
  await page.evaluate(() => window.fairground.seek(3));
  await expect.poll(() => playhead(page)).toBe(3);
  // Speed and Present sit behind the phone header's Menu (the timeline stays in the header)
  await page.getByRole('button', { name: 'Menu' }).click();
  for (const label of ['Speed', 'Timeline']) {
    const el = page.locator('label.field > span:first-child', { hasText: new RegExp(`^${label}$`) });
    await expect(el).toBeVisible();
    expect(Number.parseFloat(await el.evaluate((e) => getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(
      14,
    );
  }
  await page.getByRole('button', { name: 'Present' }).click();
  await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'on');
  const ring = await page.getByRole('region', { name: 'DRR ring' }).boundingBox();
  const queues = await page.getByRole('region', { name: 'Class queues' }).boundingBox();
  const svg = await page.locator('.drr-ring').boundingBox();
  const table = await page.locator('.drr-table').boundingBox();
  if (!ring || !queues || !svg || !table) throw new Error('views missing');
  expect(queues.y).toBeGreaterThanOrEqual(ring.y + ring.height - 1);
  // the whole ring is on screen, and the table is under it, not over it
  expect(svg.x).toBeGreaterThanOrEqual(0);
  expect(svg.x + svg.width).toBeLessThanOrEqual(390);
  expect(table.y).toBeGreaterThanOrEqual(svg.y + svg.height - 1);
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/lecture/present-drr-390x844.png', fullPage: true });
});

test("a tour while presenting at 1280×720: the lesson's text is whole, 18 px, beside the views", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPlain(page);
  await page.getByRole('button', { name: 'Tour' }).click();
  await page.getByRole('button', { name: 'What DRR is' }).click();
  await expect(page.locator('.tour-progress')).toHaveText(/Step 1 of 4$/);
  await page.keyboard.press('p');
  await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'on');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.locator('.tour-progress')).toHaveText(/Step 2 of 4$/);
  const tour = page.getByRole('dialog', { name: 'Tour' });
  const box = await tour.boundingBox();
  const views = await page.locator('.views').boundingBox();
  if (!box || !views) throw new Error('missing');
  expect(views.x + views.width).toBeLessThanOrEqual(box.x);
  expect(box.y + box.height).toBeLessThanOrEqual(720);
  // nothing of the step's text is cut: it all fits in the panel
  expect(await tour.evaluate((e) => e.scrollHeight - e.clientHeight)).toBeLessThanOrEqual(0);
  expect(await smallText(page, '.tour-panel', 18)).toEqual([]);
  await page.screenshot({ path: 'test-results/lecture/present-tour-1280x720.png' });
});

test("a DLPM run's rules panel lists Algorithm 1 and marks the step the selected decision took", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPlain(page);
  await pickScenario(page, 'guarantee-dlpm');
  await page.evaluate(() => window.fairground.step(300));
  const panel = page.getByRole('region', { name: 'Algorithm steps' });
  await expect(panel).toContainText('DLPM (Algorithm 1)');
  // select an admission: its take is marked
  const admit = page.locator('.decision-log li', { hasText: ' admits ' }).first();
  await admit.click();
  const seq = await admit.getAttribute('data-seq');
  await expect(panel).toHaveAttribute('data-decision', seq ?? 'none');
  await expect(panel.locator('[data-step="admit"]')).toHaveClass(/decisive/);
  await expect(panel.locator('[data-step="sort"]')).toHaveClass(/fired/);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/lecture/dlpm-steps-1280x720.png' });
  // a batch step: the forward step's output charge
  const step = page.locator('.decision-log li', { hasText: ' step: ' }).first();
  await step.click();
  await expect(panel.locator('[data-step="forward"]')).toHaveClass(/decisive/);
  await expect(panel.locator('[data-step="admit"]')).not.toHaveClass(/fired/);
});

test("a DoubleQ run's rules panel lists Algorithm 2 (the router) and Algorithm 1 (each worker)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openPlain(page);
  await pickScenario(page, 'paper-tot-s1-4w');
  await page.evaluate(() => window.fairground.step(200));
  const panel = page.getByRole('region', { name: 'Algorithm steps' });
  await expect(panel.locator('[data-algorithm="doubleq"]')).toContainText('DoubleQ (Algorithm 2)');
  await expect(panel.locator('[data-algorithm="dlpm"]')).toBeVisible();
  const dispatch = page.locator('.decision-log li', { hasText: ' sends ' }).first();
  await dispatch.click();
  await expect(panel.locator('[data-algorithm="doubleq"] li.decisive')).toHaveAttribute(
    'data-step',
    /^(locality|fairness)$/,
  );
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/lecture/doubleq-steps-1920x1080.png' });
});

test('the LPM/DLPM tour keeps one y axis for the service curves across its steps', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPlain(page);
  await page.getByRole('button', { name: 'Tour' }).click();
  await page.getByRole('button', { name: 'Why LPM starves a client and DLPM does not' }).click();
  const yMax = async () => {
    await expect(page.locator('.tour-progress')).not.toContainText('moving', { timeout: 60_000 });
    await expect.poll(() => page.evaluate(() => window.fairground.state().simTime ?? 0)).toBeGreaterThan(29);
    return Number(await page.locator('.cs-curves .chart').first().getAttribute('data-y-max'));
  };
  const lpm = await yMax();
  // the tour's jump leaves every decision in the log: its newest line is the playhead's decision
  // (the steps say "click the newest line"; the last ones taken at the target time were missing)
  const count = await page.evaluate(() => window.fairground.state().decisionCount);
  await expect(
    page.getByRole('log', { name: 'Decision log' }).locator('li[data-seq]').first(),
  ).toHaveAttribute('data-seq', String(count - 1));
  // LPM lets eve run ahead: her service sets the axis
  const lpmTop = await page.evaluate(() => {
    const s = window.fairground.snapshot() as { clients?: Record<string, { service?: number }> };
    return Math.max(...Object.values(s.clients ?? {}).map((c) => c.service ?? 0));
  });
  expect(lpm).toBeGreaterThanOrEqual(lpmTop);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.locator('.tour-progress')).toContainText('Step 2 of 3');
  const dlpm = await yMax();
  // DLPM's curves are lower, yet drawn on LPM's axis
  expect(dlpm).toBe(lpm);
  // the bound is drawn against the spread on one axis normalised to the bound, with its numbers
  // (the first: the tour keeps an unseen stand-in of the tallest gauge after it, aria-hidden)
  await expect(page.locator('.cs-spread').first()).toContainText(/% of the bound/);
  await page.screenshot({ path: 'test-results/lecture/tour-dlpm-axis-1280x720.png' });
});

test('in embed mode the address does not follow the run (the host page owns the frame)', async ({ page }) => {
  await page.goto('./?embed=1&panels=ring,log');
  await page.waitForFunction(() => window.fairground?.state().kind !== null);
  const before = page.url();
  await page.evaluate(() => window.fairground.step(3));
  await expect.poll(() => playhead(page)).toBeGreaterThanOrEqual(3);
  // the page's only writer of the address says it is off (the host page owns it), not just late
  await expect(page.locator('html')).toHaveAttribute('data-live-address', 'off');
  expect(page.url()).toBe(before);
  expect(new URL(page.url()).hash).toBe('');
});

test("the log's chips and the ring's visit tones use no class/client palette colour", async ({ page }) => {
  await openPlain(page);
  await pickScenario(page, 'drr-burst');
  await page.evaluate(() => window.fairground.seek(4));
  await expect.poll(() => playhead(page)).toBe(4);
  const clash = await page.evaluate(() => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const palette = new Set<string>();
    for (let i = 0; i < 8; i++) {
      probe.style.color = `var(--c${i})`;
      palette.add(getComputedStyle(probe).color);
    }
    probe.remove();
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('.decision-log .chip'))
      if (palette.has(getComputedStyle(el).borderTopColor)) out.push(`chip ${el.className}`);
    for (const el of document.querySelectorAll<SVGElement>('.drr-visit-band'))
      if (palette.has(getComputedStyle(el).fill)) out.push(`band ${el.getAttribute('class')}`);
    return out;
  });
  expect(clash).toEqual([]);
});

test("the shorthand note's marker is drawn with a glyph every font has (no empty box)", async ({ page }) => {
  await openPlain(page);
  await pickScenario(page, 'drr-blocked-class');
  const note = page.getByRole('note', { name: 'Dynamo releases' });
  await expect(page.locator('.editor-release[data-shorthand="true"]')).toBeVisible();
  await expect(note).toBeVisible();
  const missing = await note.evaluate((el) => {
    const before = getComputedStyle(el, '::before');
    const text = before.content.replace(/^"|"$/g, '');
    // a character the page's fonts lack draws the same box as an unassigned private-use one
    const draw = (ch: string) => {
      const c = document.createElement('canvas');
      c.width = 48;
      c.height = 48;
      const g = c.getContext('2d');
      if (!g) return '';
      g.font = `28px ${before.fontFamily}`;
      g.fillText(ch, 4, 34);
      return c.toDataURL();
    };
    const box = draw('\uE000');
    return [...text].filter((ch) => ch.trim() !== '' && draw(ch) === box);
  });
  expect(missing).toEqual([]);
});

// One page resized to each size in turn, P pressed (and pressed again to leave) at each: each
// failure named by its size.
test(`presentation at ${SIZES.map((s) => `${s.width}×${s.height}`).join(', ')} opens at the views' top, the ring's legend clear of the table`, async ({
  page,
}) => {
  await page.setViewportSize(SIZES[0]);
  await openPlain(page);
  await pickScenario(page, 'default');
  await page.evaluate(() => window.fairground.seek(3));
  await expect.poll(() => playhead(page)).toBe(3);
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    // a reader scrolled the views (or the page, on a phone) before pressing P
    await page.evaluate(() => {
      const center = document.querySelector('.column.center');
      if (center) center.scrollTop = 900;
      if (document.scrollingElement) document.scrollingElement.scrollTop = 900;
    });
    await page.locator('body').press('p');
    await expect(page.locator('.app'), at).toHaveAttribute('data-presenting', 'on');
    const scrolled = await page.evaluate(() => [
      document.querySelector('.column.center')?.scrollTop ?? -1,
      document.scrollingElement?.scrollTop ?? -1,
    ]);
    expect(scrolled, at).toEqual([0, 0]);
    // the figure (ring and its legend) and the deficit table beside or below it do not overlap
    const clash = await page.evaluate(() => {
      const f = document.querySelector('.drr-figure')?.getBoundingClientRect();
      const s = document.querySelector('.drr-side')?.getBoundingClientRect();
      if (!f || !s) return 'missing';
      const w = Math.min(f.right, s.right) - Math.max(f.left, s.left);
      const h = Math.min(f.bottom, s.bottom) - Math.max(f.top, s.top);
      return w > 0.5 && h > 0.5 ? `figure ${f.left}–${f.right} × table ${s.left}–${s.right}` : '';
    });
    expect(clash, at).toBe('');
    await page.screenshot({ path: `test-results/lecture/present-scrolled-${size.width}x${size.height}.png` });
    await page.locator('body').press('p');
    await expect(page.locator('.app'), at).toHaveAttribute('data-presenting', 'off');
  }
});

// Tester finding F5: at 1280×720 with 150 % zoom, presenting, Client service's "service units" title
// lay over its 100k–300k ticks and Guarantees' wrapped y title on its "20k" tick and past the SVG's top
// (the layout reserved room for 14 px text, presenting draws 18 px). No chart text may overlap another
// or leave its SVG, in or out of Present, at the three sizes. Figures' and Class service's charts are
// held to the same (and to 14 px text) where they are drawn: presenting leaves them out of the lesson.
//
// 1280×720 and 1920×1080 differ only in the window's size: one page is resized from one to the other
// (a run to the end of the default scenario costs seconds of CPU); the zoomed and the touch phone's
// sizes need contexts of their own.
const AXES = [
  {
    sizes: [{ name: '1280×720 at 150 %', viewport: { width: 853, height: 480 } }],
    opts: { viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 },
  },
  {
    sizes: [
      { name: '1280×720', viewport: { width: 1280, height: 720 } },
      { name: '1920×1080', viewport: { width: 1920, height: 1080 } },
    ],
    opts: {},
  },
  {
    sizes: [{ name: '390×844', viewport: { width: 390, height: 844 } }],
    opts: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  },
] as const;
for (const { sizes, opts } of AXES) {
  test.describe(`time charts' axes at ${sizes.map((s) => s.name).join(' and ')}`, () => {
    test.use(opts);
    test('titles and ticks of the time charts never overlap, presenting or not', async ({ page }) => {
      const resized = sizes.length > 1;
      if (resized) await page.setViewportSize(sizes[0].viewport);
      await openPlain(page);
      await page.evaluate(() => window.fairground.seek(1_000_000));
      await expect
        .poll(() => page.evaluate(() => window.fairground.state().decisionCount))
        .toBeGreaterThan(100);
      for (const presenting of [false, true]) {
        if (presenting) await page.locator('body').press('p');
        await expect(page.locator('.app.presenting')).toHaveCount(presenting ? 1 : 0);
        for (const { name, viewport } of presenting ? [...sizes].reverse() : sizes) {
          if (resized) await resizeTo(page, viewport);
          const tag = name.replace(/[^0-9a-z]+/gi, '-');
          for (const [view, sel, lesson] of [
            ['Client service', '.cs-view', true],
            ['Guarantees', '.gu-view', true],
            ['Figures', 'section.fig-view', false],
            ['Class service', 'section.class-service', false],
          ] as const) {
            const region = page.getByRole('region', { name: view });
            const what = `${view}${presenting ? ' (presenting)' : ''} at ${name}`;
            if (presenting && !lesson) {
              await expect(region, what).toHaveCount(0);
              continue;
            }
            await region.scrollIntoViewIfNeeded();
            // (Figures and Class service are taller than the screen: their pictures would cost seconds)
            if (lesson)
              await region.screenshot({
                path: `test-results/axes-${tag}-${presenting ? 'present' : 'plain'}-${view.replace(' ', '-')}.png`,
              });
            expect(await textCollisions(page, `${sel} .chart`), what).toEqual([]);
            if (!lesson) expect(await smallText(page, sel, 14), what).toEqual([]);
          }
        }
      }
    });
  });
}

test('a link shared while presenting opens presenting on a phone and says so, with the way out to the log', async ({
  page,
  browser,
}) => {
  await openPlain(page);
  await pickScenario(page, 'drr-bulk-credit');
  await page.keyboard.press('p');
  await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'on');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect.poll(() => playhead(page)).toBe(1);
  await expect(page.locator('html')).toHaveAttribute('data-live-address', 'current');
  expect(new URL(page.url()).searchParams.get('present')).toBe('1');
  // the Share dialog says the link will present, and how to share one that does not
  await page.getByRole('button', { name: 'Share' }).click();
  const share = page.getByRole('dialog', { name: 'Share link' });
  await expect(share).toContainText('the link opens in presentation mode');
  expect(await share.getByRole('textbox', { name: 'Share link' }).inputValue()).toContain('present=1');
  await share.getByRole('button', { name: 'Close' }).click();
  const ctx = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    hasTouch: true,
    isMobile: true,
  });
  const phone = await ctx.newPage();
  await phone.goto(page.url());
  await phone.waitForFunction(() => window.fairground?.state().kind !== null);
  await expect.poll(() => playhead(phone)).toBe(1);
  // the student's phone presents (no log, no editor): the message says so and how to leave it
  await expect(phone.locator('.app')).toHaveAttribute('data-presenting', 'on');
  await expect(phone.locator('.log-panel')).toBeHidden();
  const note = phone.getByRole('alert').filter({ hasText: 'Opened a shared link' });
  await expect(note).toContainText('presentation mode');
  await expect(note).toContainText('Present, in the Menu');
  // and the way out works: Menu → Present brings the log back
  await phone.getByRole('button', { name: /^Menu/ }).first().tap();
  await phone.getByRole('button', { name: 'Present' }).tap();
  await expect(phone.locator('.app')).toHaveAttribute('data-presenting', 'off');
  await expect(phone.locator('.log-panel')).toBeVisible();
  await ctx.close();
});

test("during a pop the ring's centre and the table's cursor tag wait for the cursor to move (lecture tryout)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await burstWithPageFocus(page);
  // the centre said "next scan B" and B's row carried the cursor tag from the pop's first frame, while
  // the arrow still pointed at A, which was earning and paying
  await page.evaluate(() => {
    const w = window as unknown as { __s: { rule: string; centre: string; tag: string }[]; __end: boolean };
    w.__s = [];
    w.__end = false;
    let started = false;
    const tick = () => {
      const view = document.querySelector('.drr-view') as HTMLElement;
      const animating = view.dataset.animating !== undefined;
      started ||= animating;
      const centre = view.querySelector('.drr-center') as Element;
      const tag = view.querySelector('tbody[data-class="B"] .drr-tag');
      w.__s.push({
        rule: view.querySelector('[data-rule].current')?.getAttribute('data-rule') ?? '',
        centre: `${centre.textContent} ${getComputedStyle(centre).opacity}`,
        tag: tag ? getComputedStyle(tag).opacity : 'none',
      });
      if (started && !animating) w.__end = true;
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => (window as unknown as { __end: boolean }).__end);
  const s = await page.evaluate(
    () => (window as unknown as { __s: { rule: string; centre: string; tag: string }[] }).__s,
  );
  const visiting = s.filter((x) => x.rule === 'earn' || x.rule === 'take');
  expect(visiting.length).toBeGreaterThan(3);
  for (const x of visiting) {
    expect(x.centre).toBe('B 0');
    expect(x.tag).toBe('0');
  }
  expect(s.some((x) => x.rule === 'cursor' && x.centre === 'B 1')).toBe(true);
  expect(s.at(-1)).toMatchObject({ centre: 'B 1', tag: '1' });
});

test('after picking a scenario, → steps it instead of loading the next scenario', async ({ page }) => {
  await openPlain(page);
  const picker = page.getByRole('combobox', { name: 'Scenario' });
  await picker.focus();
  await pickScenario(page, 'drr-carry-vs-cursor');
  await expect(picker).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => playhead(page)).toBe(1);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => playhead(page)).toBe(2);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => playhead(page)).toBe(1);
  await expect(picker).toHaveValue('drr-carry-vs-cursor');
  // the page's → handed the focus to Play (picker-keys.spec.ts); back on the picker, ↓ still chooses
  await expect(page.locator('[data-transport="play"]')).toBeFocused();
  await picker.focus();
  await page.keyboard.press('ArrowDown');
  await expect(picker).toHaveValue('drr-exact-ratio');
});

test('a scenario picked with the mouse lets the focus go: P presents it instead of choosing a "Paper: …" scenario', async ({
  page,
}) => {
  await openPlain(page);
  const picker = page.getByRole('combobox', { name: 'Scenario' });
  // a real pick goes through the list Chromium draws outside the page, which a test cannot click: the
  // press on the picker, then the choice
  await picker.dispatchEvent('pointerdown');
  await picker.focus();
  await pickScenario(page, 'drr-carry-vs-cursor');
  await expect(picker).not.toBeFocused();
  await page.keyboard.press('p');
  await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'on');
  await expect(picker).toHaveValue('drr-carry-vs-cursor');
  await page.keyboard.press('p');
  // a keyboard user keeps the focus on the picker, and its letters
  await picker.focus();
  await page.keyboard.press('ArrowDown');
  await expect(picker).toHaveValue('drr-exact-ratio');
  await expect(picker).toBeFocused();
});

test('presenting a DRR script at 853×480@1.5 (1280×720 at 150 %), the deficits sit beside the ring, on the first screen', async ({
  browser,
}) => {
  const ctx = await browser.newContext({ viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 });
  const page = await ctx.newPage();
  await openPlain(page);
  await pickScenario(page, 'drr-carry-vs-cursor');
  await page.locator('body').click({ position: { x: 5, y: 470 } });
  await page.keyboard.press('p');
  await expect(page.locator('.app')).toHaveAttribute('data-presenting', 'on');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => playhead(page)).toBe(1);
  // the table stacked under the ring's legend (y ≈ 1,000 px): the lecturer scrolled between the
  // cursor and the deficits at every step
  const [ring, table] = await Promise.all([
    page.locator('.drr-ring').boundingBox(),
    page.locator('.drr-table').boundingBox(),
  ]);
  if (!ring || !table) throw new Error('no ring or table');
  expect(table.x).toBeGreaterThanOrEqual(ring.x + ring.width - 1);
  for (const cls of ['A', 'B'])
    await expect(page.locator(`.drr-table tr.drr-row[data-class="${cls}"]`)).toBeInViewport();
  await expect(page.locator('.drr-ring .drr-cursor')).toBeInViewport();
  expect(await smallText(page, '.views', 18)).toEqual([]);
  await page.screenshot({ path: 'test-results/lecture/presenting-drr-853x480.png' });
  await ctx.close();
});

// Lecture tryout: presenting, Tour, Sweep, Export and Compare were hidden (the feature bar was not
// drawn, in the header nor in the phone's Menu), so a lecturer had to leave presentation mode to start
// a tour on the projector. Each is now on screen (or one Menu press away), named, reached by Tab, and
// opens what it names with presentation mode still on.
for (const [tag, size, scale] of [
  ['1280×720', { width: 1280, height: 720 }, 1],
  ['853×480@1.5', { width: 853, height: 480 }, 1.5],
  ['390×844', { width: 390, height: 844 }, 1],
] as const) {
  test(`presenting at ${tag}: Tour, Sweep, Export and Compare are reachable by Tab and open their dialogs`, async ({
    browser,
  }) => {
    const ctx = await browser.newContext({ viewport: size, deviceScaleFactor: scale });
    const page = await ctx.newPage();
    await page.goto('./?editor=plain&present=1');
    await page.waitForFunction(() => window.fairground?.state().kind !== null);
    const app = page.locator('.app');
    await expect(app).toHaveAttribute('data-presenting', 'on');
    const menu = page.getByRole('button', { name: /^Menu/ });
    for (const [name, opens] of [
      ['Tour', page.getByRole('dialog', { name: 'Tour' })],
      ['Sweep', page.getByRole('dialog', { name: 'Sweep' })],
      ['Export', page.getByRole('dialog', { name: 'Export' })],
      ['Compare', page.getByRole('dialog', { name: 'Compare' })],
    ] as const) {
      const at = `${name} at ${tag}`;
      // from the top of the page (or from Menu, opened with the keyboard), Tab reaches the button
      if (await menu.isVisible()) {
        await menu.focus();
        if ((await menu.getAttribute('aria-expanded')) !== 'true') await page.keyboard.press('Enter');
      } else await page.locator('body').evaluate((b) => b.focus());
      const button = page.getByRole('button', { name, exact: true });
      await expect(button, at).toBeVisible({ timeout: 3_000 });
      expect(await button.getAttribute('title'), at).toBeTruthy();
      let reached = false;
      for (let i = 0; i < 40 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await button.evaluate((b) => b === document.activeElement);
      }
      expect(reached, `${at}: Tab reaches it`).toBe(true);
      await expect(button, at).toBeInViewport();
      await page.keyboard.press('Enter');
      await expect(opens, at).toBeVisible();
      await expect(app, at).toHaveAttribute('data-presenting', 'on');
      await page.keyboard.press('Escape');
      await expect(opens, at).toBeHidden();
    }
    await ctx.close();
  });
}

test("presenting, Compare's tooltip says that starting it leaves presentation mode, and why", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?editor=plain&present=1');
  await page.waitForFunction(() => window.fairground?.state().kind !== null);
  await expect(page.getByRole('button', { name: 'Compare', exact: true })).toHaveAttribute(
    'title',
    /leaves presentation mode, which shows one run/,
  );
});
