/**
 * The Fig. 1 preset compared Jain's indices over unlike windows (tryout T2): Q^u = 200 000 looked
 * best on both axes with an index over 6.6–113.5 s while the other points' ran to 180–189 s. The
 * chart now says so in words, each point's tooltip gives its window, and the system view can be
 * plotted instead (where that point is the least fair).
 */
import { expect, test } from '@playwright/test';
import { openPlain } from './helpers';

test("the Fig. 1 preset says its points' Jain windows differ, and offers the system view", async ({
  page,
}) => {
  await openPlain(page);
  await page.getByRole('button', { name: 'Sweep' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sweep' });
  const preset = dialog.getByRole('combobox', { name: 'Preset' });
  await preset.selectOption({
    label: 'Paper Fig. 1 — DLPM Q^u frontier (one worker, ToT S2, KV cache under pressure)',
  });
  await dialog.getByRole('button', { name: 'Run sweep' }).click();
  await expect(dialog).toContainText('— done', { timeout: 120_000 });
  const results = page.getByRole('region', { name: 'Sweep results' });
  const frontier = results.locator('figure', { hasText: 'Throughput vs fairness' });
  await expect(frontier.locator('.sweep-window-note')).toContainText(
    "Jain's index covers unlike windows here: 107.0 s (200 000: 6.6–113.5 s) to 232.7 s (LPM: 6.6–239.3 s)",
  );
  // the line through the swept values joins those indices: said under that chart
  await expect(
    results.locator('figure', { hasText: 'vs throughput and fairness' }).locator('.sweep-window-note'),
  ).toContainText('The dashed line joins indices over these unlike windows.');
  const marker = frontier.locator('.sweep-marker title', { hasText: /200\D?000/ });
  await expect(marker).toHaveText(/Jain's index 0\.954 over 6\.6–113\.5 s \(107\.0 s\)/);
  await results.getByRole('radio', { name: /system view/ }).check();
  await expect(frontier.locator('.axis-label', { hasText: "Jain's index (system view)" })).toHaveCount(1);
  await expect(marker).toHaveText(/Jain's index 0\.840 over 6\.6–113\.5 s/);
});
