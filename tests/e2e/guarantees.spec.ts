/**
 * Guarantees live in the browser: the deliberately broken DLPM (a quantum per request) shows its
 * violation with the time it happened and the warning; the real DLPM on the same workload shows none.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openPlain, pickScenario, resizeTo } from './helpers';

const REAL = readFileSync('scenarios/guarantee-dlpm.yaml', 'utf8');
const BROKEN = readFileSync('scenarios/guarantee-broken-dlpm.yaml', 'utf8');

test('the broken DLPM violates the bound and says when; the real one does not', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openPlain(page);
  const region = page.getByRole('region', { name: 'Guarantees' });

  await page.evaluate((t) => window.fairground.load(t), BROKEN);
  await page.evaluate(() => window.fairground.runUntil(12));
  await expect(region.getByRole('note')).toContainText('deliberately broken DLPM');
  await expect(region).toContainText(
    /violated at t = \d+(\.\d+)? s: (alice|bob)–hog gap [\d\u202f]+ > bound 26\u202f200/,
  );
  await expect(region.getByRole('list', { name: 'Violations' }).getByRole('listitem').first()).toContainText(
    'violated at t =',
  );
  await expect(region.getByRole('img')).toHaveAttribute(
    'aria-label',
    /of bound 26\u202f200 .*pairs? over the bound(, [\d\u202f]+ crossings)?, first at t = /,
  );
  await expect(region.locator('.gu-violation').first()).toBeAttached();

  await page.evaluate((t) => window.fairground.load(t), REAL);
  await page.evaluate(() => window.fairground.runUntil(12));
  await expect(region).toContainText('no violations');
  await expect(region).toContainText('2·(12\u202f600 + 500) = 26\u202f200');
  await expect(region).not.toContainText('violated at');
  await expect(region.getByRole('note')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('DoubleQ: a bound far above the gaps goes off scale instead of flattening them', async ({ page }) => {
  await openPlain(page);
  await pickScenario(page, 'paper-tot-s1-4w');
  await page.evaluate(() => window.fairground.runUntil(10));
  const region = page.getByRole('region', { name: 'Guarantees' });
  await expect(region.locator('.gu-bound[data-off-scale="true"]')).toBeAttached();
  // the marker in the plot (shortened to fit a narrow plot, never over the ticks), the bound in full in
  // its tooltip and in the legend
  await expect(region.locator('.gu-bound[data-off-scale="true"] text')).toContainText(
    /bound [\d.\u202f]+[kMG]? ↑( \(off scale\))?$/,
  );
  await expect(region.locator('.gu-bound[data-off-scale="true"] title')).toContainText(
    /= [\d\u202f]+ service units/,
  );
  await expect(region.getByRole('list', { name: 'Client pairs' })).toContainText(
    /bound [\d\u202f]+ \(above the axis\)/,
  );
  // the Client service curves keep their own scale; the bound is a gauge against their spread (#13.3)
  const cs = page.getByRole('region', { name: 'Client service' });
  await expect(cs.locator('.band')).toHaveCount(0);
  await expect(cs.locator('.cs-spread .gu-gauge-bound')).toBeAttached();
  // like with like: the gap while both clients were backlogged against the bound; the whole-run
  // spread apart, not as a share of the bound
  await expect(cs.locator('.cs-spread')).toContainText(
    /largest gap while both clients were backlogged = [\d\u202f]+ \(\S+\) = [<\d.\s]+ % of the bound/,
  );
  await expect(cs.locator('.cs-spread-whole')).toContainText(
    /leader − last client = [\d\u202f]+\. No theorem/,
  );
});

test("the bound's formula and every figure beside it read in the page's one number format (#13)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPlain(page);
  await pickScenario(page, 'guarantee-broken-dlpm');
  await page.evaluate(() => window.fairground.runUntil(12));
  const gu = page.getByRole('region', { name: 'Guarantees' });
  const cs = page.getByRole('region', { name: 'Client service' });
  await expect(gu.locator('.gu-violations li').first()).toBeVisible();
  // the formula, the summary, the legend, the gauges and the violation list: thousands grouped with
  // the narrow no-break space of src/ui/views/format.ts, as on every chart's ticks, never a comma
  await expect(gu.locator('.gu-formula')).toContainText(
    'U = w_e·L_input + w_q·M = 1·600 + 2·6\u202f000 = 12\u202f600; bound = 2·(U + Q^u) = 2·(12\u202f600 + 500) = 26\u202f200',
  );
  await expect(gu.locator('.gu-summary')).toContainText(
    /^Max gap \d{1,3}(\u202f\d{3})* of bound 26\u202f200 /,
  );
  await expect(gu.getByRole('list', { name: 'Violations' })).toContainText(/> bound 26\u202f200/);
  for (const [name, view] of [
    ['Guarantees', gu],
    ['Client service', cs],
  ] as const) {
    const text = await view.evaluate((e) => (e as HTMLElement).innerText);
    expect(text.match(/\d,\d{3}/g), name).toBeNull();
  }
  // the gauges' axis labels (0, ½, bound) stay apart in the view's narrow column
  const labels = await gu
    .locator('.gu-gauge-axis span')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right]));
  expect(labels.length).toBe(3);
  for (let i = 1; i < labels.length; i++) expect(labels[i][0]).toBeGreaterThanOrEqual(labels[i - 1][1]);
});

// One run, the window resized to each size in turn (as a reader resizes it): each failure named by
// its size.
const BOUND_SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
];
test(`the off-scale bound's marker stays clear of the gap axis's labels (${BOUND_SIZES.map((s) => `${s.width}×${s.height}`).join(', ')})`, async ({
  page,
}) => {
  await page.setViewportSize(BOUND_SIZES[0]);
  await openPlain(page);
  await pickScenario(page, 'guarantee-dlpm');
  await page.evaluate(() => window.fairground.runUntil(20));
  for (const size of BOUND_SIZES) {
    const at = `${size.width}×${size.height}`;
    await resizeTo(page, size);
    const chart = page.getByRole('region', { name: 'Guarantees' }).locator('.gu-chart svg');
    await expect(chart.locator('.gu-bound[data-off-scale="true"] text'), at).toContainText('bound');
    await chart.scrollIntoViewIfNeeded();
    const clashes = await chart.evaluate((svg) => {
      const boxes = [...svg.querySelectorAll('text')].map((t) => ({
        text: (t.textContent ?? '').trim(),
        r: t.getBoundingClientRect(),
      }));
      const out: string[] = [];
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i].r;
          const b = boxes[j].r;
          if (
            a.left < b.right - 0.5 &&
            b.left < a.right - 0.5 &&
            a.top < b.bottom - 0.5 &&
            b.top < a.bottom - 0.5
          )
            out.push(`${boxes[i].text} × ${boxes[j].text}`);
        }
      return out;
    });
    expect(clashes, at).toEqual([]);
  }
});

test('with no theorem (LPM) the pair legend says "no bound" and shows no dashed line for it (first-time user)', async ({
  page,
}) => {
  await openPlain(page);
  await page.evaluate(
    (t) => window.fairground.load(t),
    REAL.replace(/^ {2}policy: dlpm$/m, '  policy: lpm').replace(/^ {2}quantum: .*\n/m, ''),
  );
  await page.evaluate(() => window.fairground.runUntil(6));
  const legend = page.getByRole('list', { name: 'Client pairs' });
  const entry = legend.getByRole('listitem').filter({ hasText: /bound/ });
  await expect(entry).toHaveText('no bound');
  await expect(entry.locator('span[aria-hidden="true"]')).toHaveCSS('visibility', 'hidden');
  // and the chart draws none
  await expect(page.getByRole('region', { name: 'Guarantees' }).locator('.gu-bound')).toHaveCount(0);
});
