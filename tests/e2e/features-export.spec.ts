import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { open, pickScenario, playhead } from './helpers';

test('Export: the run as JSON downloads with the run keys; a chart downloads as SVG', async ({ page }) => {
  await open(page);
  await page.evaluate(() => window.fairground.step(300));
  await expect.poll(() => playhead(page)).toBe(300);
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await expect(dialog).toContainText('at decision 300');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Run as JSON' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/-run\.json$/);
  const json = JSON.parse(readFileSync((await download.path()) as string, 'utf8'));
  expect(json).toMatchObject({ format: 'fairground-run', version: 1, kind: 'cluster', decisions: 300 });
  for (const k of ['jain_index', 'throughput', 'clients', 'latency', 'requests'])
    expect(json.result).toHaveProperty(k);
  expect(json.result.decisions).toBeGreaterThanOrEqual(300);
  expect(json.snapshot).toHaveProperty('sim_time_s');
  expect(typeof json.scenario_yaml).toBe('string');
  expect(Array.isArray(json.requests)).toBe(true);

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Time series as CSV' }).click(),
  ]);
  expect(readFileSync((await csv.path()) as string, 'utf8').split('\r\n')[0]).toMatch(/^t_s,service:/);

  const [svg] = await Promise.all([
    page.waitForEvent('download'),
    dialog
      .getByRole('button', { name: /^Client service — .* as SVG$/ })
      .first()
      .click(),
  ]);
  const text = readFileSync((await svg.path()) as string, 'utf8');
  expect(text).toMatch(/^<\?xml/);
  expect(text).toContain('<svg');
  expect(text).not.toContain('var(--');
});

test('Export in the DRR sandbox: the steps as CSV', async ({ page }) => {
  await open(page);
  await pickScenario(page, 'drr-burst');
  // two pops after the eight preloaded enqueues: the CSV has all ten ops run so far
  await page.evaluate(() => window.fairground.step(2));
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await expect(dialog.getByRole('button', { name: 'Time series as CSV' })).toBeDisabled();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Steps as CSV' }).click(),
  ]);
  const lines = readFileSync((await download.path()) as string, 'utf8')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('op,id,class,cost,cursor,carry');
  expect(lines).toHaveLength(11);
  expect(lines[10]).toMatch(/^pop,a1,A,3,/);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
