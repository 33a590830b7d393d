/**
 * Trace replay in the page (#14.5): a trace picked in the Import dialog or dropped on the page is read
 * locally and becomes the workload of the current cluster; a malformed one shows file:line: message
 * and loads nothing; the Class service view shows the classes it went through.
 */
import { expect, test } from '@playwright/test';
import { openImport, openPlain } from './helpers';

const MINI = Array.from({ length: 40 }, (_, i) =>
  JSON.stringify({
    timestamp: i * 250,
    input_length: 1500 + (i % 5) * 900,
    output_length: 20,
    hash_ids: [0, 1, 100 + i, 200 + i, 300 + i, 400 + i, 500 + i].slice(0, 3 + (i % 5)),
  }),
).join('\n');

test('a trace picked in Import replays as the workload, with its classes in Class service', async ({
  page,
}) => {
  await openPlain(page);
  const dialog = await openImport(page);
  await dialog.getByLabel('Trace file').setInputFiles({
    name: 'mini.jsonl',
    mimeType: 'application/json',
    buffer: Buffer.from(MINI),
  });
  // once loaded, the dialog closes (it stood over Play) and the page's banner says what loaded
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'Loaded 40 requests (mooncake)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export' })).toBeFocused();
  // the replay is not the shipped scenario it started from
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toHaveValue('');
  const text = await page.evaluate(() => window.fairground.editor.text('scenario'));
  expect(text).toMatch(/file: mini\.jsonl/);
  expect(text).toMatch(/clients: \[\]/);
  await page.evaluate(() => window.fairground.runUntil(30));
  const snap = await page.evaluate(() => window.fairground.snapshot());
  const clients = snap.clients as Record<string, { injected: number; completed: number }>;
  expect(Object.keys(clients)).toEqual(['trace']);
  expect(clients.trace.injected).toBe(40);
  if (snap.kind !== 'cluster' || !snap.class_service)
    throw new Error('expected a cluster run with class service');
  const cs = snap.class_service;
  expect(cs.classes.reduce((s, c) => s + c.dispatched, 0)).toBe(40);
  const view = page.getByRole('region', { name: 'Class service' });
  await expect(view).toBeVisible();
  await expect(view.getByRole('table')).toContainText('served uncached tokens');

  // Compare: B (another local scheduler) runs on the same dropped trace, read again by B's worker
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const dialog2 = page.getByRole('dialog', { name: 'Compare' });
  await dialog2.getByRole('combobox', { name: 'B scheduler' }).selectOption('lpm');
  await dialog2.getByRole('button', { name: 'Start comparing' }).click();
  const diff = page.getByRole('region', { name: 'Difference' });
  await expect(diff.locator('tr[data-row^="class-share:"]').first()).toBeVisible({ timeout: 20_000 });
  await expect(diff.getByRole('table')).toContainText(/class \S+ share of uncached tokens/);
});

test('a trace dropped on the page replays; a malformed one says file:line and loads nothing', async ({
  page,
}) => {
  await openPlain(page);
  const csv =
    'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.68,374,44\n2023-11-16 18:15:50.99,396,109\n';
  const drop = (name: string, body: string) =>
    page.evaluate(
      ([n, b]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([b], n, { type: 'text/csv' }));
        window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, cancelable: true }));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true }));
      },
      [name, body],
    );
  await drop('azure.csv', csv);
  const dialog = page.getByRole('dialog', { name: 'Import' });
  await expect(page.getByRole('alert').filter({ hasText: 'Loaded 2 requests (azure)' })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  // Play is reachable (a dialog over it would take the click)
  await page.getByRole('button', { name: 'Play' }).click();
  await expect.poll(() => page.evaluate(() => window.fairground.state().decisionCount)).toBeGreaterThan(0);
  await page.evaluate(() => window.fairground.runUntil(10));
  const snap = await page.evaluate(() => window.fairground.snapshot());
  expect((snap.clients as Record<string, { injected: number }>).trace.injected).toBe(2);

  // a malformed one opens the dialog again, with the problem
  await drop('bad.csv', `${csv}2023-11-16 18:15:52,x,1\n`);
  await expect(dialog.getByRole('status', { name: 'Trace status' })).toContainText(
    "bad.csv:4:21: input tokens 'x' is not a number",
  );
  // the previous replay still runs
  expect(await page.evaluate(() => window.fairground.editor.text('scenario'))).toMatch(/file: azure\.csv/);

  // a YAML file (a BLIS spec, here) is not read as a trace: the dialog says where it goes
  await drop('spec.yaml', 'version: "2"\nclients:\n  - id: a\n');
  await expect(dialog.getByRole('status', { name: 'Trace status' })).toContainText(
    'spec.yaml: a YAML file, not a request trace',
  );
  await expect(dialog.getByRole('status', { name: 'Trace status' })).not.toContainText('column');
  expect(await page.evaluate(() => window.fairground.editor.text('scenario'))).toMatch(/file: azure\.csv/);
});

test('a CSV of no known layout: Import asks which column is which, replays it, and writes the columns in the YAML', async ({
  page,
}) => {
  await openPlain(page);
  const dialog = await openImport(page);
  const rows = Array.from(
    { length: 30 },
    (_, i) => `${i * 400},${1000 + (i % 4) * 500},${10 + i},${i % 3 ? 'web' : 'batch'}`,
  );
  await dialog.getByLabel('Trace file').setInputFiles({
    name: 'odd.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(['arrival_ms,prompt_tokens,completion_tokens,tenant', ...rows].join('\n')),
  });
  // before: "give trace.columns.timestamp", which nothing in the page could give
  const form = dialog.getByRole('form', { name: 'CSV columns' });
  await expect(form).toBeVisible();
  // guessed from the names, the unit too (`arrival_ms`)
  await expect(form.getByLabel('Arrival time')).toHaveValue('arrival_ms');
  await expect(form.getByLabel('Prompt (input) tokens')).toHaveValue('prompt_tokens');
  await expect(form.getByLabel('Output tokens')).toHaveValue('completion_tokens');
  await expect(form.getByLabel('Client')).toHaveValue('tenant');
  await expect(form.getByLabel('Times are in')).toHaveValue('ms');
  // a wrong choice (the client column as the prompt's tokens): the form comes back with the choices
  // made, says which one to change, and lists the file's problems (before: the form was gone, and the
  // file had to be picked again)
  await form.getByLabel('Prompt (input) tokens').selectOption('tenant');
  await form.getByRole('button', { name: 'Read with these columns' }).click();
  const again = dialog.getByRole('form', { name: 'CSV columns' });
  await expect(again.getByRole('status')).toContainText(
    "The column chosen for Prompt (input) tokens (now 'tenant') does not hold token counts",
  );
  await expect(again.getByRole('status')).toContainText('odd.csv:2:');
  await expect(again.getByLabel('Prompt (input) tokens')).toHaveValue('tenant');
  await expect(again.getByLabel('Times are in')).toHaveValue('ms');
  await again.getByLabel('Prompt (input) tokens').selectOption('prompt_tokens');
  await again.getByRole('button', { name: 'Read with these columns' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'Loaded 30 requests (csv)' })).toBeVisible();
  const text = await page.evaluate(() => window.fairground.editor.text('scenario'));
  expect(text).toMatch(/format: csv/);
  expect(text).toMatch(/time_unit: ms/);
  expect(text).toMatch(/timestamp: arrival_ms/);
  await page.evaluate(() => window.fairground.runUntil(30));
  const snap = await page.evaluate(() => window.fairground.snapshot());
  const clients = snap.clients as Record<string, { injected: number }>;
  // the tenant column splits the trace into its clients; 30 requests over 11.6 s (milliseconds)
  expect(Object.values(clients).reduce((n, c) => n + c.injected, 0)).toBe(30);
});

// #15: the form offered the first 200 of a CSV's columns and left out the rest without a word.
test('a CSV of more than 200 columns: the columns form says only the first 200 are offered', async ({
  page,
}) => {
  await openPlain(page);
  const dialog = await openImport(page);
  const header = Array.from({ length: 1234 }, (_, i) => `field_${i}`);
  const row = header.map((_, i) => String(i)).join(',');
  await dialog.getByLabel('Trace file').setInputFiles({
    name: 'wide.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${header.join(',')}\n${row}\n`),
  });
  const form = dialog.getByRole('form', { name: 'CSV columns' });
  await expect(form).toBeVisible();
  const note = form.getByText(/This file has 1\s?234 columns; the first 200 are offered\./);
  await expect(note).toBeVisible();
  expect(
    await note.evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize)),
  ).toBeGreaterThanOrEqual(14);
  await expect(form.getByLabel('Arrival time').locator('option')).toHaveCount(201);
  // a keyboard user on a column choice hears it too
  for (const role of ['Arrival time', 'Prompt (input) tokens', 'Output tokens', 'Client'])
    await expect(form.getByLabel(role)).toHaveAccessibleDescription(/the first 200 are offered/);
  await form.getByLabel('Arrival time').focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Arrival time')).toBeFocused();
});
