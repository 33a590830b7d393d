/**
 * Runs on a dropped trace (#14.5): the Share dialog says the link cannot carry the file and what its
 * receiver sees; opening the link asks for the file in words (no line:col) and opens the run once it
 * is picked; a sweep of the run replays the same trace in every sweep worker, and so do Export's
 * replay and window.fairground.runResult.
 */
import { readFileSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { openImport, openPlain, playhead } from './helpers';

const MINI = Array.from({ length: 40 }, (_, i) =>
  JSON.stringify({
    timestamp: i * 250,
    input_length: 1500 + (i % 5) * 900,
    output_length: 20,
    hash_ids: [0, 1, 100 + i, 200 + i, 300 + i].slice(0, 3 + (i % 3)),
  }),
).join('\n');
const FILE = { name: 'mini.jsonl', mimeType: 'application/json', buffer: Buffer.from(MINI) };

/** A byte count as the page writes it (thin-space groups). */
const fmt = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');

/** A share link with its `traceBytes` replaced by `value` (as a hand-edited or damaged link holds it). */
function withTraceBytes(link: string, value: unknown): string {
  const [base, frag] = link.split('#s=');
  const dot = frag.indexOf('.');
  const state = JSON.parse(inflateRawSync(Buffer.from(frag.slice(dot + 1), 'base64url')).toString('utf8'));
  state.traceBytes = value;
  const body = deflateRawSync(Buffer.from(JSON.stringify(state))).toString('base64url');
  return `${base}#s=${frag.slice(0, dot)}.${body}`;
}

async function pickTrace(page: Page) {
  const dialog = await openImport(page);
  await dialog.getByLabel('Trace file').setInputFiles(FILE);
  // once loaded, the dialog closes and the page's banner says what loaded
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'Loaded 40 requests' })).toBeVisible();
}

test('share of a dropped-trace run: the dialog warns, the link asks for the file and opens with it', async ({
  page,
  context,
}) => {
  await openPlain(page);
  await pickTrace(page);
  await page.evaluate(() => window.fairground.step(25));
  const at = await playhead(page);
  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share link' });
  const note = dialog.getByRole('note');
  await expect(note).toContainText('“mini.jsonl”, a trace file you dropped on this page');
  await expect(note).toContainText('never uploaded');
  await expect(note).toContainText('a request to pick their copy of mini.jsonl');
  const link = await dialog.getByRole('textbox', { name: 'Share link' }).inputValue();

  // the receiver: a fresh page without the file
  const other = await context.newPage();
  await other.goto(link);
  const ask = other.getByRole('alert', { name: 'Trace file needed' });
  await expect(ask).toContainText('This link replays the request trace “mini.jsonl”');
  await expect(ask).toContainText('never uploaded');
  await expect(ask).not.toContainText(/\d+:\d+/); // words, not a position
  await expect(other.getByRole('alert').filter({ hasText: 'does not load' })).toHaveCount(0);
  await ask.getByLabel('Trace file mini.jsonl').setInputFiles({ ...FILE, name: 'my-copy.jsonl' });
  await expect(ask).toHaveCount(0);
  await expect.poll(() => playhead(other), { timeout: 20_000 }).toBe(at);
  const text = await other.evaluate(() => window.fairground.editor.text('scenario'));
  expect(text).toMatch(/file: mini\.jsonl/);
  await expect(other.getByRole('alert').filter({ hasText: 'Opened a shared link' })).toHaveCount(1);
});

/** The share link of a run replaying a picked mini.jsonl, ten decisions in. */
async function linkOfPickedTrace(page: Page): Promise<string> {
  await openPlain(page);
  await pickTrace(page);
  await page.evaluate(() => window.fairground.step(10));
  await page.getByRole('button', { name: 'Share' }).click();
  return page
    .getByRole('dialog', { name: 'Share link' })
    .getByRole('textbox', { name: 'Share link' })
    .inputValue();
}

// The tryout: a different file of the same name was taken as the sender's and the run called "the
// run as it was shared". The link now records each dropped file's size and checks the copy picked.
test('a shared link checks the picked trace against the sender’s: another copy is named so, and opens only when asked', async ({
  page,
  context,
}) => {
  const link = await linkOfPickedTrace(page);
  const other = await context.newPage();
  await other.goto(link);
  const ask = other.getByRole('alert', { name: 'Trace file needed' });
  const shorter = MINI.split('\n').slice(0, 30).join('\n');
  await ask.getByLabel('Trace file mini.jsonl').setInputFiles({ ...FILE, buffer: Buffer.from(shorter) });
  await expect(ask).toContainText(
    `This copy of mini.jsonl is ${fmt(shorter.length)} bytes; the sender's was ${fmt(MINI.length)} bytes`,
  );
  await expect(other.getByRole('alert').filter({ hasText: 'Opened a shared link' })).toHaveCount(0);
  await ask.getByRole('button', { name: 'Open with this copy anyway' }).click();
  await expect(
    other
      .getByRole('alert')
      .filter({ hasText: 'which is not the sender’s: this is not the run as it was shared' }),
  ).toBeVisible();
});

// #15: a malformed size record (-1, 12.5, a string, a list, null, a huge number) was dropped without a
// word, and any copy then opened as "the run as it was shared".
test('a shared link whose record of the trace’s size is unreadable says so, and never calls the run the shared one', async ({
  page,
  context,
}) => {
  const link = await linkOfPickedTrace(page);
  const other = await context.newPage();
  await other.goto(withTraceBytes(link, { 'mini.jsonl': 12.5 }));
  const ask = other.getByRole('alert', { name: 'Trace file needed' });
  await ask.getByLabel('Trace file mini.jsonl').setInputFiles(FILE);
  await expect(ask).toContainText(
    "The link's record of the sender's trace sizes is unreadable: its entry for mini.jsonl is 12.5, not a byte count.",
  );
  await expect(ask).toContainText('cannot tell whether this copy of mini.jsonl is the sender');
  await expect(other.getByRole('alert').filter({ hasText: 'Opened a shared link' })).toHaveCount(0);
  await ask.getByRole('button', { name: 'Open with this copy anyway' }).click();
  const opened = other.getByRole('alert').filter({ hasText: 'Opened a shared link' });
  await expect(opened).toContainText('could not be checked against the sender’s');
  await expect(opened).toContainText('this may not be the run as it was shared');
  await expect(opened).not.toContainText('this is the run as it was shared');

  // the record unreadable as a whole (a list): the copy this page now holds is not taken as the sender's
  await other.evaluate(
    (h) => {
      location.hash = h;
    },
    new URL(withTraceBytes(link, ['mini.jsonl', 5])).hash,
  );
  await expect(ask).toContainText('is unreadable (it is a list, not sizes by file name)');
  await expect(ask.getByRole('button', { name: 'Open with this copy anyway' })).toBeVisible();
  // the words about the link opened before are gone: the page shows the default scenario meanwhile
  await expect(opened).toHaveCount(0);
  // a long value is quoted briefly, and on a phone the banner's buttons stay on the screen
  await other.setViewportSize({ width: 390, height: 844 });
  await other.evaluate(
    (h) => {
      location.hash = h;
    },
    new URL(withTraceBytes(link, { 'mini.jsonl': 'x'.repeat(300) })).hash,
  );
  await expect(ask).toContainText(`its entry for mini.jsonl is "${'x'.repeat(23)}…", not a byte count`);
  for (const name of [/^Pick mini\.jsonl/, 'Open with this copy anyway', 'Dismiss']) {
    const box = await ask.getByRole('button', { name }).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, String(name)).toBe(true);
  }
});

// The tryout after #15: a link that records no size for the dropped trace it replays (one made before
// sizes were recorded, or edited by hand) opened with the very file picked as "the run as it was
// shared", though nothing could tell it was the sender's file.
test('a shared link that records no size for its trace says the copy cannot be checked, and never calls the run the shared one', async ({
  page,
  context,
}) => {
  const link = await linkOfPickedTrace(page);
  const other = await context.newPage();
  await other.goto(withTraceBytes(link, undefined));
  const ask = other.getByRole('alert', { name: 'Trace file needed' });
  await ask.getByLabel('Trace file mini.jsonl').setInputFiles(FILE);
  await expect(ask).toContainText("The link records no size for the sender's mini.jsonl");
  await expect(ask).toContainText("cannot tell whether this copy of mini.jsonl is the sender's");
  await expect(other.getByRole('alert').filter({ hasText: 'Opened a shared link' })).toHaveCount(0);
  await ask.getByRole('button', { name: 'Open with this copy anyway' }).click();
  await expect(ask).toHaveCount(0);
  const opened = other.getByRole('alert').filter({ hasText: 'Opened a shared link' });
  await expect(opened).toContainText(
    'with your copy of its trace, which could not be checked against the sender’s (the link records no size for it): this may not be the run as it was shared.',
  );
  await expect(opened).not.toContainText('this is the run as it was shared');
  await expect.poll(() => playhead(other), { timeout: 20_000 }).toBe(10);
});

// The tryout after #15: an unreadable size record in a link whose run replays no dropped trace was
// ignored without a word; the run is the one shared, and a short note says why the record does not matter.
test('a shared link’s unreadable record of trace sizes, about no file its run replays, gets a short note', async ({
  page,
}) => {
  await openPlain(page);
  await page.getByRole('button', { name: 'Share' }).click();
  const link = await page
    .getByRole('dialog', { name: 'Share link' })
    .getByRole('textbox', { name: 'Share link' })
    .inputValue();
  await page.keyboard.press('Escape');
  await page.evaluate(
    (h) => {
      location.hash = h;
    },
    new URL(withTraceBytes(link, ['mini.jsonl', 5])).hash,
  );
  const opened = page.getByRole('alert').filter({ hasText: 'Opened a shared link' });
  await expect(opened).toContainText(
    'Opened a shared link: this is the run as it was shared. The link’s record of trace file sizes is unreadable; this run replays no dropped trace file, so that changes nothing.',
  );
  await expect(page.getByRole('alert', { name: 'Trace file needed' })).toHaveCount(0);
});

// #15: an entry for a file the page holds but the link's run does not replay put up the banner.
test('a shared link’s sizes of files its run does not replay are not about it', async ({ page }) => {
  await openPlain(page);
  await page.getByRole('button', { name: 'Share' }).click();
  const link = await page
    .getByRole('dialog', { name: 'Share link' })
    .getByRole('textbox', { name: 'Share link' })
    .inputValue();
  await page.keyboard.press('Escape');
  await pickTrace(page);
  const hash = new URL(withTraceBytes(link, { 'mini.jsonl': 1 })).hash;
  await page.evaluate((h) => {
    location.hash = h;
  }, hash);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Opened a shared link: this is the run as it was shared.' }),
  ).toBeVisible();
  await expect(page.getByRole('alert', { name: 'Trace file needed' })).toHaveCount(0);
});

test('a sweep of a run on a dropped trace replays that trace at every point', async ({ page }) => {
  await openPlain(page);
  await pickTrace(page);
  await page.getByRole('button', { name: 'Sweep' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sweep' });
  await dialog.getByRole('combobox', { name: 'Parameter' }).selectOption('cluster.workers');
  await dialog.getByRole('spinbutton', { name: 'From' }).fill('1');
  await dialog.getByRole('spinbutton', { name: 'To' }).fill('2');
  await dialog.getByRole('spinbutton', { name: 'Points' }).fill('2');
  await dialog.getByRole('radio', { name: 'linear' }).check();
  await dialog.getByRole('button', { name: 'Run sweep' }).click();
  const progress = dialog.getByRole('progressbar', { name: 'Sweep progress' });
  await expect(progress).toHaveAttribute('aria-valuetext', '100 %', { timeout: 60_000 });
  await expect(dialog).not.toContainText('drop the trace file');
  const results = page.getByRole('region', { name: 'Sweep results' });
  await expect(results.getByRole('button', { name: /^Open run/ })).toHaveCount(2);
});

test('Export and runResult of a run on a dropped trace replay that trace', async ({ page }) => {
  await openPlain(page);
  await pickTrace(page);
  await page.evaluate(() => window.fairground.step(100));
  await expect.poll(() => playhead(page)).toBe(100);
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Run as JSON' }).click(),
  ]);
  await expect(dialog).not.toContainText('drop the trace file');
  const json = JSON.parse(readFileSync((await download.path()) as string, 'utf8'));
  expect(json).toMatchObject({ kind: 'cluster', decisions: 100 });
  expect(json.scenario_yaml).toMatch(/file: mini\.jsonl/);
  expect(json.requests.length).toBeGreaterThan(0);
  // the whole run in a fresh worker, as the CLI would print it: all 40 requests of the trace
  const out = await page.evaluate((y) => window.fairground.runResult(y), json.scenario_yaml as string);
  expect(out.ok ? out.result.requests.injected : out.message).toBe(40);
});
