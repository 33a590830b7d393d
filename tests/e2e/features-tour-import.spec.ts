import { expect, test } from '@playwright/test';
import { open, openImport, playhead } from './helpers';

test.describe.configure({ mode: 'parallel' });

test('Tour: open the DRR lesson, Next twice, the simulation follows; Back and Escape', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'Tour' }).click();
  const tour = page.getByRole('dialog', { name: 'Tour' });
  await tour.getByRole('button', { name: 'What DRR is' }).click();
  await expect(tour).toContainText('Step 1 of 4');
  await expect(page.getByRole('heading', { name: 'Dynamo burst' })).toBeVisible();
  await expect.poll(() => playhead(page)).toBe(0);

  await tour.getByRole('button', { name: 'Next' }).click();
  await expect(tour).toContainText('Step 2 of 4');
  await expect.poll(() => playhead(page)).toBe(1);
  await tour.getByRole('button', { name: 'Next' }).click();
  await expect(tour).toContainText('Step 3 of 4');
  await expect.poll(() => playhead(page)).toBe(4);
  const drr = (await page.evaluate(() => window.fairground.snapshot())).drr as {
    carry: string | null;
    classes: { name: string; deficit: number }[];
  };
  expect(drr.classes.find((c) => c.name === 'A')?.deficit).toBe(1);
  expect(drr.classes.find((c) => c.name === 'B')?.deficit).toBe(7);

  await tour.getByRole('button', { name: 'Back' }).click();
  await expect(tour).toContainText('Step 2 of 4');
  await expect.poll(() => playhead(page)).toBe(1);
  const first = (await page.evaluate(() => window.fairground.snapshot())).drr as {
    carry: string | null;
    classes: { name: string; deficit: number }[];
  };
  expect(first.carry).toBe('A');
  expect(first.classes.find((c) => c.name === 'A')?.deficit).toBe(7);
  await page.keyboard.press('Escape');
  await expect(tour).toHaveCount(0);
});

const SPEC = `version: "2"
seed: 3
aggregate_rate: 4
num_requests: 40
clients:
  - id: chat
    rate_fraction: 3
    arrival: {process: poisson}
    input_distribution: {type: constant, params: {value: 256}}
    output_distribution: {type: constant, params: {value: 64}}
  - id: batch
    rate_fraction: 1
    arrival: {process: weibull, cv: 2}
    input_distribution: {type: constant, params: {value: 1024}}
    output_distribution: {type: constant, params: {value: 128}}
`;

test('Import: a pasted BLIS spec becomes the running scenario, with notes on the mapping', async ({
  page,
}) => {
  await open(page);
  const dialog = await openImport(page);
  await dialog.getByRole('textbox', { name: 'BLIS workload spec' }).fill(SPEC);
  await dialog.getByRole('button', { name: 'Import and load' }).click();
  const notes = dialog.getByRole('region', { name: 'Import notes' });
  await expect(notes).toContainText('Loaded');
  await expect(notes.locator('li').first()).toBeVisible();
  await expect(notes).toContainText(/weibull/i);
  const text = await page.evaluate(() => window.fairground.editor.text('scenario'));
  expect(text).toMatch(/name: chat/);
  expect(text).toMatch(/name: batch/);
  const snap = await page.evaluate(() => window.fairground.snapshot());
  expect(Object.keys(snap.clients as object).sort()).toEqual(['batch', 'chat']);

  // A broken spec shows positioned problems and loads nothing.
  await dialog.getByRole('textbox', { name: 'BLIS workload spec' }).fill('version: "2"\nclients: 7\n');
  await dialog.getByRole('button', { name: 'Import and load' }).click();
  await expect(notes).toContainText('Nothing was loaded');
  // file:line:col, as elsewhere (pasted text goes by "workload spec", a picked file by its name)
  await expect(notes).toContainText(/workload spec:\d+:\d+: /);
});
