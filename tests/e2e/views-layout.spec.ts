/**
 * The views' layout at the lecture sizes (#13): compact Workers and Class queues, the deficit table's
 * swatch beside its class name, ring labels inside their segments, one meaning per colour with a
 * legend, sweep labels that do not overlap, and a tour's compared charts kept in place with the same
 * axes. Sizes, overlaps and text sizes are measured in the page; screenshots go to
 * test-results/views/ for a person to look at.
 */
import { expect, type Page, test } from '@playwright/test';
import { open } from './helpers';

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

for (const { size, present } of [
  { size: SIZES[0], present: true },
  { size: SIZES[1], present: true },
  { size: SIZES[2], present: true },
  { size: SIZES[0], present: false },
])
  test(`the LPM/DLPM tour keeps the service and gap charts in place, on the same axes (${size.width}×${size.height}${present ? ', presenting' : ''})`, async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await page.setViewportSize(size);
    await open(page);
    // on a phone the tours sit behind the header's Menu
    if (size.width < 900) await page.getByRole('button', { name: 'Menu', expanded: false }).click();
    await page.getByRole('button', { name: 'Tour' }).click();
    await page.getByRole('button', { name: 'Why LPM starves a client and DLPM does not' }).click();
    if (present) await page.keyboard.press('p');
    const seen: {
      step: number;
      cs: Awaited<ReturnType<typeof chartAt>>;
      gu: Awaited<ReturnType<typeof chartAt>>;
    }[] = [];
    // LPM, DLPM, back to LPM, DLPM again: what a lecturer flips between
    for (const step of [1, 2, 1, 2]) {
      await expect(page.locator('.tour-progress')).toContainText(`Step ${step} of 3`);
      await expect(page.locator('.tour-progress')).not.toContainText('moving', { timeout: 60_000 });
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
      });
      if (seen.length <= 2)
        await page.screenshot({
          path: `test-results/views/tour-step${step}-${size.width}x${size.height}${present ? '-present' : ''}.png`,
        });
      await page.getByRole('button', { name: step === 1 ? 'Next' : 'Back' }).click();
    }
    // the same y axis in both steps (LPM's larger service and gaps set it), in every visit
    for (const s of seen) {
      expect(s.cs.ticks).toBe(seen[0].cs.ticks);
      expect(s.gu.ticks).toBe(seen[0].gu.ticks);
      expect(s.cs.ticks).toMatch(/\d/);
    }
    // the Client service chart never moves: it comes before anything a step changes
    for (const s of seen) expect(s.cs.box, `step ${s.step}`).toEqual(seen[0].cs.box);
    // the gap chart is beside it on a projector; stacked under it on a phone it keeps its place once
    // the tour has shown both steps (the room the taller step needed stays reserved)
    const from = size.width < 900 ? 1 : 0;
    for (const s of seen.slice(from)) expect(s.gu.box, `step ${s.step}`).toEqual(seen[from].gu.box);
  });
