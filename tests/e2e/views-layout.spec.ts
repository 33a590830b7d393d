/**
 * The views' layout at the lecture sizes (#13): compact Workers and Class queues, the deficit table's
 * swatch beside its class name, ring labels inside their segments, one meaning per colour with a
 * legend, sweep labels that do not overlap, and a tour's compared charts kept in place with the same
 * axes. Sizes, overlaps and text sizes are measured in the page; screenshots go to
 * test-results/views/ for a person to look at.
 */
import { expect, type Page, test } from '@playwright/test';
import { AA_TEXT, contrast, over, parseColor, WHITE } from '../../src/ui/features/contrast';
import { openPlain, pickScenario, playhead, resizeTo, smallText } from './helpers';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
] as const;

/** A chart's box in page coordinates (the centre column and the page may scroll) and its axis labels. */
async function chartAt(page: Page, sel: string): Promise<{ box: number[]; ticks: string }> {
  return page.evaluate((s) => {
    const el = document.querySelector(s);
    if (!el) return { box: [], ticks: 'missing' };
    const b = el.getBoundingClientRect();
    const dy = (document.querySelector('.column.center')?.scrollTop ?? 0) + window.scrollY;
    const ticks = [...el.querySelectorAll('.axis text')].map((t) => t.textContent).join(' ');
    return { box: [b.x, b.y + dy, b.width, b.height].map((v) => Math.round(v)), ticks };
  }, sel);
}

/** Pairs of the elements matched by `sel` (within each `scope`) whose boxes overlap by more than 1 px. */
async function overlapping(page: Page, scope: string, sel: string): Promise<string[]> {
  return page.evaluate(
    ([sc, s]) => {
      const out: string[] = [];
      for (const root of document.querySelectorAll(sc)) {
        const els = [...root.querySelectorAll<Element>(s)].filter((e) => e.getBoundingClientRect().width > 0);
        for (let i = 0; i < els.length; i++)
          for (let j = i + 1; j < els.length; j++) {
            const a = els[i].getBoundingClientRect();
            const b = els[j].getBoundingClientRect();
            const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (w > 1 && h > 1)
              out.push(
                `${els[i].textContent?.trim().slice(0, 20)} × ${els[j].textContent?.trim().slice(0, 20)}`,
              );
          }
      }
      return out;
    },
    [scope, sel] as const,
  );
}

/**
 * Room a tour keeps (use-reserve.ts) that nothing shown fills: for each part under the service chart,
 * its height below the lowest visible thing in it (the unseen stand-ins of other steps left out).
 */
async function blankUnder(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const out: Record<string, number> = {};
    // and the client state block: DLPM's deficit bars were ~70–100 px shorter than the LPM totals
    // table whose room they keep (now a line under the bars says how to read them)
    for (const sel of ['.cs-gauge-room', '.cs-state']) {
      const room = document.querySelector(sel);
      if (!room) continue;
      const r = room.getBoundingClientRect();
      let bottom = r.top;
      // what is drawn: text (its line boxes, not the block around it, which a grid may stretch) and
      // leaf elements (bars, ticks, charts)
      const walker = document.createTreeWalker(room, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n instanceof Element ? n : n.parentElement;
        if (!el || el.closest('.tour-ghost') || getComputedStyle(el).visibility === 'hidden') continue;
        let rects: DOMRect[] = [];
        if (n instanceof Text) {
          if (!n.data.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(n);
          rects = [...range.getClientRects()];
        } else if (
          n instanceof Element &&
          (n instanceof SVGSVGElement || (n.children.length === 0 && !n.textContent?.trim()))
        )
          rects = [n.getBoundingClientRect()];
        for (const b of rects) if (b.width > 0 && b.height > 0) bottom = Math.max(bottom, b.bottom);
      }
      out[sel] = Math.round(r.bottom - bottom);
    }
    return out;
  });
}

/** Ring labels under WCAG AA (4.5:1) on their segment's fill as drawn (its opacity over the panel). */
async function faintRingLabels(page: Page): Promise<string[]> {
  const inks = await page.evaluate(() =>
    [...document.querySelectorAll('.drr-ring .drr-seg')].flatMap((g) => {
      const shape = g.querySelector('.drr-seg-shape');
      if (!shape) return [];
      const fill = getComputedStyle(shape);
      const panel = getComputedStyle(document.querySelector('.drr-view') ?? document.body);
      return [...g.querySelectorAll('.drr-seg-label tspan, .drr-seg-label textPath')].map((t) => ({
        text: t.textContent ?? '',
        ink: getComputedStyle(t).fill,
        fill: fill.fill,
        opacity: Number(fill.opacity),
        panel: panel.backgroundColor,
      }));
    }),
  );
  if (inks.length <= 3) return [`only ${inks.length} labels`];
  return inks.flatMap((l) => {
    const under = over(parseColor(l.fill) ?? WHITE, parseColor(l.panel) ?? WHITE, l.opacity);
    const ratio = contrast(parseColor(l.ink) ?? WHITE, under);
    return ratio < AA_TEXT ? [`${l.text}: ${l.ink} on ${l.fill} ${ratio.toFixed(2)}:1`] : [];
  });
}

const box = async (page: Page, sel: string) => {
  const b = await page.locator(sel).first().boundingBox();
  if (!b) throw new Error(`${sel} not drawn`);
  return b;
};

/** Run the current scenario to `t` simulated seconds and wait for the views to show it. */
/** The default scenario at `size`, run to simulated time `t` (a long run: the test gets 2 minutes). */
async function defaultAt(page: Page, size: { width: number; height: number }, t: number): Promise<void> {
  test.setTimeout(120_000);
  await page.setViewportSize(size);
  await openPlain(page);
  await pickScenario(page, 'default');
  await runTo(page, t);
}

async function runTo(page: Page, t: number): Promise<void> {
  await page.evaluate((s) => window.fairground.runUntil(s), t);
  await expect
    .poll(() => page.evaluate(() => window.fairground.state().simTime ?? 0))
    .toBeGreaterThanOrEqual(t - 0.5);
}

/** Ring labels whose glyphs lie off their own segment (hit-tested on screen: scroll the ring into view first). */
async function ringStrays(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const text of document.querySelectorAll<SVGTextElement>('.drr-ring .drr-seg-label')) {
      const own = text.closest('[data-class]')?.getAttribute('data-class');
      const m = text.getScreenCTM();
      const content = (text.querySelector('textPath, tspan') ?? text) as SVGTextContentElement;
      const n = content.getNumberOfChars();
      if (!m || n === 0) continue;
      for (let i = 0; i < n; i++) {
        const e = content.getExtentOfChar(i);
        for (const [fx, fy] of [
          [0.5, 0.5],
          [0.2, 0.3],
          [0.8, 0.3],
          [0.2, 0.8],
          [0.8, 0.8],
        ]) {
          const p = new DOMPoint(e.x + e.width * fx, e.y + e.height * fy).matrixTransform(m);
          const hit = document
            .elementsFromPoint(p.x, p.y)
            .find((el) => el.classList.contains('drr-seg-shape') || el.classList.contains('drr-ring'));
          const at = hit?.classList.contains('drr-seg-shape')
            ? hit.closest('[data-class]')?.getAttribute('data-class')
            : 'off the ring';
          if (at !== own) out.push(`${own} "${content.textContent}"[${i}] over ${at}`);
        }
      }
    }
    return out;
  });
}

// Each scenario is run once and the window resized to each size in turn, as a reader resizes it (a
// page load and a run cost seconds of CPU each): at each size the checks a page opened there gets,
// each failure named by its size.
test(`Workers, Class queues, deficit table and ring labels at ${SIZES.map((s) => `${s.width}×${s.height}`).join(', ')}: bounded, nothing overlaps, text ≥ 14 px`, async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(SIZES[0]);
  await openPlain(page);

  // four busy workers: compact cards, chips in rows, capped with "+ N more"
  await pickScenario(page, 'paper-chat-s1-4w');
  await runTo(page, 20);
  const workers = page.locator('section.wk-view');
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    await expect(workers.locator('.wk-card'), at).toHaveCount(4);
    const wb = await box(page, '.wk-view');
    expect(wb.height, `Workers height at ${at}`).toBeLessThan(size.width >= 900 ? 720 : 1150);
    for (const card of await workers.locator('.wk-card').all()) {
      const cb = await card.boundingBox();
      expect(cb?.height ?? 9999, at).toBeLessThan(340);
      // a busy list shows at most the capped chips and says how many more
      const chips = await card.locator('.wk-ids').first().locator('li[data-request]').count();
      expect(chips, at).toBeLessThanOrEqual(6);
    }
    await expect(workers.locator('.wk-ids li.more').first(), at).toHaveText(/^\+ [\d,\s\u202f]+ more$/);
    // chips flow in rows: some row holds two chips side by side
    const sideBySide = await page.evaluate(() =>
      [...document.querySelectorAll('.wk-ids')].some((ul) => {
        const tops = [...ul.querySelectorAll('li[data-request]')].map((li) =>
          Math.round(li.getBoundingClientRect().top),
        );
        return new Set(tops).size < tops.length;
      }),
    );
    expect(sideBySide, at).toBe(true);
    expect(await overlapping(page, '.wk-view', '.wk-card'), at).toEqual([]);
    expect(await overlapping(page, '.wk-ids', 'li'), at).toEqual([]);
    // one meaning per colour: a chip's colour and shape are its client's, as the legend gives them
    const mismatched = await page.evaluate(() => {
      const legend = new Map(
        [...document.querySelectorAll('.wk-client-item')].map((el) => [
          (el.textContent ?? '').replace(/^\S+\s*/, '').trim(),
          {
            color: getComputedStyle(el.querySelector('.wk-shape') as Element).color,
            shape: el.querySelector('.wk-shape')?.textContent,
          },
        ]),
      );
      const out: string[] = [];
      for (const li of document.querySelectorAll<HTMLElement>('.wk-ids li[data-request]')) {
        const client = li.title.match(/\(client (.+)\)$/)?.[1] ?? '';
        const want = legend.get(client);
        const shape = li.querySelector('.wk-shape');
        if (!want || !shape) out.push(`${li.title}: no legend entry or shape`);
        else if (shape.textContent !== want.shape || getComputedStyle(shape).color !== want.color)
          out.push(
            `${li.title}: ${shape.textContent} ${getComputedStyle(shape).color} vs ${want.shape} ${want.color}`,
          );
      }
      return out;
    });
    expect(mismatched, at).toEqual([]);
    expect(await smallText(page, '.wk-view', 14), at).toEqual([]);
    await workers.screenshot({ path: `test-results/views/workers-${size.width}x${size.height}.png` });
  }

  // class queues: all empty at decision 20 of the default scenario, then a long queue beside empty ones
  await pickScenario(page, 'default');
  await page.evaluate(() => window.fairground.seek(20));
  await expect.poll(() => playhead(page)).toBe(20);
  const queues = page.locator('section.cq-view');
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    await expect(queues, at).toHaveAttribute('data-queued', '0');
    expect((await box(page, '.cq-view')).height, `all-empty Class queues at ${at}`).toBeLessThan(
      size.width >= 900 ? 140 : 200,
    );
    await queues.screenshot({ path: `test-results/views/queues-empty-${size.width}x${size.height}.png` });
  }
  await runTo(page, 20);
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    await expect(queues.locator('.cq-chip').first(), at).toBeVisible();
    // the ring's labels here include a blocked (hatched) pink segment's: white on it was 2.8:1
    await expect.poll(() => faintRingLabels(page), { message: at }).toEqual([]);
    for (const row of await queues.locator('.cq-class.empty').all())
      expect((await row.boundingBox())?.height ?? 99, `an empty class row at ${at}`).toBeLessThan(32);
    expect((await box(page, '.cq-view')).height, `Class queues with 12 chips shown at ${at}`).toBeLessThan(
      size.width >= 900 ? 520 : 1100,
    );
    expect(await overlapping(page, '.cq-view', '.cq-chip'), at).toEqual([]);
    expect(await overlapping(page, '.cq-list', '.cq-class'), at).toEqual([]);
    expect(await smallText(page, '.cq-view', 14), at).toEqual([]);
    await queues.screenshot({ path: `test-results/views/queues-${size.width}x${size.height}.png` });
  }

  // deficit table and ring labels of the sample policy (long class names, one narrow segment)
  await pickScenario(page, 'drr-sample-policy');
  await page.evaluate(() => window.fairground.seek(3));
  await expect.poll(() => playhead(page)).toBe(3);
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    const apart = await page.evaluate(() => {
      const out: string[] = [];
      for (const th of document.querySelectorAll('.drr-table th[scope="row"]')) {
        const sw = th.querySelector('.swatch')?.getBoundingClientRect();
        const name = th.querySelector('.drr-name');
        if (!sw || !name) {
          out.push('missing');
          continue;
        }
        // the name's first line box
        const range = document.createRange();
        range.selectNodeContents(name);
        const first = range.getClientRects()[0];
        const midY = (sw.top + sw.bottom) / 2;
        if (midY < first.top || midY > first.bottom || sw.right > first.left + 1)
          out.push(`${name.textContent}: swatch ${sw.left},${sw.top} vs name ${first.left},${first.top}`);
      }
      return out;
    });
    expect(apart, at).toEqual([]);
    // every ring label lies on its own segment: under each label's glyphs, the ring shape hit is its class's
    // (hit-tested on screen, so the ring is scrolled into view first)
    await page.locator('.drr-ring').first().scrollIntoViewIfNeeded();
    const strays = await ringStrays(page);
    expect(strays, at).toEqual([]);
    // the long names are on the ring (along their arcs), not dropped
    await expect(page.locator('.drr-ring textPath', { hasText: 'latency_cached' }), at).toHaveCount(1);
    expect(await smallText(page, '.drr-view', 14), at).toEqual([]);
    // every ring label reads at AA on its segment's fill as drawn (white on orange and pink was
    // 2–2.8:1); polled: a segment that stops being empty fades in over 0.3 s
    await expect.poll(() => faintRingLabels(page), { message: at }).toEqual([]);
    await page
      .locator('.drr-ring')
      .first()
      .screenshot({ path: `test-results/views/ring-sample-${size.width}x${size.height}.png` });
    await page
      .locator('.drr-table')
      .first()
      .screenshot({ path: `test-results/views/table-sample-${size.width}x${size.height}.png` });
  }
});

// The three presenting sizes share one page and one tour, resized to each in turn (a page load
// costs seconds of CPU): at each size the tour's steps are flipped 1, 2, 1, 2 again (a new width
// starts the kept room afresh, use-reserve.ts), the checks those of a page opened at that size,
// each failure named by its size.
for (const { sizes, present } of [
  { sizes: [SIZES[0], SIZES[1], SIZES[2]], present: true },
  { sizes: [SIZES[0]], present: false },
])
  test(`the LPM/DLPM tour keeps the service and gap charts in place, on the same axes (${sizes.map((s) => `${s.width}×${s.height}`).join(', ')}${present ? ', presenting' : ''})`, async ({
    page,
  }) => {
    test.setTimeout(150_000 * sizes.length);
    await page.setViewportSize(sizes[0]);
    await openPlain(page);
    // on a phone the tours sit behind the header's Menu
    if (sizes[0].width < 900) await page.getByRole('button', { name: 'Menu', expanded: false }).click();
    await page.getByRole('button', { name: 'Tour' }).click();
    await page.getByRole('button', { name: 'Why LPM starves a client and DLPM does not' }).click();
    if (present) await page.keyboard.press('p');
    for (const size of sizes) {
      const at = `${size.width}×${size.height}${present ? ', presenting' : ''}`;
      await resizeTo(page, size);
      const seen: {
        step: number;
        cs: Awaited<ReturnType<typeof chartAt>>;
        gu: Awaited<ReturnType<typeof chartAt>>;
        blank: Record<string, number>;
      }[] = [];
      // LPM, DLPM, back to LPM, DLPM again: what a lecturer flips between
      for (const step of [1, 2, 1, 2]) {
        await expect(page.locator('.tour-progress'), at).toContainText(`Step ${step} of 3`);
        await expect(page.locator('.tour-progress'), at).not.toContainText('moving', { timeout: 60_000 });
        await expect
          .poll(() => page.evaluate(() => window.fairground.state().simTime ?? 0))
          .toBeGreaterThan(29);
        // the views settle (charts measure their width, reserved room applies): two reads alike
        let last = '';
        await expect
          .poll(
            async () => {
              const now = JSON.stringify([
                await chartAt(page, '.cs-curves svg'),
                await chartAt(page, '.gu-chart svg'),
              ]);
              const same = now === last && !now.includes('missing');
              last = now;
              return same;
            },
            { intervals: [250] },
          )
          .toBe(true);
        seen.push({
          step,
          cs: await chartAt(page, '.cs-curves svg'),
          gu: await chartAt(page, '.gu-chart svg'),
          blank: await blankUnder(page),
        });
        if (seen.length <= 2)
          await page.screenshot({
            path: `test-results/views/tour-step${step}-${size.width}x${size.height}${present ? '-present' : ''}.png`,
          });
        await page.getByRole('button', { name: step === 1 ? 'Next' : 'Back' }).click();
      }
      // the same y axis in both steps (LPM's larger service and gaps set it), in every visit
      for (const s of seen) {
        expect(s.cs.ticks, at).toBe(seen[0].cs.ticks);
        expect(s.gu.ticks, at).toBe(seen[0].gu.ticks);
        expect(s.cs.ticks, at).toMatch(/\d/);
      }
      // the Client service chart never moves: it comes before anything a step changes
      for (const s of seen) expect(s.cs.box, `step ${s.step} at ${at}`).toEqual(seen[0].cs.box);
      // the gap chart is beside it on a projector, stacked under it on a phone: there too it keeps its
      // place from the first step on (the room the other step needs is kept from the start)
      for (const s of seen) expect(s.gu.box, `step ${s.step} at ${at}`).toEqual(seen[0].gu.box);
      // ... and what keeps them in place is not a hole: LPM's step left ~200 px empty under its chart,
      // room kept for DLPM's bound gauge
      for (const s of seen)
        for (const [part, px] of Object.entries(s.blank))
          expect(px, `step ${s.step}: empty room in ${part} at ${at}`).toBeLessThanOrEqual(40);
    }
  });

// One sweep (five runs of the default scenario, many CPU-seconds), its results looked at with the
// window resized to each size in turn: each failure named by its size.
test(`the default scenario's Q^u sweep: coinciding points share a tag, no tag overlaps a tag or a marker (${SIZES.map((s) => `${s.width}×${s.height}`).join(', ')})`, async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize(SIZES[0]);
  await openPlain(page);
  await pickScenario(page, 'default');
  await page.getByRole('button', { name: 'Sweep' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sweep' });
  await dialog.getByRole('combobox', { name: 'Parameter' }).selectOption('scheduler.quantum');
  await expect(dialog).toContainText('5 points (625, 1\u202f250, 2\u202f500, 5\u202f000, 10\u202f000)');
  await dialog.getByRole('button', { name: 'Run sweep' }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Sweep progress' })).toHaveAttribute(
    'aria-valuetext',
    '100 %',
    { timeout: 120_000 },
  );
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    const frontier = page.getByRole('region', { name: 'Sweep results' }).locator('figure').first();
    await expect(frontier.locator('.sweep-marker'), at).toHaveCount(5);
    // every run is named by exactly one tag
    const named = await frontier
      .locator('.point-tags > g')
      .evaluateAll((gs) => gs.flatMap((g) => (g.getAttribute('data-points') ?? '').split(',')));
    expect(named.sort(), at).toEqual(['0', '1', '2', '3', '4']);
    const clashes = await frontier.evaluate((fig) => {
      const boxes = (sel: string) =>
        [...fig.querySelectorAll(sel)].map((e) => ({ e, b: e.getBoundingClientRect() }));
      const tags = boxes('.point-tag');
      const marks = boxes('.sweep-marker');
      const hit = (a: DOMRect, b: DOMRect) =>
        Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
        Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
      const out: string[] = [];
      for (let i = 0; i < tags.length; i++) {
        for (let j = i + 1; j < tags.length; j++)
          if (hit(tags[i].b, tags[j].b)) out.push(`${tags[i].e.textContent} × ${tags[j].e.textContent}`);
        for (const m of marks)
          if (hit(tags[i].b, m.b))
            out.push(`${tags[i].e.textContent} × marker ${m.e.getAttribute('data-point')}`);
      }
      return out;
    });
    expect(clashes, at).toEqual([]);
    // tags, ticks and axis names at 14 px or more on screen, also where the chart is drawn below its
    // viewBox's width (a phone: 0.88)
    expect(await smallText(page, '.sweep-svg', 14), at).toEqual([]);
    await expect(frontier.locator('.point-tag').first(), at).toBeVisible();
    await frontier.screenshot({ path: `test-results/views/sweep-frontier-${size.width}x${size.height}.png` });
  }
});

// One run, the window resized to each size in turn (as a reader resizes it): at each size the
// checks a page opened there gets, each failure named by its size.
test(`Class service's table, drawn as cards where narrow, is still announced as a table, with a text alternative (${SIZES.map((s) => `${s.width}×${s.height}`).join(', ')})`, async ({
  page,
}) => {
  await defaultAt(page, SIZES[0], 20);
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    const table = page.getByRole('table', { name: 'Per class, so far' });
    await expect(table, at).toBeVisible();
    // its rows drawn as blocks here (at 1280 and 390 the card is narrow, at 1920 the bottom views too)
    expect(
      await table
        .locator('tbody tr')
        .first()
        .evaluate((tr) => getComputedStyle(tr).display),
      at,
    ).not.toBe('table-row');
    // the table's roles are its own, not the browser's guess from the styled elements
    const roles = await table.evaluate((t) =>
      [
        t,
        t.querySelector('thead'),
        t.querySelector('tbody tr'),
        t.querySelector('tbody th'),
        t.querySelector('tbody td'),
      ].map((e) => e?.getAttribute('role') ?? null),
    );
    expect(roles, at).toEqual(['table', 'rowgroup', 'row', 'rowheader', 'cell']);
    // a cell is announced by its figure (its column header says what it is), not the card's label too
    const row = table.getByRole('row', { name: /^bulk_uncached / });
    await expect(row.getByRole('rowheader'), at).toHaveText('bulk_uncached');
    await expect(row.getByRole('cell').first(), at).toHaveAccessibleName(/^\d{1,3}(\u202f\d{3})*$/);
    await expect(table.getByRole('columnheader', { name: 'quantum', exact: true }), at).toBeAttached();
    // and a text alternative in the charts' words, read with the table
    await expect(table, at).toHaveAccessibleDescription(
      /^Per class so far: .*bulk_uncached \d+(\.\d)? % of the served uncached tokens.* dispatched, \d+ rejected, \d+ queued/,
    );
  }
});

// One run, the window resized to each size in turn (as a reader resizes it): at each size the
// checks a page opened there gets, each failure named by its size.
test(`Class service and Figures in a narrow card: the table does not scroll sideways, the seek label stays inside its card (${SIZES.map((s) => `${s.width}×${s.height}`).join(', ')})`, async ({
  page,
}) => {
  await defaultAt(page, SIZES[0], 20);
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    const cs = page.locator('section.class-service');
    await expect(cs.locator('.cs-table tbody tr').first(), at).toBeVisible();
    // every figure of the table is on screen without scrolling it sideways
    const sideways = await cs.evaluate((sec) =>
      [...sec.querySelectorAll('.table-scroll')].map((d) => d.scrollWidth - d.clientWidth),
    );
    for (const extra of sideways)
      expect(extra, `Class service table scrolls sideways at ${at}`).toBeLessThanOrEqual(1);
    // each figure keeps its column's name beside it
    const unlabeled = await cs.evaluate(
      (sec) =>
        [...sec.querySelectorAll('.cs-table td')].filter((td) => !td.getAttribute('data-label')).length,
    );
    expect(unlabeled, at).toBe(0);
    expect(await smallText(page, 'section.class-service', 14), at).toEqual([]);
    await cs
      .locator('.cs-table')
      .screenshot({ path: `test-results/views/class-table-${size.width}x${size.height}.png` });

    // the "t = … · click to seek" label, hovered across each time chart, stays within its card
    const outside: string[] = [];
    for (const region of ['section.class-service', 'section.fig-view']) {
      const card = page.locator(region);
      for (const svg of await card.locator('svg.seekable').all()) {
        await svg.scrollIntoViewIfNeeded();
        const b = await svg.boundingBox();
        const c = await card.boundingBox();
        if (!b || !c) continue;
        for (const fx of [0.3, 0.7, 0.9]) {
          await page.mouse.move(b.x + b.width * fx, b.y + b.height * 0.45);
          const label = svg.locator('.seek-guide text');
          if ((await label.count()) === 0) continue;
          const l = await label.boundingBox();
          if (!l) continue;
          if (l.x < c.x - 0.5 || l.x + l.width > c.x + c.width + 0.5)
            outside.push(
              `${region} at ${fx}: label ${Math.round(l.x)}–${Math.round(l.x + l.width)} vs card ${Math.round(c.x)}–${Math.round(c.x + c.width)}`,
            );
        }
      }
    }
    expect(outside, at).toEqual([]);
  }
});

test("Class service's table at 1280×720 at 150 % (853 px): a table, its columns within the card, text ≥ 14 px", async ({
  browser,
}) => {
  const ctx = await browser.newContext({ viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 });
  const page = await ctx.newPage();
  await openPlain(page);
  await pickScenario(page, 'default');
  await runTo(page, 5);
  const cs = page.locator('section.class-service');
  await expect(cs.locator('.cs-table tbody tr').first()).toBeVisible();
  // drawn as a table here (the card is 837 px wide), its ten columns were 1 286 px wide on one line each
  expect(await cs.locator('.cs-table thead').evaluate((t) => getComputedStyle(t).display)).toBe(
    'table-header-group',
  );
  const extra = await cs.locator('.table-scroll').evaluate((d) => d.scrollWidth - d.clientWidth);
  expect(extra, 'Class service table scrolls sideways').toBeLessThanOrEqual(1);
  expect(await smallText(page, 'section.class-service', 14)).toEqual([]);
  await cs.locator('.cs-table').scrollIntoViewIfNeeded();
  await cs.locator('.cs-table').screenshot({ path: 'test-results/views/class-table-853x480@1.5.png' });
  await ctx.close();
});

const KEYED_RING = `name: keyed ring
preload: true
policy:
  policy_classes:
    - {name: interactive, quantum: 4000}
    - {name: bulk, quantum: 4000}
    - {name: batch, quantum: 4000}
    - {name: overnight_reindexing_backfill, quantum: 10}
ops:
  - enqueue: {id: x0, class: overnight_reindexing_backfill, cost: 3}
  - enqueue: {id: x1, class: overnight_reindexing_backfill, cost: 3}
  - enqueue: {id: a0, class: interactive, cost: 3}
  - pop: {count: 1}
`;

// One run, the window resized to each size in turn (as a reader resizes it): at each size the
// checks a page opened there gets, each failure named by its size.
test(`a ring name that fits nowhere on its segment is drawn as its key, the same key beside it in the table (${SIZES.map((s) => `${s.width}×${s.height}`).join(', ')})`, async ({
  page,
}) => {
  await page.setViewportSize(SIZES[0]);
  await openPlain(page);
  await page.evaluate((text) => window.fairground.load(text), KEYED_RING);
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    const seg = page.locator('.drr-ring [data-class="overnight_reindexing_backfill"]').first();
    await expect(seg, at).toBeAttached();
    // the narrow segment (8 % of the ring) has no room for the 29-character name: its key instead
    const keyed = seg.locator('.drr-seg-keyed');
    await expect(keyed, at).toHaveCount(1);
    await expect(keyed.locator('tspan.drr-seg-name, textPath'), at).toHaveText('#4');
    await expect(keyed.locator('title'), at).toHaveText(/#4 = overnight_reindexing_backfill/);
    // its key in the table, beside the full name
    const row = page.locator('.drr-table tr.drr-row[data-class="overnight_reindexing_backfill"]');
    await expect(row.locator('.drr-key'), at).toHaveText('#4');
    // names that fit stay names
    await expect(page.locator('.drr-ring .drr-seg-keyed'), at).toHaveCount(1);
    await page.locator('.drr-ring').first().scrollIntoViewIfNeeded();
    expect(await ringStrays(page), at).toEqual([]);
    expect(await smallText(page, '.drr-view', 14), at).toEqual([]);
    // every ring label reads at AA on its segment's fill as drawn (white on orange and pink was 2–2.8:1)
    expect(await faintRingLabels(page), at).toEqual([]);
    await page
      .locator('.drr-ring')
      .first()
      .screenshot({ path: `test-results/views/ring-keyed-${size.width}x${size.height}.png` });
  }
});

/** Each keyed ring segment's key, the count drawn with it, and the class's queued count from the table. */
async function keyedSegments(
  page: Page,
): Promise<{ cls: string; texts: string[]; queued: string; apart: boolean }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.drr-ring g.drr-seg')]
      .filter((g) => g.querySelector('.drr-seg-keyed'))
      .map((g) => {
        const cls = g.getAttribute('data-class') ?? '';
        const labels = [...g.querySelectorAll('text.drr-seg-label')];
        const boxes = labels.map((t) => t.getBoundingClientRect());
        // boxes of whole lines of text (the font's ascent and descent, more than the glyphs): apart
        // within 2 px
        const apart = boxes.every((a, i) =>
          boxes.every(
            (b, j) =>
              j <= i ||
              a.right <= b.left + 2 ||
              b.right <= a.left + 2 ||
              a.bottom <= b.top + 2 ||
              b.bottom <= a.top + 2,
          ),
        );
        const row = document.querySelector(`.drr-table tr.drr-row[data-class="${cls}"]`);
        return {
          cls,
          texts: labels.map((t) => (t.querySelector('textPath, tspan')?.textContent ?? '').trim()),
          queued: row?.getAttribute('data-queued') ?? '',
          apart,
        };
      }),
  );
}

// Each run once, the window resized to each size in turn (as a reader resizes it): at each size the
// checks a page opened there gets, each failure named by its size.
test(`a ring segment drawn as its key still shows its queued count (${SIZES.map((s) => `${s.width}×${s.height}`).join(', ')})`, async ({
  page,
}) => {
  await page.setViewportSize(SIZES[0]);
  await openPlain(page);
  // the sandbox: the 29-character name in an 8 % segment, two requests queued
  await page.evaluate((text) => window.fairground.load(text), KEYED_RING);
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    await expect(page.locator('.drr-ring .drr-seg-keyed'), at).toHaveCount(1);
    expect(await keyedSegments(page), at).toEqual([
      { cls: 'overnight_reindexing_backfill', texts: ['#4', '2'], queued: '2', apart: true },
    ]);
  }
  // a cluster run: the default scenario at 30 s holds 83 requests in bulk_uncached, blocked (#4)
  await pickScenario(page, 'default');
  await page.evaluate(() => window.fairground.runUntil(30));
  await expect.poll(() => playhead(page)).toBeGreaterThan(1000);
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    // (once the views show the run's moment: a keyed class with requests queued)
    await expect
      .poll(async () => (await keyedSegments(page)).filter((k) => Number(k.queued) > 0).length, {
        message: at,
      })
      .toBeGreaterThan(0);
    const full = (await keyedSegments(page)).filter((k) => Number(k.queued) > 0);
    for (const k of full) {
      expect(k.texts, `${k.cls} at ${at}`).toContain(k.queued);
      expect(
        k.texts.some((t) => /^#\d+$/.test(t)),
        `${k.cls} at ${at}`,
      ).toBe(true);
      expect(k.apart, `${k.cls}: key and count apart at ${at}`).toBe(true);
    }
    await page.locator('.drr-ring').first().scrollIntoViewIfNeeded();
    expect(await ringStrays(page), at).toEqual([]);
    expect(await smallText(page, '.drr-view', 14), at).toEqual([]);
    // every ring label reads at AA on its segment's fill as drawn (white on orange and pink was 2–2.8:1)
    expect(await faintRingLabels(page), at).toEqual([]);
    await page
      .locator('.drr-ring')
      .first()
      .screenshot({ path: `test-results/views/ring-keyed-count-${size.width}x${size.height}.png` });
  }
});

// One run, the window resized to each size in turn (as a reader resizes it): at each size the
// checks a page opened there gets, each failure named by its size.
test(`Figures' latency table fits its card: no sideways scroll, no cell cut (${SIZES.map((s) => `${s.width}×${s.height}`).join(', ')})`, async ({
  page,
}) => {
  // by t = 45 the values are at their widest ("548 ms", "18.3 s"): tester finding 9 saw "e2e p50/p9"
  // and "10.6 s" cut in the ~260 px card at 1280 and 1920
  await defaultAt(page, SIZES[0], 45);
  for (const size of SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    const lat = page.locator('section.fig-view .fig-latency');
    await expect(lat.locator('.fig-table tbody tr').first(), at).toBeVisible();
    await lat.scrollIntoViewIfNeeded();
    const cut = await lat.evaluate((el) => {
      const out: string[] = [];
      const box = el.getBoundingClientRect();
      for (const d of el.querySelectorAll('.table-scroll'))
        if (d.scrollWidth > d.clientWidth + 1) out.push(`table scrolls: ${d.scrollWidth} > ${d.clientWidth}`);
      for (const c of el.querySelectorAll<HTMLElement>('.fig-table th, .fig-table td')) {
        const r = c.getBoundingClientRect();
        if (c.scrollWidth > c.clientWidth + 1 || r.right > box.right + 1)
          out.push(`"${c.textContent}" ${c.scrollWidth} > ${c.clientWidth}, right ${r.right} > ${box.right}`);
      }
      return out;
    });
    expect(cut, at).toEqual([]);
    // the short headers carry their full names
    await expect(lat.locator('thead abbr'), at).toHaveCount(2);
    await expect(lat.locator('thead th[title*="time to first token"]'), at).toHaveCount(1);
    expect(await smallText(page, 'section.fig-view .fig-latency', 14), at).toEqual([]);
    await lat.screenshot({ path: `test-results/views/latency-table-${size.width}x${size.height}.png` });
  }
});

// Tester finding (new user, 1920×1080): the views column made three 290 px tracks, and the cards that
// come in pairs (Client service and Guarantees, Class service and Figures) left the third empty, their
// charts squeezed. No card may sit in a row with a track to spare, and each is at least 400 px wide.
test('at 1920×1080 the paired view cards share the views column: no empty track beside them, each ≥ 400 px', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openPlain(page);
  await page.evaluate(() => window.fairground.seek(300));
  await expect.poll(() => playhead(page)).toBe(300);
  const rows = await page.evaluate(() => {
    const views = document.querySelector<HTMLElement>('.views');
    if (!views) return null;
    const box = views.getBoundingClientRect();
    const cards = [...views.children].filter((c) => (c as HTMLElement).offsetParent !== null);
    return cards.map((c) => {
      const r = c.getBoundingClientRect();
      return {
        name: c.getAttribute('aria-label') ?? c.className,
        left: r.left - box.left,
        right: box.right - r.right,
        width: r.width,
      };
    });
  });
  expect(rows).not.toBeNull();
  for (const name of ['Client service', 'Guarantees', 'Class service', 'Figures']) {
    const card = rows?.find((r) => r.name === name);
    expect(card, name).toBeDefined();
    expect(card?.width, `${name} width`).toBeGreaterThanOrEqual(400);
  }
  // the right-hand card of each pair reaches the column's right edge (no empty track after it)
  for (const name of ['Guarantees', 'Figures'])
    expect(rows?.find((r) => r.name === name)?.right, name).toBeLessThan(2);
});

// Tester finding (new user): Tab reached every view but Class service, so its charts could not be
// focused for ← / → as the Help dialog says.
test('Tab reaches every view of the default scenario, Class service included', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPlain(page);
  await page.evaluate(() => window.fairground.seek(300));
  await expect.poll(() => playhead(page)).toBe(300);
  const views = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.views > .view')].map((v) => v.getAttribute('aria-label')),
  );
  expect(views).toContain('Class service');
  await page.locator('body').click({ position: { x: 5, y: 700 } });
  const reached = new Set<string>();
  for (let i = 0; i < 250 && reached.size < views.length; i++) {
    await page.keyboard.press('Tab');
    const label = await page.evaluate(() => {
      const a = document.activeElement;
      return a?.matches('.views > .view') ? a.getAttribute('aria-label') : null;
    });
    if (label) reached.add(label);
  }
  expect([...reached].sort()).toEqual([...views].filter((v): v is string => v !== null).sort());
});
