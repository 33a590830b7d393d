/**
 * Visual regression of the DRR ring as normalised SVG text (not pixels): the Dynamo burst at fixed
 * steps. Run `npx playwright test ring-visual -u` after an intended change to the ring's drawing.
 */
import { expect, test } from '@playwright/test';
import { open, pickScenario, playhead } from './helpers';

/** The ring's SVG with generated ids removed and numbers rounded, one tag per line. */
async function ringSvg(page: import('@playwright/test').Page): Promise<string> {
  const raw = await page
    .getByRole('region', { name: 'DRR ring' })
    .locator('svg')
    .first()
    .evaluate((el) => el.outerHTML);
  return (
    raw
      // React's useId values differ between renders of the page.
      .replace(/(id|href|aria-labelledby|aria-describedby|fill|clip-path|mask)="[^"]*«[^"]*"/g, '$1="#"')
      .replace(/«[^»]*»/g, '#')
      .replace(/url\(#[^)]*\)/g, 'url(#)')
      .replace(/(id|aria-labelledby|aria-describedby)="[^"]*"/g, '$1="#"')
      // The cursor's rotation accumulates across turns (for animation): compare it modulo a full turn.
      .replace(/rotate\((-?[\d.]+)deg\)/g, (_m, d) => `rotate(${((Number(d) % 360) + 360) % 360}deg)`)
      .replace(/-?\d+\.\d+/g, (n) => String(Math.round(Number(n) * 10) / 10))
      .replace(/></g, '>\n<')
  );
}

test('the DRR ring of the Dynamo burst at fixed steps', async ({ page }) => {
  // the drawing at rest, not a frame of the pop animation a one-step seek starts (#13.2)
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open(page);
  await pickScenario(page, 'drr-burst');
  // the eight requests are preloaded: step n is pop n
  for (const at of [0, 3, 4, 7]) {
    await page.evaluate((n) => window.fairground.seek(n), at);
    await expect.poll(() => playhead(page)).toBe(at);
    expect(await ringSvg(page)).toMatchSnapshot(`drr-burst-pop-${at}.svg.txt`);
  }
});

test('editing works without Monaco (plain textarea fallback)', async ({ page }) => {
  await page.goto('./?editor=plain');
  await page.waitForFunction(() => window.fairground?.state().kind !== null);
  await pickScenario(page, 'drr-burst');
  await page.getByRole('tab', { name: 'Policy' }).click();
  const area = page.getByRole('textbox', { name: 'Policy editor' });
  await expect(area).toBeVisible();
  await area.fill('policy_classes:\n  - {name: A, quantum: 10}\n  - {name: B, quantum: zero}\n');
  await expect
    .poll(() => page.evaluate(() => window.fairground.editor.markers('policy')))
    .toEqual([expect.objectContaining({ line: 3, owner: 'fairground' })]);
  // the panel's problem list (the same for Monaco and the textarea) names the place
  await expect(
    page.getByRole('region', { name: 'Policy editor' }).getByRole('list', { name: 'Policy problems' }),
  ).toContainText('3:');
  await area.fill('policy_classes:\n  - {name: A, quantum: 10}\n  - {name: B, quantum: 20}\n');
  await expect.poll(() => page.evaluate(() => window.fairground.editor.markers('policy'))).toEqual([]);
  await expect
    .poll(
      async () =>
        ((await page.evaluate(() => window.fairground.snapshot())).drr as { classes: { quantum: number }[] })
          .classes[1].quantum,
    )
    .toBe(20);
});
