/**
 * A description with a long unbroken run (a URL to a paper, a hash, a pasted token) wraps inside the
 * scenario panel. Before, the panel grew a horizontal scrollbar as wide as the run (960 px of content
 * in a 372 px panel on a phone), and every line of the description scrolled sideways with it.
 */
import { expect, test } from '@playwright/test';
import { openPlain, tinyScript } from './helpers';

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
]) {
  test(`a long unbroken word in a description wraps in the scenario panel (${viewport.width}×${viewport.height})`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await openPlain(page);
    const url = `https://example.org/${'averyverylongpath'.repeat(8)}/paper.pdf`;
    const scenario = tinyScript('Long words', [
      'description: |',
      `  See ${url} and \`${'x'.repeat(120)}\` for **${'bold'.repeat(30)}**.`,
    ]);
    await page.evaluate((t) => window.fairground.load(t), scenario);
    const panel = page.locator('section.scenario-panel');
    if (viewport.width < 900) await panel.locator('.fold-toggle').click();
    await expect(panel.locator('.prose')).toContainText('averyverylongpath');
    const { scroll, client } = await panel.evaluate((e) => ({
      scroll: e.scrollWidth,
      client: e.clientWidth,
    }));
    expect(scroll).toBeLessThanOrEqual(client);
  });
}
