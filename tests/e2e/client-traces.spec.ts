/**
 * Trace clients in the page (#14.5, `clients[].trace`): a client naming the bundled trace replays it
 * beside a synthetic client; a client naming a local file waits for it, and dropping a file of that
 * name loads the scenario as written (not a replacement workload); two unnamed files dropped at
 * once become one trace client each.
 */
import { expect, type Page, test } from '@playwright/test';
import { editorReady, open } from './helpers';

const row = (ms: number, input: number, ids: number[]) =>
  JSON.stringify({ timestamp: ms, input_length: input, output_length: 8, hash_ids: ids });
const MINE = Array.from({ length: 12 }, (_, i) => row(i * 500, 1200, [0, 1, 10 + i])).join('\n');
const OTHER = Array.from({ length: 5 }, (_, i) => row(i * 1000, 700, [5, 20 + i])).join('\n');

const SCENARIO = (file: string) => `version: 1
name: trace clients
duration_s: 20
cluster: { workers: 2 }
clients:
  - name: synth
    arrival: { process: constant, rate: 1, stop_s: 4 }
    program: { type: single, prompt_tokens: 200, output_tokens: 8 }
  - name: mine
    trace: { file: ${file}, max_requests: 12 }
`;

async function drop(page: Page, files: { name: string; body: string }[]) {
  await page.evaluate((fs) => {
    const dt = new DataTransfer();
    for (const f of fs) dt.items.add(new File([f.body], f.name, { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, cancelable: true }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true }));
  }, files);
}

type Clients = Record<string, { injected: number }>;

test('a client replays the bundled trace beside a synthetic client', async ({ page }) => {
  await open(page);
  await page.evaluate((t) => window.fairground.load(t), SCENARIO('traces/synthetic-chat.jsonl'));
  await page.evaluate(() => window.fairground.runUntil(30));
  const clients = (await page.evaluate(() => window.fairground.snapshot())).clients as Clients;
  expect(Object.keys(clients)).toEqual(['synth', 'mine']);
  expect(clients.mine.injected).toBe(12);
  // constant 1/s over [0, 4): arrivals at 0, 1, 2, 3
  expect(clients.synth.injected).toBe(4);
});

test('a dropped file named by a client loads the scenario as written', async ({ page }) => {
  await open(page);
  await editorReady(page, 'scenario');
  await page.evaluate((t) => window.fairground.editor.setText('scenario', t), SCENARIO('mine.jsonl'));
  // the file is not on this page yet: the problem says where it comes from
  await expect
    .poll(() =>
      page.evaluate(() =>
        window.fairground.editor
          .markers('scenario')
          .map((m) => `${m.line}: ${m.message}`)
          .join('\n'),
      ),
    )
    .toMatch(/^10: cannot read trace file 'mine\.jsonl': in the playground, drop the trace file/);
  await drop(page, [{ name: 'mine.jsonl', body: MINE }]);
  await expect(
    page.getByRole('alert').filter({ hasText: 'the scenario that names it is loaded' }),
  ).toBeVisible();
  // the scenario is the one written (no replacement workload)
  const text = await page.evaluate(() => window.fairground.editor.text('scenario'));
  expect(text).toContain('name: synth');
  await page.evaluate(() => window.fairground.runUntil(30));
  const clients = (await page.evaluate(() => window.fairground.snapshot())).clients as Clients;
  expect(Object.keys(clients)).toEqual(['synth', 'mine']);
  expect(clients.mine.injected).toBe(12);

  // two files no scenario names, dropped together: one trace client each
  await drop(page, [
    { name: 'a day.jsonl', body: MINE },
    { name: 'other.jsonl', body: OTHER },
  ]);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Loaded 12 requests (mooncake) from a day.jsonl, 5 requests' }),
  ).toBeVisible();
  await page.evaluate(() => window.fairground.runUntil(30));
  const two = (await page.evaluate(() => window.fairground.snapshot())).clients as Clients;
  expect(two).toMatchObject({ 'a-day': { injected: 12 }, other: { injected: 5 } });
});
